package api

import (
	"context"
	"net/http"
	"sort"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// envVarUse is one global variable a workflow reads: Via "reference" (its
// current version or trigger code reads {{env.NAME}} and the workflow
// declares no variable of that name) or "declared" (a declared variable,
// named As, whose value is {{global.env.NAME}}).
type envVarUse struct {
	Name string `json:"name"`
	Via  string `json:"via"`
	As   string `json:"as,omitempty"`
}

// envVarUsage is one workflow of the project with the global variables it
// reads (GET /api/env-vars/usage).
type envVarUsage struct {
	WorkflowID   string      `json:"workflowId"`
	WorkflowName string      `json:"workflowName"`
	Kind         string      `json:"kind"`
	Uses         []envVarUse `json:"uses"`
}

// handleEnvVarUsage lists the project's workflows, a page at a time in the
// order of the workflow list, each with the global variables a deploy of
// its current version would read (docs/decisions.md 280).
func (s *Server) handleEnvVarUsage(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	if _, err := p.Organization(); err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListWorkflows(r.Context(), p.ProjectID, opts)
	if err != nil {
		return listError(err)
	}
	uses := make(map[string][]envVarUse, len(page.Items))
	for i := range page.Items {
		u, err := s.globalEnvUses(r.Context(), &page.Items[i])
		if err != nil {
			return err
		}
		uses[page.Items[i].ID] = u
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(wf edgeflow.Workflow) envVarUsage {
		return envVarUsage{WorkflowID: wf.ID, WorkflowName: wf.Name, Kind: string(wf.Kind), Uses: uses[wf.ID]}
	}))
	return nil
}

// globalEnvUses finds the global variables wf reads, by name: the same
// lookups a deploy makes (internal/deploy resolveEnv), without resolving
// values.
func (s *Server) globalEnvUses(ctx context.Context, wf *edgeflow.Workflow) ([]envVarUse, error) {
	out := []envVarUse{}
	seen := map[envVarUse]bool{}
	add := func(u envVarUse) {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	declared := map[string]bool{}
	for _, v := range wf.EnvVars {
		declared[v.Name] = true
		value := v.Value
		if v.IsSecret {
			plain, err := s.Sealer.OpenWorkflowEnvVar(wf.ID, v)
			if err != nil {
				return nil, err
			}
			value = plain
		}
		if name, ok := deploysvc.GlobalReference(value); ok {
			add(envVarUse{Name: name, Via: "declared", As: v.Name})
		}
	}
	var ir []byte
	if wf.CurrentVersionID != "" {
		v, err := s.Store.FindVersionByID(ctx, wf.ID, wf.CurrentVersionID)
		if err != nil && !edgeflow.IsNotFound(err) {
			return nil, err
		}
		if v != nil {
			ir = v.IR
		}
	}
	for _, name := range deploysvc.EnvReferences(ir, wf.TriggerCode) {
		if !declared[name] {
			add(envVarUse{Name: name, Via: "reference"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
