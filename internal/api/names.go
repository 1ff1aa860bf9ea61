package api

// field records at path the problem a field rule of internal/edgeflow/fields.go found (edgeflow.NameProblem,
// edgeflow.DescriptionProblem, ...), if any: the API and the command line check fields with the same rules.
func (p *problems) field(path, msg string) {
	if msg != "" {
		p.add(path, msg)
	}
}
