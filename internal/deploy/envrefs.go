package deploy

// EnvReferences lists the names a version's IR and the workflow's trigger code
// read as {{env.NAME}}, in the order they appear (duplicates kept): the names
// a deploy looks up among the workflow's and the global variables.
func EnvReferences(ir []byte, triggerCode string) []string {
	var out []string
	for _, m := range envRef.FindAllSubmatch(ir, -1) {
		out = append(out, string(m[1]))
	}
	for _, m := range envRef.FindAllStringSubmatch(triggerCode, -1) {
		out = append(out, m[1])
	}
	return out
}

// GlobalReference reports the global variable a declared variable's value
// names when the value is exactly {{global.env.NAME}}.
func GlobalReference(value string) (string, bool) {
	m := globalRef.FindStringSubmatch(value)
	if m == nil {
		return "", false
	}
	return m[1], true
}
