package ir

// FullSchemaProblems evaluates the JSON Schema on the whole of raw, as
// Validate did before it showed the schema only the wrong items
// (schematext.go): tests compare the two.
func FullSchemaProblems(raw []byte) []Problem {
	doc, err := parseJSON(raw)
	if err != nil {
		return nil
	}
	return schemaProblems(doc)
}
