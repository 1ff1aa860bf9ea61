package api

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"

	"github.com/edgeflow/edgeflow/internal/codegen"
	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/export"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Exports (docs/export.md): a version as a plain Cloudflare project that
// wrangler deploys on its own, in a gzipped tar. Variables and secrets are
// named, never valued.

// gzipArchive is the answer of an export.
var gzipArchive = Media{Type: "application/gzip", Schema: map[string]any{"type": "string", "format": "binary"}}

// handleVersionExport answers the version as a wrangler project
// (?format=wrangler, the one format): a .tar.gz download.
func (s *Server) handleVersionExport(w http.ResponseWriter, r *http.Request) error {
	switch f := r.URL.Query().Get("format"); f {
	case "wrangler":
	case "":
		return edgeflow.Invalid("/format", `format is required: "wrangler"`)
	default:
		return edgeflow.Invalid("/format", fmt.Sprintf(`format %q is not known: "wrangler" is the one format`, f))
	}
	wf, err := s.FindWorkflow(r, r.PathValue("workflowId"))
	if err != nil {
		return err
	}
	v, err := s.Store.FindVersionByID(r.Context(), wf.ID, r.PathValue("versionId"))
	if err != nil {
		return err
	}
	catalog, templates, err := s.orgNodes(r.Context(), wf.OrganizationID)
	if err != nil {
		return err
	}
	a, graph, problems := ir.ValidateGraph(v.IR, ir.Options{Nodes: catalog})
	if len(problems) > 0 {
		return &edgeflow.Error{Code: edgeflow.EInvalidIR,
			Message: fmt.Sprintf("version %d no longer validates (a marketplace node it uses may have been uninstalled): %s %s", v.Number, problems[0].Path, problems[0].Message),
			Details: problems}
	}
	vars, err := s.exportVariables(r.Context(), wf, v, a)
	if err != nil {
		return err
	}
	proj, err := export.Wrangler(export.Input{Workflow: wf, Version: v, IR: a, Graph: graph, Templates: templates, Variables: vars,
		CompatibilityDate: deploysvc.DefaultCompatibilityDate, CompatibilityFlags: deploysvc.DefaultCompatibilityFlags,
		ResolveSubWorkflow: func(ref string) (string, string, bool) {
			child, err := s.Store.FindWorkflowByID(r.Context(), wf.ProjectID, ref)
			if err != nil {
				return "", "", false
			}
			name := export.ProjectName(child)
			return name, name, true
		}})
	if err != nil {
		return &edgeflow.Error{Code: edgeflow.EInvalidIR, Message: "the version cannot be compiled: " + err.Error(), Err: err}
	}
	data, err := proj.Archive(v.CreatedAt)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", gzipArchive.Type)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("Content-Disposition", attachment(fmt.Sprintf("%s-v%d-wrangler.tar.gz", proj.Name, v.Number)))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
	return nil
}

// exportVariables names the variables and secrets the version's code reads:
// the workflow's own, those its IR references ({{env.NAME}}, a secret when
// the project's or organization's global of that name is) and the secrets
// its marketplace nodes require. Values are not read.
func (s *Server) exportVariables(ctx context.Context, wf *edgeflow.Workflow, v *edgeflow.Version, a *ir.ArtifactIR) ([]export.Variable, error) {
	secret := map[string]bool{}
	for _, e := range wf.EnvVars {
		secret[e.Name] = secret[e.Name] || e.IsSecret
	}
	globals := map[string]bool{}
	opts := edgeflow.ListOptions{Limit: 100}
	for {
		page, err := s.Store.ListEnvVars(ctx, wf.OrganizationID, wf.ProjectID, opts)
		if err != nil {
			return nil, err
		}
		for _, g := range page.Items {
			globals[g.Name] = globals[g.Name] || g.IsSecret
		}
		if page.NextCursor == "" {
			break
		}
		opts.Cursor = page.NextCursor
	}
	for _, e := range wf.EnvVars {
		if m := globalEnvRef(e.Value); m != "" && globals[m] {
			secret[e.Name] = true
		}
	}
	for _, name := range deploysvc.EnvReferences(v.IR, wf.TriggerCode) {
		if _, ok := secret[name]; !ok {
			secret[name] = globals[name]
		}
	}
	if s.Marketplace != nil {
		req, err := s.Marketplace.RequiredSecrets(ctx, wf.OrganizationID, a)
		if err != nil {
			return nil, err
		}
		for _, name := range req {
			secret[name] = true
		}
	}
	out := make([]export.Variable, 0, len(secret))
	for _, name := range sortedKeysBool(secret) {
		out = append(out, export.Variable{Name: name, Secret: secret[name]})
	}
	if wf.Kind != edgeflow.KindScript {
		out = append(out, export.Variable{Name: codegen.WorkerTokenBinding, Secret: true})
	}
	return out, nil
}

var globalRefPattern = regexp.MustCompile(`^\s*\{\{\s*global\.env\.([A-Z][A-Z0-9_]*)\s*\}\}\s*$`)

// globalEnvRef is NAME when value is exactly {{global.env.NAME}}.
func globalEnvRef(value string) string {
	m := globalRefPattern.FindStringSubmatch(value)
	if m == nil {
		return ""
	}
	return m[1]
}

func sortedKeysBool(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
