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
	PrefixAudit        = "aud"
	PrefixInvitation   = "inv"
	PrefixBulkJob      = "bulk"
	PrefixSentEvent    = "evt"
)

// NewID returns prefix + "_" + 20 random characters of [a-z0-9], each
// uniformly distributed.
func NewID(prefix string) string {
	const n = 20
	// Bytes at or above 252 (= 7*36) are dropped so that every character is
	// equally likely.
	const limit = 256 - 256%len(idAlphabet)
	b := make([]byte, 0, len(prefix)+1+n)
	b = append(b, prefix...)
	b = append(b, '_')
	var raw [32]byte
	for len(b) < len(prefix)+1+n {
		rand.Read(raw[:]) // never fails (crypto/rand)
		for _, c := range raw {
			if int(c) < limit && len(b) < len(prefix)+1+n {
				b = append(b, idAlphabet[int(c)%len(idAlphabet)])
			}
		}
	}
	return string(b)
}
