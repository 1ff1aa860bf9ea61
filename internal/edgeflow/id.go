package edgeflow

import "crypto/rand"

const idAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// Prefixes of record identifiers (docs/decisions.md, "Identifiers").
const (
	PrefixUser         = "usr"
	PrefixSession      = "ses"
	PrefixOrganization = "org"
	PrefixProject      = "prj"
	PrefixAPIKey       = "key"
	PrefixWorkflow     = "wf"
	PrefixVersion      = "ver"
	PrefixDeployment   = "dep"
	PrefixRun          = "run"
	PrefixConnection   = "con"
	PrefixEnvVar       = "env"
	PrefixInstall      = "ins"
)

// NewID returns prefix + "_" + 20 random characters of [a-z0-9].
func NewID(prefix string) string {
	var raw [20]byte
	if _, err := rand.Read(raw[:]); err != nil {
		panic("edgeflow: crypto/rand failed: " + err.Error())
	}
	b := make([]byte, 0, len(prefix)+21)
	b = append(b, prefix...)
	b = append(b, '_')
	for _, c := range raw {
		b = append(b, idAlphabet[int(c)%len(idAlphabet)])
	}
	return string(b)
}
