package nodes

import (
	"slices"
	"sync"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// Entry is one marketplace node version a Catalog knows: its definition and
// the TypeScript template the compiler emits for it.
type Entry struct {
	Definition ir.NodeDefinition
	// Template is the source of the version's template.ts (docs/registry.md,
	// "The template contract").
	Template string
	// Checksum is the registry checksum of the version.
	Checksum string
}

// EntryFromBundle makes a registry node version usable in a Catalog.
// The registry's definitions are ir.NodeDefinition values already, checked
// by registry.CheckDefinition (never Builtin).
func EntryFromBundle(b registry.Bundle) Entry {
	return Entry{Definition: b.Definition, Template: b.Template, Checksum: b.Checksum}
}

// Catalog is a set of node definitions: the builtins plus marketplace node
// versions. It implements ir.NodeCatalog and is safe for concurrent use; it
// never changes after NewCatalog.
type Catalog struct {
	byType   map[string][]*entry // versions, oldest first
	order    []string            // types: builtins in SPEC order, then marketplace ids sorted
	builtins int
}

type entry struct {
	def      ir.NodeDefinition
	template string
	checksum string
}

var builtinCatalog = sync.OnceValue(func() *Catalog { return NewCatalog() })

// BuiltinCatalog returns the catalog of the builtin node types only. It is
// shared; callers must not modify the definitions it returns.
func BuiltinCatalog() *Catalog { return builtinCatalog() }

// NewCatalog combines the builtin definitions with marketplace entries. An
// entry whose id is a builtin type is ignored (the registry refuses such
// ids); of two entries with the same id and version the first wins.
func NewCatalog(entries ...Entry) *Catalog {
	c := &Catalog{byType: make(map[string][]*entry)}
	for _, d := range Builtins() {
		c.byType[d.ID] = []*entry{{def: d}}
		c.order = append(c.order, d.ID)
	}
	c.builtins = len(c.order)
	var market []string
	for _, e := range entries {
		id := e.Definition.ID
		if ir.IsBuiltinType(id) {
			continue
		}
		list := c.byType[id]
		if slices.ContainsFunc(list, func(x *entry) bool { return x.def.Version == e.Definition.Version }) {
			continue
		}
		if len(list) == 0 {
			market = append(market, id)
		}
		c.byType[id] = append(list, &entry{def: e.Definition, template: e.Template, checksum: e.Checksum})
	}
	slices.Sort(market)
	c.order = append(c.order, market...)
	for _, id := range market {
		slices.SortStableFunc(c.byType[id], func(a, b *entry) int { return registry.CompareVersions(a.def.Version, b.def.Version) })
	}
	return c
}

// Lookup returns the definition of a node type at a version. Builtins exist
// at BuiltinVersion only.
func (c *Catalog) Lookup(nodeType, version string) (*ir.NodeDefinition, bool) {
	for _, e := range c.byType[nodeType] {
		if e.def.Version == version {
			return &e.def, true
		}
	}
	return nil, false
}

// Versions returns the versions of a node type, oldest first; nil when the
// type is unknown.
func (c *Catalog) Versions(nodeType string) []string {
	list := c.byType[nodeType]
	if len(list) == 0 {
		return nil
	}
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.def.Version
	}
	return out
}

// Get returns the newest version of a node type's definition (GET
// /api/nodes/:nodeId).
func (c *Catalog) Get(nodeType string) (ir.NodeDefinition, bool) {
	list := c.byType[nodeType]
	if len(list) == 0 {
		return ir.NodeDefinition{}, false
	}
	return list[len(list)-1].def, true
}

// List returns the newest definition of every node type: the builtins in the
// order of docs/nodes.md, then marketplace nodes by id (GET /api/nodes).
func (c *Catalog) List() []ir.NodeDefinition {
	out := make([]ir.NodeDefinition, 0, len(c.order))
	for _, id := range c.order {
		d, _ := c.Get(id)
		out = append(out, d)
	}
	return out
}

// Template returns the template source and checksum of a marketplace node
// version; false for builtins and unknown versions.
func (c *Catalog) Template(nodeType, version string) (source, checksum string, ok bool) {
	for _, e := range c.byType[nodeType] {
		if e.def.Version == version && !e.def.Builtin {
			return e.template, e.checksum, true
		}
	}
	return "", "", false
}

// TemplateData is what a client needs to create and resolve nodes of one
// type (GET /api/nodes/templates).
type TemplateData struct {
	// Version is the newest version of the type.
	Version string `json:"version"`
	// Builtin is true for the builtin types.
	Builtin bool `json:"builtin"`
	// Defaults are the default data of a new node: every field's default.
	Defaults map[string]any `json:"defaults"`
	// Required lists the fields that must be set, sorted.
	Required []string `json:"required"`
	// SecretEnvVars lists the env vars the node's secrets are read from.
	SecretEnvVars []string `json:"secretEnvVars"`
	// Template is the TypeScript template of a marketplace node.
	Template string `json:"template,omitempty"`
	// Checksum is the registry checksum of a marketplace node version.
	Checksum string `json:"checksum,omitempty"`
	// Dependencies are the npm packages a marketplace template imports.
	Dependencies map[string]string `json:"dependencies,omitempty"`
}

// Templates returns TemplateData of the newest version of every node type,
// keyed by type.
func (c *Catalog) Templates() map[string]TemplateData {
	out := make(map[string]TemplateData, len(c.order))
	for _, id := range c.order {
		list := c.byType[id]
		e := list[len(list)-1]
		t := TemplateData{
			Version:       e.def.Version,
			Builtin:       e.def.Builtin,
			Defaults:      Defaults(&e.def),
			Required:      []string{},
			SecretEnvVars: SecretEnvVars(&e.def),
			Template:      e.template,
			Checksum:      e.checksum,
			Dependencies:  e.def.Dependencies,
		}
		for name, f := range e.def.ConfigSchema {
			if f.Required {
				t.Required = append(t.Required, name)
			}
		}
		slices.Sort(t.Required)
		out[id] = t
	}
	return out
}

// Defaults returns the default data of a definition: each field that has a
// default, with it.
func Defaults(def *ir.NodeDefinition) map[string]any {
	out := make(map[string]any)
	for name, f := range def.ConfigSchema {
		if f.Default != nil {
			out[name] = f.Default
		}
	}
	return out
}

// SecretEnvVars returns the env var names a definition's secret fields are
// read from, sorted (deploy checks they exist).
func SecretEnvVars(def *ir.NodeDefinition) []string {
	s := def.SecretEnvVars()
	if s == nil {
		s = []string{}
	}
	return s
}

// CatalogEntries returns an Entry for every version of every node of a
// registry catalog (for tools that accept any published node, such as
// `edgeflow validate`; the service passes the organization's installed
// versions instead).
func CatalogEntries(c *registry.Catalog) ([]Entry, error) {
	var out []Entry
	for _, n := range c.Nodes() {
		for _, v := range n.Versions {
			b, err := c.Bundle(n.ID, v.Version)
			if err != nil {
				return nil, err
			}
			out = append(out, EntryFromBundle(b))
		}
	}
	return out, nil
}
