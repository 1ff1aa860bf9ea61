package deploy

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// EnvValue is one resolved environment variable of a deploy. Value is the
// plain value; Secret ones go up as secret_text bindings only.
type EnvValue struct {
	Name   string
	Value  string
	Secret bool
}

// String never shows the value.
func (v EnvValue) String() string { return v.Name }

// MissingVariable names one variable a deploy cannot resolve.
type MissingVariable struct {
	Name string `json:"name"`
	// Reason is "missing" (referenced or declared, no value), "unresolved"
	// (a {{global.env.NAME}} reference with no global variable of that
	// name) or "secret" (a secret a node requires is not set).
	Reason string `json:"reason"`
	// Reference is the global name of an unresolved reference.
	Reference string `json:"reference,omitempty"`
}

var globalRef = regexp.MustCompile(`^\s*\{\{\s*global\.env\.([A-Z][A-Z0-9_]*)\s*\}\}\s*$`)

// resolveEnv resolves the workflow's env vars for a deploy:
//   - a declared variable whose value is exactly {{global.env.NAME}} takes the
//     value of the global NAME of the workflow's project, else of its
//     organization (secret when either side is secret);
//   - a variable the IR references ({{env.NAME}}) but the workflow does not
//     declare is looked up among the globals the same way;
//   - a secret a node requires must resolve and always goes up as a secret.
//
// Every variable that cannot be resolved is reported at once, as a
// deploy_failed error (400) whose Details list them.
//
// env is the environment deployed to ("" for none): a variable takes its
// value there when it has one, else its default, and one that has values
// only for other environments is missing (docs/environments.md).
func (s *Service) resolveEnv(ctx context.Context, w *edgeflow.Workflow, env string, referenced, requiredSecrets []string) ([]EnvValue, error) {
	globals, err := s.globalEnv(ctx, w.OrganizationID, w.ProjectID)
	if err != nil {
		return nil, err
	}
	for name, g := range globals {
		if g, ok := globalVarIn(g, env); ok {
			globals[name] = g
		} else {
			delete(globals, name)
		}
	}
	var (
		out     []EnvValue
		missing []MissingVariable
		have    = map[string]int{}
	)
	for _, v := range w.EnvVars {
		v, ok := workflowVarIn(v, env)
		if !ok {
			continue
		}
		if m := globalRef.FindStringSubmatch(v.Value); m != nil && !v.IsSecret {
			g, ok := globals[m[1]]
			if !ok {
				missing = append(missing, MissingVariable{Name: v.Name, Reason: "unresolved", Reference: m[1]})
				continue
			}
			val, err := s.globalValue(g)
			if err != nil {
				return nil, err
			}
			have[v.Name] = len(out)
			out = append(out, EnvValue{Name: v.Name, Value: val, Secret: g.IsSecret})
			continue
		}
		val := v.Value
		if v.IsSecret {
			val, err = s.secrets.OpenWorkflowSecret(w, v)
			if err != nil {
				return nil, &edgeflow.Error{Code: edgeflow.EInternal, Message: "a secret of the workflow cannot be opened", Err: err}
			}
			if m := globalRef.FindStringSubmatch(val); m != nil {
				g, ok := globals[m[1]]
				if !ok {
					missing = append(missing, MissingVariable{Name: v.Name, Reason: "unresolved", Reference: m[1]})
					continue
				}
				if val, err = s.globalValue(g); err != nil {
					return nil, err
				}
			}
		}
		have[v.Name] = len(out)
		out = append(out, EnvValue{Name: v.Name, Value: val, Secret: v.IsSecret})
	}
	need := func(name, reason string, secret bool) {
		if i, ok := have[name]; ok {
			if secret {
				out[i].Secret = true
			}
			return
		}
		if g, ok := globals[name]; ok {
			val, err2 := s.globalValue(g)
			if err2 != nil {
				err = err2
				return
			}
			have[name] = len(out)
			out = append(out, EnvValue{Name: name, Value: val, Secret: g.IsSecret || secret})
			return
		}
		for _, m := range missing {
			if m.Name == name {
				return
			}
		}
		missing = append(missing, MissingVariable{Name: name, Reason: reason})
	}
	for _, name := range sortedUnique(referenced) {
		need(name, "missing", false)
	}
	for _, name := range sortedUnique(requiredSecrets) {
		need(name, "secret", true)
	}
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = m.Name
		}
		return nil, &edgeflow.Error{
			Code:    edgeflow.EDeployFailed,
			Message: "missing or unresolved environment variables: " + strings.Join(names, ", "),
			Details: missing,
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// globalEnv returns the global variables visible to a project by name, the
// project's shadowing the organization's.
func (s *Service) globalEnv(ctx context.Context, organizationID, projectID string) (map[string]*edgeflow.EnvVar, error) {
	out := map[string]*edgeflow.EnvVar{}
	opts := edgeflow.ListOptions{Limit: 100}
	for {
		page, err := s.store.ListEnvVars(ctx, organizationID, projectID, opts)
		if err != nil {
			return nil, err
		}
		for i := range page.Items {
			v := &page.Items[i]
			if prev, ok := out[v.Name]; ok && prev.ProjectID != "" {
				continue
			}
			out[v.Name] = v
		}
		if page.NextCursor == "" {
			return out, nil
		}
		opts.Cursor = page.NextCursor
	}
}

func (s *Service) globalValue(v *edgeflow.EnvVar) (string, error) {
	if !v.IsSecret {
		return v.Value, nil
	}
	val, err := s.secrets.OpenEnvVar(v)
	if err != nil {
		return "", &edgeflow.Error{Code: edgeflow.EInternal, Message: "a global secret cannot be opened", Err: err}
	}
	return val, nil
}

func sortedUnique(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
