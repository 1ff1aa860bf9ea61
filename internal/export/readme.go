package export

import (
	"fmt"
	"strings"

	"github.com/edgeflow/edgeflow/internal/codegen"
)

// readme writes the project's README.md: what it is, the secrets to set,
// the values to fill in, how to deploy and to start a run.
func readme(in Input, out *codegen.Output, name string, bindings []codegen.Binding, secrets, vars []string) string {
	var b strings.Builder
	w := in.Workflow
	kind := "workflow"
	if out.WorkflowName == "" {
		kind = "function"
	}
	fmt.Fprintf(&b, "# %s\n\n", oneLine(w.Name))
	fmt.Fprintf(&b, "Version %d of the edgeflow %s `%s`, exported as a plain Cloudflare Workers project. It does not need\n", in.Version.Number, kind, w.ID)
	b.WriteString("edgeflow: `wrangler` builds and deploys it on its own. `src/index.ts` is the code edgeflow generated from the\n")
	b.WriteString("version's IR (the same code edgeflow deploys); it is yours to keep changing.\n\n")
	b.WriteString("## Deploy\n\n```sh\nnpm install\n")
	for _, s := range secrets {
		if s != codegen.TriggerSecretBinding {
			fmt.Fprintf(&b, "npx wrangler secret put %s\n", s)
		}
	}
	b.WriteString("npx wrangler deploy\n```\n\n")
	if len(secrets) > 0 {
		b.WriteString("## Secrets\n\nSet each with `npx wrangler secret put NAME` (for `wrangler dev`, put them in `.dev.vars`):\n\n")
		for _, s := range secrets {
			switch s {
			case codegen.WorkerTokenBinding:
				fmt.Fprintf(&b, "- `%s`: a token of your choosing (a long random string). Callers send it as\n  `Authorization: Bearer <token>` to start runs, read their status and send events (see \"Runs\").\n", s)
			case codegen.TriggerSecretBinding:
				fmt.Fprintf(&b, "- `%s` (optional): set it only to let requests signed with it start runs without the token\n  (edgeflow's public trigger: an `X-Edgeflow-Timestamp` header and an `X-Edgeflow-Signature: v1=<hex HMAC-SHA256 of timestamp.body>`).\n", s)
			default:
				fmt.Fprintf(&b, "- `%s`\n", s)
			}
		}
		b.WriteString("\n")
	}
	if len(vars) > 0 {
		b.WriteString("## Variables\n\nSet their values in the `vars` of `wrangler.jsonc`:\n\n")
		for _, v := range vars {
			fmt.Fprintf(&b, "- `%s`\n", v)
		}
		b.WriteString("\n")
	}
	var fill []string
	for _, bd := range bindings {
		switch bd.Type {
		case codegen.BindingKV:
			fill = append(fill, fmt.Sprintf("- `%s`: a KV namespace (`npx wrangler kv namespace create %s`, then its id)", bd.Name, bd.Name))
		case codegen.BindingD1:
			fill = append(fill, fmt.Sprintf("- `%s`: a D1 database (`npx wrangler d1 create <name>`, then its name and id)", bd.Name))
		case codegen.BindingR2:
			fill = append(fill, fmt.Sprintf("- `%s`: an R2 bucket (`npx wrangler r2 bucket create <name>`, then its name)", bd.Name))
		case codegen.BindingService:
			fill = append(fill, fmt.Sprintf("- `%s`: the worker this one calls", bd.Name))
		case codegen.BindingWorkflow:
			if bd.ScriptName != "" {
				fill = append(fill, fmt.Sprintf("- `%s`: the Workflow `%s` of the worker `%s` (export that workflow too and deploy it first)", bd.Name, bd.WorkflowName, bd.ScriptName))
			}
		}
	}
	if len(fill) > 0 {
		b.WriteString("## Resources\n\nThe code uses these bindings; fill in the values marked `" + FillIn + "` in `wrangler.jsonc`:\n\n")
		b.WriteString(strings.Join(fill, "\n"))
		b.WriteString("\n\n")
	}
	if len(out.Crons) > 0 {
		fmt.Fprintf(&b, "## Schedule\n\n`triggers.crons` runs it on the schedule `%s` (UTC).\n\n", strings.Join(out.Crons, "`, `"))
	}
	b.WriteString("## Runs\n\n")
	if kind == "function" {
		b.WriteString("The function answers at the worker's URL: `POST` a JSON body, the answer is its result. It needs no token.\n\n")
		b.WriteString("```sh\ncurl -X POST https://" + name + ".<your-subdomain>.workers.dev -H 'Content-Type: application/json' -d '{}'\n```\n")
		return b.String()
	}
	fmt.Fprintf(&b, "The worker's `fetch` handler starts a run of the Workflow for a `POST` carrying the token you set as\n`%s`: the body is the run's params. It answers `{\"instanceId\"}`.\n\n", codegen.WorkerTokenBinding)
	b.WriteString("```sh\nURL=https://" + name + ".<your-subdomain>.workers.dev\n")
	b.WriteString("curl -X POST $URL -H \"Authorization: Bearer $TOKEN\" -H 'Content-Type: application/json' -d '{}'\n")
	b.WriteString("curl \"$URL?instanceId=<id>\" -H \"Authorization: Bearer $TOKEN\"    # status and output\n")
	b.WriteString("curl -X POST $URL -H \"Authorization: Bearer $TOKEN\" -H 'Content-Type: application/json' \\\n")
	b.WriteString("  -d '{\"instanceId\": \"<id>\", \"eventType\": \"<type>\", \"payload\": {}}'     # an event for a waiting run\n```\n\n")
	b.WriteString("`npx wrangler workflows instances list " + name + "` lists the runs.\n")
	return b.String()
}
