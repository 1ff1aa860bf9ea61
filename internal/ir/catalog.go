package ir

// NodeDefinition describes a node type: its identity, the fields of its
// data (ConfigSchema), the shape of its value (OutputSchema) and whether
// functions may use it. Its JSON shape is that of a marketplace node.json
// (docs/registry.md), shared by builtin and marketplace nodes.
type NodeDefinition struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Category    string   `json:"category"`
	Tags        []string `json:"tags,omitempty"`
	Author      string   `json:"author,omitempty"`
	License     string   `json:"license,omitempty"`
	Version     string   `json:"version"`
	// Changelog says in plain text what this version changed (marketplace
	// nodes, docs/registry.md); builtins leave it out.
	Changelog          string                 `json:"changelog,omitempty"`
	ConfigSchema       map[string]ConfigField `json:"configSchema"`
	OutputSchema       map[string]OutputField `json:"outputSchema"`
	AllowedInFunctions bool                   `json:"allowedInFunctions"`
	Dependencies       map[string]string      `json:"dependencies,omitempty"`
	// Builtin is true for the thirteen builtin node types.
	Builtin bool `json:"builtin"`
}

// ConfigField describes one key of a node's data.
type ConfigField struct {
	Type        string      `json:"type"`
	Label       string      `json:"label"`
	Description string      `json:"description,omitempty"`
	Required    bool        `json:"required,omitempty"`
	Default     any         `json:"default,omitempty"`
	Placeholder string      `json:"placeholder,omitempty"`
	Options     []string    `json:"options,omitempty"`
	EnvVarName  string      `json:"envVarName,omitempty"`
	Validation  *Validation `json:"validation,omitempty"`
	// Schema is the JSON Schema of the field's value, for the builtin-only
	// field types whose values are structured (agentTools, jsonSchema,
	// toolNames), so that a form or a program knows their shape. Marketplace
	// definitions have none.
	Schema map[string]any `json:"schema,omitempty"`
}

// Validation holds the optional constraints of a config field: Min and Max
// for numbers, MinLength, MaxLength, Pattern (RE2 syntax) and Format for
// strings. Integer requires a whole number.
type Validation struct {
	Min       *float64 `json:"min,omitempty"`
	Max       *float64 `json:"max,omitempty"`
	Integer   bool     `json:"integer,omitempty"`
	MinLength *int     `json:"minLength,omitempty"`
	MaxLength *int     `json:"maxLength,omitempty"`
	Pattern   string   `json:"pattern,omitempty"`
	Format    string   `json:"format,omitempty"`
}

// OutputField describes one key of the node's value.
type OutputField struct {
	Type        string                 `json:"type"`
	Description string                 `json:"description,omitempty"`
	Nullable    bool                   `json:"nullable,omitempty"`
	Items       *OutputField           `json:"items,omitempty"`
	Properties  map[string]OutputField `json:"properties,omitempty"`
}

// Config field types.
const (
	FieldString      = "string"
	FieldNumber      = "number"
	FieldBoolean     = "boolean"
	FieldSelect      = "select"
	FieldMultiselect = "multiselect"
	FieldSecret      = "secret"
	FieldCode        = "code"
	FieldJSON        = "json"
	FieldExpression  = "expression"
	FieldTextarea    = "textarea"
)

// Field types of the agent node only (like FieldBranches, builtin-only):
// the form renders each with an editor of its own.
const (
	// FieldAgentTools is a list of tools: {"workflow": id}, {"http": {...}}
	// or {"node": type, "data": {...}}, each with an optional name
	// (docs/agents.md, "The agent node").
	FieldAgentTools = "agentTools"
	// FieldJSONSchema is a JSON Schema, written as a JSON object.
	FieldJSONSchema = "jsonSchema"
	// FieldToolNames is a list of names of the node's tools.
	FieldToolNames = "toolNames"
	// FieldSecretRef is a reference to an env var holding a secret,
	// "{{env.NAME}}"; a literal value is refused.
	FieldSecretRef = "secretRef"
)

// String formats a config field's Validation.Format may name.
const (
	FormatEmail    = "email"
	FormatURL      = "url"
	FormatUUID     = "uuid"
	FormatDate     = "date"
	FormatDateTime = "date-time"
	FormatDuration = "duration"
)

// NodeCatalog gives the validator the node definitions it checks nodes
// against: the builtins plus whatever marketplace nodes the organization has
// installed (see internal/nodes).
type NodeCatalog interface {
	// Lookup returns the definition of a node type at a version, or false
	// when that type or version is not known.
	Lookup(nodeType, version string) (*NodeDefinition, bool)
	// Versions returns the known versions of a node type; none when the
	// type is unknown.
	Versions(nodeType string) []string
}

// SecretEnvVars returns the env var names of the definition's secret fields,
// sorted and without duplicates.
func (d *NodeDefinition) SecretEnvVars() []string {
	var names []string
	for _, f := range d.ConfigSchema {
		if f.Type == FieldSecret && f.EnvVarName != "" {
			names = append(names, f.EnvVarName)
		}
	}
	return sortedUnique(names)
}
