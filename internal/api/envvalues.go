package api

import (
	"fmt"
	"maps"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Values per environment of a variable (global or of a workflow;
// docs/environments.md, "Variables per environment"): values beside the
// default value, masked and sealed one by one for a secret.

// checkEnvValues checks the values of one variable: environment names as
// environments are named, at most MaxEnvironments of them, each value at
// most 32 KiB.
func checkEnvValues(p *problems, path string, values map[string]string) {
	p.check(len(values) <= edgeflow.MaxEnvironments, path, fmt.Sprintf("at most %d environments", edgeflow.MaxEnvironments))
	for env, v := range values {
		at := path + "/" + escapePointer(env)
		if msg := edgeflow.EnvironmentNameProblem(env); msg != "" {
			p.add(at, "environment "+msg)
		}
		p.check(len(v) <= maxEnvValue, at, "value must be at most 32 KiB")
	}
}

// maskedValues is values with every value the mask.
func maskedValues(values map[string]string) map[string]string {
	if values == nil {
		return nil
	}
	out := make(map[string]string, len(values))
	for env := range values {
		out[env] = Masked
	}
	return out
}

// sealEnvValues seals the values of a secret: a value sent as the mask
// keeps the stored sealed value of that environment (old, when the
// variable was secret already); bad names an environment whose mask keeps
// nothing.
func sealEnvValues(values, old map[string]string, wasSecret bool, seal func(string) string) (map[string]string, string) {
	if len(values) == 0 {
		return nil, ""
	}
	out := maps.Clone(values)
	for env, v := range values {
		if v == Masked {
			prev, ok := old[env]
			if !ok || !wasSecret {
				return nil, env
			}
			out[env] = prev
			continue
		}
		out[env] = seal(v)
	}
	return out, ""
}
