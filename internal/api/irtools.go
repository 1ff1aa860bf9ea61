package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/edgeflow/edgeflow/internal/codegen"
	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// The IR endpoints, for editors: POST /api/ir/validate answers every
// problem a version submit would refuse the IR for, at once, and POST
// /api/ir/compile answers the TypeScript a version of the IR gets. Neither
// stores anything. With workflowId they check and compile the IR as a
// version of that workflow (its kind, project, name, variables,
// dependencies and trigger code); without it, on its own in the active
// project (decision 150).

// previewWorkflowID names the script, Workflow and class of code compiled
// without a workflowId.
const previewWorkflowID = "preview"

// Rules of the problems the IR endpoints add to the IR's own (ir.Problem).
const (
	ruleKind        = "kind"         // the IR's kind differs from the workflow's
	ruleSubWorkflow = "sub-workflow" // a sub_workflow names no workflow of the project
	ruleCodeSyntax  = "code-syntax"  // step code that does not parse
	ruleCompile     = "compile"      // the compiler refused the IR
)

type irToolRequest struct {
	IR json.RawMessage `json:"ir"`
	// WorkflowID, when set, checks and compiles the IR as a version of
	// this workflow of the active project.
	WorkflowID string `json:"workflowId,omitempty"`
}

type irCompileResponse struct {
	Code string `json:"code"`
}

// irCheck is the outcome of checking an IR: its problems, or the generated
// code when it has none.
type irCheck struct {
	errors []edgeflow.IRProblem
	code   string
}

// handleIRValidate answers every problem of the IR at once: 200
// {valid, errors}.
func (s *Server) handleIRValidate(w http.ResponseWriter, r *http.Request) error {
	c, err := s.checkIRRequest(r)
	if err != nil {
		return err
	}
	errs := c.errors
	if errs == nil {
		errs = []edgeflow.IRProblem{}
	}
	writeJSON(w, http.StatusOK, edgeflow.IRValidation{Valid: len(errs) == 0, Errors: errs})
	return nil
}

// handleIRCompile answers the generated TypeScript, or 400 invalid_ir with
// the problems handleIRValidate answers as details.
func (s *Server) handleIRCompile(w http.ResponseWriter, r *http.Request) error {
	c, err := s.checkIRRequest(r)
	if err != nil {
		return err
	}
	if len(c.errors) > 0 {
		e := c.errors[0]
		msg := "the IR is invalid: " + e.Message
		if e.Path != "" {
			msg = "the IR is invalid: " + e.Path + ": " + e.Message
		}
		if len(c.errors) > 1 {
			msg += fmt.Sprintf(" (and %d more problems)", len(c.errors)-1)
		}
		return &edgeflow.Error{Code: edgeflow.EInvalidIR, Message: msg, Details: c.errors}
	}
	writeJSON(w, http.StatusOK, irCompileResponse{Code: c.code})
	return nil
}

// checkIRRequest reads the request and checks its IR.
func (s *Server) checkIRRequest(r *http.Request) (*irCheck, error) {
	body, err := readBodyLimit(r, MaxIRBodyBytes)
	if err != nil {
		return nil, err
	}
	defer body.release()
	var req irToolRequest
	if err := decodeBytes(body.Bytes(), &req); err != nil {
		return nil, err
	}
	switch firstByte(req.IR) {
	case 0, 'n':
		return nil, edgeflow.Invalid("/ir", "ir is required: the IR object to check")
	case '{':
	default:
		return nil, edgeflow.Invalid("/ir", "ir must be a JSON object")
	}
	p := PrincipalFrom(r)
	orgID, err := p.Organization()
	if err != nil {
		return nil, err
	}
	var wf *edgeflow.Workflow
	projectID := ""
	if req.WorkflowID != "" {
		wf, err = s.FindWorkflow(r, req.WorkflowID)
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Invalid("/workflowId", fmt.Sprintf("%q is not a workflow or function of the active project", req.WorkflowID))
		}
		if err != nil {
			return nil, err
		}
		projectID = wf.ProjectID
	} else if projectID, err = p.Project(); err != nil {
		return nil, err
	}
	return s.checkIR(r.Context(), req.IR, orgID, projectID, wf)
}

// checkIR runs on raw every check of a version submit (versionService.Submit)
// and collects the problems of all of them that can run: the IR's
// validation against the organization's node catalog, the workflow's kind,
// the sub_workflow references, the syntax of step code; the compiler runs
// when there is no problem, and its code is the answer. The workflow's
// trigger code is not checked: it is not part of the IR (PATCH of the
// workflow checks it).
func (s *Server) checkIR(ctx context.Context, raw []byte, orgID, projectID string, wf *edgeflow.Workflow) (*irCheck, error) {
	catalog := &orgCatalog{load: func() (*nodes.Catalog, []codegen.NodeTemplate, error) {
		return s.orgNodes(ctx, orgID)
	}}
	a, graph, problems := ir.ValidateGraph(raw, ir.Options{Nodes: catalog})
	if catalog.err != nil {
		return nil, catalog.err
	}
	c := &irCheck{}
	for _, p := range problems {
		c.errors = append(c.errors, edgeflow.IRProblem{NodeID: p.NodeID, Path: p.Path, Message: p.Message, Rule: p.Rule})
	}
	if a == nil {
		return c, nil
	}
	if wf != nil {
		for _, p := range kindProblems(wf, a) {
			c.errors = append(c.errors, edgeflow.IRProblem{Path: p.Path, Message: p.Message, Rule: ruleKind})
		}
	}
	if refs := deploysvc.SubWorkflowRefs(a); len(refs) > 0 {
		err := deploysvc.CheckSubWorkflows(ctx, s.Store, projectID, refs)
		var e *edgeflow.Error
		switch {
		case err == nil:
		case errors.As(err, &e) && e.Code == edgeflow.EInvalid:
			fes, _ := e.Details.([]edgeflow.FieldError)
			for _, fe := range fes {
				ie := edgeflow.IRProblem{Path: fe.Path, Message: fe.Message, Rule: ruleSubWorkflow}
				for _, ref := range refs {
					if fe.Path == fmt.Sprintf("/nodes/%d/data/workflowId", ref.Index) {
						ie.NodeID = ref.NodeID
					}
				}
				c.errors = append(c.errors, ie)
			}
		default:
			return nil, err
		}
	}
	if err := codeSyntaxError(orgID, a, ""); err != nil {
		var e *edgeflow.Error
		if !errors.As(err, &e) {
			return nil, err
		}
		cps, _ := e.Details.([]codeProblem)
		for _, cp := range cps {
			c.errors = append(c.errors, edgeflow.IRProblem{NodeID: cp.NodeID, Path: cp.Path, Message: cp.Message, Rule: ruleCodeSyntax,
				Field: cp.Field, Line: cp.Line, Column: cp.Column})
		}
	}
	if len(c.errors) > 0 {
		return c, nil
	}
	// As a version is built (versionBuild.build): the defaults filled in,
	// the number the IR's metadata.version holds.
	opts := codegen.Options{WorkflowID: previewWorkflowID, DisplayName: a.Metadata.Name, Version: a.Metadata.Version,
		Templates: catalog.templates, Graph: graph}
	if wf != nil {
		opts.WorkflowID, opts.DisplayName, opts.TriggerCode = wf.ID, wf.Name, wf.TriggerCode
		opts.EnvVars, opts.Dependencies = codegenEnvVars(wf.EnvVars), wf.Dependencies
	}
	out, err := codegen.Generate(a, opts)
	if err != nil {
		var ie *edgeflow.Error
		if cerr := compileError(a, err); errors.As(cerr, &ie) && ie.Code == edgeflow.EInvalidIR {
			ps, _ := ie.Details.([]ir.Problem)
			for _, p := range ps {
				c.errors = append(c.errors, edgeflow.IRProblem{NodeID: p.NodeID, Path: p.Path, Message: p.Message, Rule: ruleCompile})
			}
			return c, nil
		}
		return nil, err
	}
	c.code = joinFiles(out)
	return c, nil
}
