package codegen

import (
	"regexp"
	"strings"
)

// Code bindings: user code reaches KV, D1 and R2 through env, and a binding
// name that follows the convention below declares the resource, so that
// `await env.KV_CACHE.get(key)` in a step works without further setup. The
// deploy finds or creates the resource (named after the project and the
// binding, docs/deploy.md) and binds it.
//
//	KV, KV_*            KV namespace
//	DB, DB_*, D1_*      D1 database
//	BUCKET, BUCKET_*, R2_*  R2 bucket
//
// A name the workflow declares as an environment variable or secret, or one
// bound otherwise (a resource of the deployment, a marketplace node's
// binding), keeps that meaning.

// envMember finds env.NAME in code.
var envMember = regexp.MustCompile(`\benv\s*\.\s*([A-Z][A-Z0-9_]*)\b`)

// conventionKind is the resource kind a binding name declares, or "".
func conventionKind(name string) string {
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if name == strings.TrimSuffix(p, "_") || strings.HasPrefix(name, p) && len(name) > len(p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("KV_"):
		return ResourceKV
	case has("DB_", "D1_"):
		return ResourceD1
	case has("BUCKET_", "R2_"):
		return ResourceR2
	}
	return ""
}

// codeBindings registers the resource bindings src reads by the convention.
func (g *gen) codeBindings(src string) {
	if !strings.Contains(src, "env") {
		return
	}
	for _, m := range envMember.FindAllStringSubmatch(src, -1) {
		name := m[1]
		kind := conventionKind(name)
		if kind == "" {
			continue
		}
		if _, taken := g.env[name]; taken {
			continue
		}
		tsType, binding := resourceType(kind)
		g.env[name] = tsType
		g.bindings[name] = Binding{Name: name, Type: binding}
	}
}
