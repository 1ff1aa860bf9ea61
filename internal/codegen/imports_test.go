package codegen_test

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/codegen"
)

func TestCheckImports(t *testing.T) {
	t.Parallel()
	good := []string{
		"return 1;",
		`const m = require("ms"); return m("1d");`,
		`const { Buffer } = await import("node:buffer");`,
		"const d = await import(`date-fns/${name}`);",
		"const x = await import(name);",
		`return "data from '/etc/passwd'";`,
		`return { important: true, required: 'x' };`,
		`import { WorkflowEntrypoint } from "cloudflare:workers";`,
	}
	bad := []string{
		`return require("/etc/passwd");`,
		`return await import('/etc/passwd');`,
		`return require('ms/../../../etc/passwd');`,
		`return require('./x');`,
		`import x from "/etc/hostname";`,
		`export { x } from '../../x';`,
		`import "/etc/x";`,
		"return await import(`/etc/${f}`);",
		"return require(`../${f}`);",
		"return require(`file:${f}`);",
		`return require("data:text/javascript,export default 1");`,
		`return require.resolve("ms");`,
		`return require ( "/etc/passwd" );`,
	}
	for _, src := range good {
		if err := codegen.CheckImports(src); err != nil {
			t.Errorf("CheckImports(%s) = %v, want nil", src, err)
		}
	}
	for _, src := range bad {
		if err := codegen.CheckImports(src); err == nil {
			t.Errorf("CheckImports(%s) = nil, want an error", src)
		}
	}
}
