package deploy

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Environments (docs/environments.md): a project's named places to deploy
// to, each bound to one connection. A deploy, trigger or plan may name the
// environment in place of the connection; a deploy to a connection bound to
// an environment is a deploy to that environment either way, so that its
// names and variables are the environment's.

// environmentName is e's name, "" for nil.
func environmentName(e *edgeflow.Environment) string {
	if e == nil {
		return ""
	}
	return e.Name
}

// ResolveEnvironment answers the connection a request names, by its id or
// by the name of one of the tenant's project environments (both may be
// given when they agree), and the environment bound to that connection
// (nil when none is). An unknown environment is not_found, one bound to no
// connection a conflict, neither name given validation_failed.
func (s *Service) ResolveEnvironment(ctx context.Context, t Tenant, connectionID, environment string) (string, *edgeflow.Environment, error) {
	connectionID, environment = strings.TrimSpace(connectionID), strings.TrimSpace(environment)
	if environment == "" {
		if connectionID == "" {
			return "", nil, edgeflow.Invalid("/connectionId", "connectionId or environment is required")
		}
		e, err := s.store.FindEnvironmentByConnection(ctx, t.ProjectID, connectionID)
		switch {
		case edgeflow.IsNotFound(err):
			return connectionID, nil, nil
		case err != nil:
			return "", nil, err
		}
		return connectionID, e, nil
	}
	e, err := s.store.FindEnvironment(ctx, t.ProjectID, environment)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return "", nil, &edgeflow.Error{Code: edgeflow.ENotFound, Message: "environment not found",
				Details: []edgeflow.FieldError{{Path: "/environment", Message: "the project has no environment " + quoteName(environment)}}}
		}
		return "", nil, err
	}
	if e.ConnectionID == "" {
		return "", nil, edgeflow.Errorf(edgeflow.EConflict,
			"environment %s is bound to no connection: set its connectionId first (PATCH /api/projects/{id}/environments/%s)", e.Name, e.Name)
	}
	if connectionID != "" && connectionID != e.ConnectionID {
		return "", nil, edgeflow.Invalid("/environment", "environment "+e.Name+" is bound to another connection than connectionId")
	}
	return e.ConnectionID, e, nil
}

// quoteName is a client's name as an error message shows it: quoted, and
// cut at 64 bytes.
func quoteName(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return `"` + s + `"`
}

// workflowVarIn is v as a deploy to the environment env sees it: its value
// there, or its default; ok is false when the variable has no value there
// (OnlyEnvironments without an entry for env).
func workflowVarIn(v edgeflow.WorkflowEnvVar, env string) (edgeflow.WorkflowEnvVar, bool) {
	if val, ok := v.Values[env]; ok && env != "" {
		v.Value = val
		return v, true
	}
	return v, !v.OnlyEnvironments
}

// globalVarIn is workflowVarIn for a global variable.
func globalVarIn(v *edgeflow.EnvVar, env string) (*edgeflow.EnvVar, bool) {
	if val, ok := v.Values[env]; ok && env != "" {
		cp := *v
		cp.Value = val
		return &cp, true
	}
	return v, !v.OnlyEnvironments
}

// EnvDiff compares the variables two environments give a workflow: Missing
// are those the source has and the target lacks, Extra those the target
// has and the source lacks, each sorted by name.
type EnvDiff struct {
	Missing []string `json:"missing"`
	Extra   []string `json:"extra"`
}

// Promotion is a checked promotion: the version active in the source
// environment, and how the two environments' variables differ.
type Promotion struct {
	VersionID string
	Diff      EnvDiff
}

// CheckPromotion finds the version active in environment from (a conflict
// when the workflow is not deployed there) and compares the variables of
// from and to. A variable the version reads ({{env.NAME}} or a node's
// required secret) that to lacks is validation_failed (422) naming it, so
// that nothing is deployed.
func (s *Service) CheckPromotion(ctx context.Context, tw *TenantWorkflow, from, to *edgeflow.Environment) (*Promotion, error) {
	wf := tw.Workflow()
	active, err := s.store.FindActiveDeployment(ctx, wf.ID, from.ConnectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow is not deployed in environment %s: nothing to promote", from.Name)
		}
		return nil, err
	}
	v, err := s.store.FindVersionByID(ctx, wf.ID, active.VersionID)
	if err != nil {
		return nil, err
	}
	if s.compiler == nil {
		return nil, edgeflow.Errorf(edgeflow.EInternal, "no compiler is configured")
	}
	reqs, err := s.compiler.Analyze(ctx, &wf, v)
	if err != nil {
		return nil, err
	}
	globals, err := s.globalEnv(ctx, wf.OrganizationID, wf.ProjectID)
	if err != nil {
		return nil, err
	}
	have := func(env string) map[string]bool {
		out := map[string]bool{}
		for name, g := range globals {
			if _, ok := globalVarIn(g, env); ok {
				out[name] = true
			}
		}
		for _, wv := range wf.EnvVars {
			if _, ok := workflowVarIn(wv, env); ok {
				out[wv.Name] = true
			}
		}
		return out
	}
	inFrom, inTo := have(from.Name), have(to.Name)
	var lacking []edgeflow.FieldError
	for _, name := range sortedUnique(append(append([]string{}, reqs.EnvNames...), reqs.Secrets...)) {
		if !inTo[name] {
			lacking = append(lacking, edgeflow.FieldError{Path: "/to", Message: "environment " + to.Name + " has no value for " + name})
		}
	}
	if len(lacking) > 0 {
		names := make([]string, len(lacking))
		for i, l := range lacking {
			names[i] = strings.TrimPrefix(l.Message, "environment "+to.Name+" has no value for ")
		}
		return nil, &edgeflow.Error{Code: edgeflow.EInvalid, Details: lacking, Message: fmt.Sprintf(
			"version %d reads variables that environment %s lacks: %s; set them there (values.%s) before promoting",
			v.Number, to.Name, strings.Join(names, ", "), to.Name)}
	}
	diff := EnvDiff{Missing: []string{}, Extra: []string{}}
	for name := range inFrom {
		if !inTo[name] {
			diff.Missing = append(diff.Missing, name)
		}
	}
	for name := range inTo {
		if !inFrom[name] {
			diff.Extra = append(diff.Extra, name)
		}
	}
	sort.Strings(diff.Missing)
	sort.Strings(diff.Extra)
	return &Promotion{VersionID: v.ID, Diff: diff}, nil
}

// environmentChildren points the Workflow bindings of a version's children
// (sub_workflow nodes, agents' workflow tools) at their names in
// environment env: outside production a workflow is deployed under names
// of its own (place; docs/environments.md, "Names"), so a parent deployed
// to staging starts the child deployed to staging, never production's.
// bindings itself is left as it is (the compiler may cache it).
func environmentChildren(env string, bindings []Binding, children []SubWorkflowRef) []Binding {
	if env == "" || env == edgeflow.DefaultEnvironment || len(children) == 0 {
		return bindings
	}
	names := map[string]string{} // a child's production script name -> its name in env
	for _, c := range children {
		names[codegen.ScriptName(c.WorkflowID)] = codegen.ScriptName(c.WorkflowID + "-" + env)
	}
	out := slices.Clone(bindings)
	for i, b := range out {
		if name, ok := names[b.ScriptName]; ok && b.Type == BindingWorkflow && b.WorkflowName == b.ScriptName {
			out[i].ScriptName, out[i].WorkflowName = name, name
		}
	}
	return out
}
