package ir

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schema.json
var schemaJSON []byte

// SchemaURL is the $id of the IR's JSON Schema.
const SchemaURL = "https://edgeflow.dev/schemas/ir.schema.json"

// SchemaJSON returns the JSON Schema (draft 2020-12) of the IR's shape, as
// served at GET /api/ir/schema.json. The caller must not modify it.
func SchemaJSON() []byte { return schemaJSON }

// compiledSchema compiles the embedded schema once, on first use.
var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("ir schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(SchemaURL, doc); err != nil {
		return nil, fmt.Errorf("ir schema: %w", err)
	}
	s, err := c.Compile(SchemaURL)
	if err != nil {
		return nil, fmt.Errorf("ir schema: %w", err)
	}
	return s, nil
})
