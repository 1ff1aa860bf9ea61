package marketplace

import (
	"context"
	"sort"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

var builtinTypes = map[string]bool{
	ir.TypeStep: true, ir.TypeSleep: true, ir.TypeSleepUntil: true, ir.TypeBranch: true,
	ir.TypeParallel: true, ir.TypeRace: true, ir.TypeHTTPRequest: true, ir.TypeWaitForEvent: true,
	ir.TypeTryCatch: true, ir.TypeLoop: true, ir.TypeBreak: true, ir.TypeSubWorkflow: true,
	ir.TypeAgent: true,
}

// IsBuiltin reports whether nodeType is one of the thirteen builtin node types.
func IsBuiltin(nodeType string) bool { return builtinTypes[nodeType] }

// NodeRefs returns the marketplace node references "<type>@<version>" of
// the IR's non-builtin nodes, sorted and without duplicates: what a stored
// version records as its NodeTypes.
func NodeRefs(a *ir.ArtifactIR) []string {
	seen := map[string]bool{}
	var refs []string
	for _, n := range a.Nodes {
		if builtinTypes[n.Type] {
			continue
		}
		ref := n.Type + "@" + n.Version
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	sort.Strings(refs)
	return refs
}

// SecretRequirement is an env var a deploy must provide because a
// marketplace node of the IR reads a secret from it.
type SecretRequirement struct {
	// EnvVar is the variable's name.
	EnvVar string `json:"envVar"`
	// Required is false for optional secret fields: the node runs without it.
	Required bool `json:"required"`
	// NodeIDs are the IR nodes that read it, in IR order.
	NodeIDs []string `json:"nodeIds"`
	// NodeTypes are their marketplace node types, sorted.
	NodeTypes []string `json:"nodeTypes"`
}

// Secrets lists the secret env vars the IR's marketplace nodes read, per the
// definitions installed in the organization, sorted by name. A variable is
// Required when any node reading it declares the field required. Nodes of a
// type the organization has not installed are skipped (the validator
// rejects them). Errors: EConflict for a snapshot that fails verification.
func (s *Service) Secrets(ctx context.Context, orgID string, a *ir.ArtifactIR) ([]SecretRequirement, error) {
	defs, err := s.usedDefinitions(ctx, orgID, a)
	if err != nil || len(defs) == 0 {
		return nil, err
	}
	byName := map[string]*SecretRequirement{}
	types := map[string]map[string]bool{}
	for _, n := range a.Nodes {
		d, ok := defs[n.Type]
		if !ok {
			continue
		}
		for _, f := range d.ConfigSchema {
			if f.Type != ir.FieldSecret || f.EnvVarName == "" {
				continue
			}
			r := byName[f.EnvVarName]
			if r == nil {
				r = &SecretRequirement{EnvVar: f.EnvVarName}
				byName[f.EnvVarName] = r
				types[f.EnvVarName] = map[string]bool{}
			}
			r.Required = r.Required || f.Required
			if len(r.NodeIDs) == 0 || r.NodeIDs[len(r.NodeIDs)-1] != n.ID {
				r.NodeIDs = append(r.NodeIDs, n.ID)
			}
			types[f.EnvVarName][n.Type] = true
		}
	}
	out := make([]SecretRequirement, 0, len(byName))
	for name, r := range byName {
		for t := range types[name] {
			r.NodeTypes = append(r.NodeTypes, t)
		}
		sort.Strings(r.NodeTypes)
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].EnvVar < out[j].EnvVar })
	return out, nil
}

// RequiredSecrets returns the names of the env vars that the IR's
// marketplace nodes require (secret fields marked required in the installed
// definitions), sorted: a deploy must refuse (400) when one is missing.
// Errors as Secrets.
func (s *Service) RequiredSecrets(ctx context.Context, orgID string, a *ir.ArtifactIR) ([]string, error) {
	all, err := s.Secrets(ctx, orgID, a)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, r := range all {
		if r.Required {
			names = append(names, r.EnvVar)
		}
	}
	return names, nil
}

// usedDefinitions returns the installed definitions of the IR's marketplace
// node types, by type.
func (s *Service) usedDefinitions(ctx context.Context, orgID string, a *ir.ArtifactIR) (map[string]registry.Definition, error) {
	used := map[string]bool{}
	for _, n := range a.Nodes {
		if !builtinTypes[n.Type] {
			used[n.Type] = true
		}
	}
	if len(used) == 0 {
		return nil, nil
	}
	bundles, err := s.Bundles(ctx, orgID)
	if err != nil {
		return nil, err
	}
	defs := map[string]registry.Definition{}
	for _, b := range bundles {
		if used[b.Definition.ID] {
			defs[b.Definition.ID] = b.Definition
		}
	}
	return defs, nil
}
