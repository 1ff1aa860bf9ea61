package deploy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// CodegenCompiler is the Compiler of internal/codegen and internal/bundle,
// with the organization's node catalog and templates from the marketplace.
type CodegenCompiler struct {
	// Marketplace gives each organization's nodes and templates; nil means
	// the builtin nodes only.
	Marketplace *marketplace.Service
	// CacheDir holds installed npm dependencies (bundle.Input.CacheDir);
	// "" means <user cache dir>/edgeflow/npm.
	CacheDir string
	// CacheLimit bounds CacheDir in bytes (bundle.Input.CacheLimit; 0 means
	// bundle.DefaultCacheLimit, negative none).
	CacheLimit int64
	// Minify shortens the uploaded bundle.
	Minify bool
}

// mainModule is the uploaded module's name.
const mainModule = "index.js"

var envRef = regexp.MustCompile(`\{\{\s*env\.([A-Z][A-Z0-9_]*)\s*\}\}`)

func (c *CodegenCompiler) parse(ctx context.Context, w *edgeflow.Workflow, v *edgeflow.Version) (*ir.ArtifactIR, *ir.Graph, []codegen.NodeTemplate, error) {
	catalog := nodes.BuiltinCatalog()
	var templates []codegen.NodeTemplate
	if c.Marketplace != nil {
		var err error
		if catalog, err = c.Marketplace.NodeCatalog(ctx, w.OrganizationID); err != nil {
			return nil, nil, nil, err
		}
		if templates, err = c.Marketplace.Templates(ctx, w.OrganizationID); err != nil {
			return nil, nil, nil, err
		}
	}
	a, graph, problems := ir.ValidateGraph(v.IR, ir.Options{Nodes: catalog})
	if len(problems) > 0 {
		msg := problems[0].Message
		if problems[0].Path != "" {
			msg = problems[0].Path + ": " + msg
		}
		return nil, nil, nil, &edgeflow.Error{Code: edgeflow.EInvalidIR,
			Message: fmt.Sprintf("version %d no longer validates (a marketplace node it uses may have been uninstalled): %s", v.Number, msg),
			Details: problems}
	}
	return a, graph, templates, nil
}

// Analyze validates the version against the organization's current nodes
// and the workflow's dependencies (CheckDependencies) and lists the
// {{env.NAME}} references, the required secrets of its marketplace nodes
// and its sub_workflow nodes.
func (c *CodegenCompiler) Analyze(ctx context.Context, w *edgeflow.Workflow, v *edgeflow.Version) (*Requirements, error) {
	a, _, _, err := c.parse(ctx, w, v)
	if err != nil {
		return nil, err
	}
	if err := CheckDependencies(w.Dependencies); err != nil {
		return nil, err
	}
	req := &Requirements{SubWorkflows: SubWorkflowRefs(a), Steps: withAdmissionStep(ir.StepBoundsOf(a), a, w)}
	req.HeaviestPath = nodePointer(a, req.Steps.Heaviest)
	req.EnvNames = EnvReferences(v.IR, w.TriggerCode)
	if c.Marketplace != nil {
		if req.Secrets, err = c.Marketplace.RequiredSecrets(ctx, w.OrganizationID, a); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// Compile generates the TypeScript of the version and bundles it into one
// ES module.
func (c *CodegenCompiler) Compile(ctx context.Context, w *edgeflow.Workflow, v *edgeflow.Version, env []EnvValue) (*Artifact, error) {
	a, graph, templates, err := c.parse(ctx, w, v)
	if err != nil {
		return nil, err
	}
	vars := make([]codegen.EnvVar, len(env))
	for i, e := range env {
		vars[i] = codegen.EnvVar{Name: e.Name, Secret: e.Secret}
	}
	// A workflow with flow control gets the admission gate when it has a
	// cron trigger (codegen ignores it otherwise): its schedule's starts
	// wait for discovery to admit them.
	_, limited := flowOf(w)
	out, err := codegen.Generate(a, codegen.Options{
		WorkflowID: w.ID, DisplayName: w.Name, Version: v.Number, TriggerCode: w.TriggerCode,
		EnvVars: vars, Templates: templates, Dependencies: w.Dependencies, JavaScript: true, Graph: graph,
		AdmissionGate: limited,
	})
	if err != nil {
		var ce *codegen.Error
		if errors.As(err, &ce) {
			path := ce.Path
			if ptr := ce.NodePointer(); ptr != "" {
				path = ptr
			}
			return nil, &edgeflow.Error{Code: edgeflow.EInvalidIR, Message: "the version cannot be compiled: " + ce.Error(),
				Details: []ir.Problem{{Path: path, NodeID: ce.NodeID, Message: ce.Message, Rule: "compile"}}}
		}
		return nil, err
	}
	cache := c.CacheDir
	if cache == "" && len(out.Dependencies) > 0 {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		cache = filepath.Join(dir, "edgeflow", "npm")
	}
	b, err := bundle.Bundle(ctx, bundle.Input{Files: out.Files, Entry: out.MainModule, Dependencies: out.Dependencies,
		CacheDir: cache, CacheLimit: c.CacheLimit, Minify: c.Minify, Regions: out.Regions})
	if err != nil {
		var be *bundle.Error
		if errors.As(err, &be) {
			return nil, &edgeflow.Error{Code: edgeflow.EDeployFailed, Message: "the code does not bundle: " + be.Error(), Details: be.Problems}
		}
		var ie *bundle.InstallError
		if errors.As(err, &ie) {
			return nil, &edgeflow.Error{Code: edgeflow.EDeployFailed, Message: "the npm dependencies cannot be installed: " + ie.Error(), Err: err}
		}
		return nil, err
	}
	art := &Artifact{
		ScriptName:   out.ScriptName,
		WorkflowName: out.WorkflowName,
		ClassName:    out.ClassName,
		MainModule:   mainModule,
		Modules:      map[string][]byte{mainModule: b.Code},
		Crons:        out.Crons,
	}
	for _, bd := range out.Bindings {
		switch bd.Type {
		case codegen.BindingWorkflow:
			if bd.ScriptName == "" && bd.WorkflowName == out.WorkflowName {
				art.WorkflowBinding = bd.Name
				continue
			}
			art.Bindings = append(art.Bindings, Binding{Type: BindingWorkflow, Name: bd.Name,
				WorkflowName: bd.WorkflowName, ClassName: bd.ClassName, ScriptName: bd.ScriptName})
		case codegen.BindingKV:
			art.Resources = append(art.Resources, Resource{Kind: ResourceKV, Binding: bd.Name})
		case codegen.BindingD1:
			art.Resources = append(art.Resources, Resource{Kind: ResourceD1, Binding: bd.Name})
		case codegen.BindingR2:
			art.Resources = append(art.Resources, Resource{Kind: ResourceR2, Binding: bd.Name})
		case codegen.BindingAI:
			art.Bindings = append(art.Bindings, Binding{Type: BindingAI, Name: bd.Name})
		case codegen.BindingService:
			if bd.Target != "" {
				art.Bindings = append(art.Bindings, Binding{Type: BindingService, Name: bd.Name, Service: bd.Target})
			}
		}
	}
	return art, nil
}
