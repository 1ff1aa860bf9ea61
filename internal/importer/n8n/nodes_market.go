package n8n

import (
	"fmt"
	"sort"
	"strings"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// Service nodes (Slack, OpenAI, Telegram, Discord, GitHub, Notion,
// Airtable, Stripe) become edgeflow's marketplace nodes where the operation
// exists there. n8n runs such a node once per item; the IR does the same: a
// step computes each item's fields, a forEach loop runs the marketplace
// node per item, and a step makes the loop's results the node's items.

// marketField is one data field of the marketplace node: code computes it
// per item (text and json fields), or value is set as it is.
type marketField struct {
	name  string
	code  string
	value any
	json  bool
}

// marketTarget is what an n8n node becomes.
type marketTarget struct {
	typ, version string
	fields       []marketField
	secret       string
	notes        []string
}

// marketplaceNode converts a service node whose operation has a
// marketplace counterpart.
func (c *converter) marketplaceNode(ctx *nodeCtx) (emitted, bool) {
	n := ctx.node
	u := &uses{text: true}
	t := c.translate(u)
	mt, reason := c.marketTarget(n, t)
	if mt == nil {
		if reason == "" {
			return emitted{}, false
		}
		return c.throwing(ctx, reason), true
	}
	for _, note := range mt.notes {
		c.approximate(n.Name, note)
	}
	c.approximate(n.Name, fmt.Sprintf("each item becomes the value of the marketplace node %s@%s (the fields of its outputs table), not the service's whole answer as in n8n", mt.typ, mt.version))
	c.rep.Marketplace = append(c.rep.Marketplace, mt.typ+"@"+mt.version)
	if mt.secret != "" {
		c.envVar(mt.secret, true, fmt.Sprintf("the secret of the marketplace node %s that node %q became", mt.typ, n.Name))
	}
	// The fields of each item.
	var b strings.Builder
	b.WriteString("return items.map((item, $itemIndex) => {\n  if (typeof rt !== \"undefined\") rt.i = $itemIndex;\n  const $json = item.json;\n  return {\n")
	data := map[string]any{}
	for _, f := range mt.fields {
		if f.code == "" {
			if f.value != nil {
				data[f.name] = f.value
			}
			continue
		}
		fmt.Fprintf(&b, "    %s: %s,\n", jsKey(f.name), f.code)
	}
	b.WriteString("  };\n});\n")
	params := c.simple(ctx, b.String(), u, 0)
	c.rename(params.first, n.Name+" (fields)")
	loop := c.newID(n.Name, "loop")
	c.addNode(n.Name, ir.Node{ID: loop, Type: ir.TypeLoop, Name: n.Name + " (per item)", Position: c.pos(n, 0, 100),
		Data: map[string]any{"loopType": "forEach", "collection": "{{" + params.first + "}}"}})
	c.link(params.last, "", loop)
	for _, f := range mt.fields {
		if f.code == "" {
			continue
		}
		data[f.name] = "{{" + loop + ".item." + f.name + "}}"
	}
	call := c.newID(n.Name, "")
	c.addNode(n.Name, ir.Node{ID: call, Type: mt.typ, Version: mt.version, Name: n.Name, Position: c.pos(n, 0, 200), Data: data, Config: retries(n)})
	c.link(loop, ir.LabelBody, call)
	code := header(n) + fmt.Sprintf("// One item per call of %s.\nreturn {{%s}}.results.map((json, i) => ({ json, pairedItem: { item: i } }));\n", mt.typ, loop)
	items := c.step(n, "items", n.Name+" (items)", code, 300)
	c.link(loop, ir.LabelThen, items)
	return emitted{first: params.first, last: items, ref: nodeRef{value: "{{" + items + "}}"}}, true
}

// rl reads a resource locator parameter ({__rl, value, mode}) or a plain
// value.
func rl(v any) any {
	if m, ok := v.(map[string]any); ok {
		if _, ok := m["__rl"]; ok {
			return m["value"]
		}
	}
	return v
}

// marketTarget answers the marketplace node of n, nil and a reason when its
// operation has none ("" when the node type has no counterpart at all).
func (c *converter) marketTarget(n *Node, t *translator) (*marketTarget, string) {
	p := n.Parameters
	res, op := str(p["resource"]), str(p["operation"])
	text := func(name string, v any) marketField {
		return marketField{name: name, code: "$text(" + t.param(v) + ")"}
	}
	switch n.Type {
	case "n8n-nodes-base.slack":
		if res == "" {
			res = "message"
		}
		if op == "" {
			op = "post"
		}
		if res != "message" || op != "post" {
			return nil, fmt.Sprintf("Slack %s %s has no marketplace counterpart (slack-message posts messages)", res, op)
		}
		channel := rl(p["channelId"])
		if channel == nil {
			channel = p["channel"]
		}
		if str(p["select"]) == "user" {
			channel = rl(p["user"])
		}
		mt := &marketTarget{typ: "slack-message", version: "2.2.0", secret: "SLACK_BOT_TOKEN",
			fields: []marketField{text("channel", channel), text("text", p["text"])}}
		if str(p["messageType"]) == "block" && p["blocksUi"] != nil {
			mt.fields = append(mt.fields, marketField{name: "blocks", code: "((b) => (typeof b === \"string\" ? JSON.parse(b) : b)?.blocks ?? b)(" + t.param(p["blocksUi"]) + ")", json: true})
		}
		if o, ok := p["otherOptions"].(map[string]any); ok {
			if th, ok := o["thread_ts"].(map[string]any); ok {
				if v, ok := th["replyValues"].(map[string]any); ok {
					mt.fields = append(mt.fields, text("threadTs", v["thread_ts"]))
				}
			}
		}
		return mt, ""
	case "n8n-nodes-base.telegram":
		if res == "" {
			res = "message"
		}
		if op == "" {
			op = "sendMessage"
		}
		if res != "message" || op != "sendMessage" {
			return nil, fmt.Sprintf("Telegram %s %s has no marketplace counterpart (telegram-message sends text messages)", res, op)
		}
		mt := &marketTarget{typ: "telegram-message", version: "1.2.0", secret: "TELEGRAM_BOT_TOKEN",
			fields: []marketField{text("chatId", p["chatId"]), text("text", p["text"])}}
		af, _ := p["additionalFields"].(map[string]any)
		// n8n's Telegram node sends parse mode Markdown (legacy) when none is
		// chosen, turns link previews off for a text without a URL (from
		// version 1.2 always), and from version 1.1 appends an attribution
		// line unless told not to.
		if pm := str(af["parse_mode"]); pm == "HTML" || pm == "MarkdownV2" {
			mt.fields = append(mt.fields, marketField{name: "parseMode", value: pm})
		} else {
			mt.notes = append(mt.notes, "parse mode Markdown (legacy), n8n's default, is sent as none; telegram-message offers MarkdownV2 and HTML")
		}
		if dn, ok := af["disable_notification"].(bool); ok {
			mt.fields = append(mt.fields, marketField{name: "disableNotification", value: dn})
		}
		if dp, ok := af["disable_web_page_preview"].(bool); !ok || dp {
			mt.notes = append(mt.notes, "link previews are left on (n8n turns them off for a text without a URL, or when told to)")
		}
		if n.TypeVersion >= 1.1 {
			if at, ok := af["appendAttribution"].(bool); !ok || at {
				mt.notes = append(mt.notes, "n8n's attribution line (\"This message was sent automatically with n8n\") is not appended")
			}
		}
		return mt, ""
	case "n8n-nodes-base.discord":
		if n.TypeVersion >= 2 && str(p["authentication"]) != "webhook" {
			return nil, "Discord through a bot or OAuth2 has no marketplace counterpart (discord-webhook posts through a webhook)"
		}
		content := p["content"]
		if content == nil {
			content = p["text"]
		}
		mt := &marketTarget{typ: "discord-webhook", version: "1.2.0", secret: "DISCORD_WEBHOOK_URL",
			fields: []marketField{text("content", content)}}
		if o, ok := p["options"].(map[string]any); ok {
			if o["username"] != nil {
				mt.fields = append(mt.fields, text("username", o["username"]))
			}
			if o["avatar_url"] != nil {
				mt.fields = append(mt.fields, text("avatarUrl", o["avatar_url"]))
			}
		}
		return mt, ""
	case "n8n-nodes-base.github":
		if res == "" {
			res = "issue"
		}
		if op == "" {
			op = "create"
		}
		if res != "issue" || op != "create" {
			return nil, fmt.Sprintf("GitHub %s %s has no marketplace counterpart (github-issue opens issues)", res, op)
		}
		mt := &marketTarget{typ: "github-issue", version: "1.2.0", secret: "GITHUB_TOKEN",
			fields: []marketField{text("owner", rl(p["owner"])), text("repo", rl(p["repository"])), text("title", p["title"]), text("body", p["body"])}}
		if l := joinList(p["labels"], "label", t); l != "" {
			mt.fields = append(mt.fields, marketField{name: "labels", code: l})
		}
		if a := joinList(p["assignees"], "assignee", t); a != "" {
			mt.fields = append(mt.fields, marketField{name: "assignees", code: a})
		}
		return mt, ""
	case "n8n-nodes-base.notion":
		if res != "databasePage" || op != "create" {
			return nil, fmt.Sprintf("Notion %s %s has no marketplace counterpart (notion-page adds pages to a database)", res, op)
		}
		mt := &marketTarget{typ: "notion-page", version: "1.2.0", secret: "NOTION_TOKEN",
			fields: []marketField{text("databaseId", rl(p["databaseId"])), text("title", p["title"])}}
		if p["propertiesUi"] != nil {
			mt.notes = append(mt.notes, "the page's other properties are not converted (notion-page takes them as Notion's JSON)")
		}
		if b, ok := p["blockUi"].(map[string]any); ok {
			var parts []string
			for _, e := range asList(b["blockValues"]) {
				m, _ := e.(map[string]any)
				if str(m["type"]) == "paragraph" || m["type"] == nil {
					parts = append(parts, "$text("+t.param(m["textContent"])+")")
				}
			}
			if len(parts) > 0 {
				mt.fields = append(mt.fields, marketField{name: "content", code: "[" + strings.Join(parts, ", ") + "].join(\"\\n\\n\")"})
			}
		}
		return mt, ""
	case "n8n-nodes-base.airtable":
		if op == "" {
			op = "append"
		}
		if op != "create" && op != "append" {
			return nil, fmt.Sprintf("Airtable %s has no marketplace counterpart (airtable-record creates records)", op)
		}
		base, table := rl(p["base"]), rl(p["table"])
		if base == nil {
			base = p["application"]
		}
		fields := "item.json"
		if cols, ok := p["columns"].(map[string]any); ok && str(cols["mappingMode"]) == "defineBelow" {
			fields = t.param(cols["value"])
		} else if all, ok := p["addAllFields"].(bool); ok && !all {
			var parts []string
			for _, f := range strings.Split(str(p["fields"]), ",") {
				if f = strings.TrimSpace(f); f != "" {
					parts = append(parts, fmt.Sprintf("%s: item.json[%s]", jsKey(f), jsString(f)))
				}
			}
			fields = "{ " + strings.Join(parts, ", ") + " }"
		}
		return &marketTarget{typ: "airtable-record", version: "1.2.0", secret: "AIRTABLE_TOKEN",
			fields: []marketField{text("baseId", base), text("table", table), {name: "fields", code: fields, json: true}}}, ""
	case "n8n-nodes-base.stripe":
		if res != "customer" || (op != "get" && op != "getAll") {
			return nil, fmt.Sprintf("Stripe %s %s has no marketplace counterpart (stripe-customer looks customers up)", res, op)
		}
		if op == "get" {
			return &marketTarget{typ: "stripe-customer", version: "1.2.0", secret: "STRIPE_SECRET_KEY",
				fields: []marketField{{name: "lookup", value: "id"}, text("customerId", p["customerId"])}}, ""
		}
		f, _ := p["filters"].(map[string]any)
		if f["email"] == nil {
			return nil, "Stripe customer getAll without an email filter has no marketplace counterpart (stripe-customer finds one customer)"
		}
		return &marketTarget{typ: "stripe-customer", version: "1.2.0", secret: "STRIPE_SECRET_KEY",
			fields: []marketField{{name: "lookup", value: "email"}, text("email", f["email"])},
			notes:  []string{"getAll by email answers the most recently created customer with that email only"}}, ""
	case "n8n-nodes-base.openAi", "@n8n/n8n-nodes-langchain.openAi":
		return c.openAITarget(n, t)
	}
	return nil, ""
}

// joinList joins a fixed collection of values ([{label: "a"}, ...]) with
// commas.
func joinList(v any, key string, t *translator) string {
	var parts []string
	for _, e := range asList(v) {
		if m, ok := e.(map[string]any); ok && m[key] != nil {
			parts = append(parts, "$text("+t.param(m[key])+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "[" + strings.Join(parts, ", ") + "].join(\",\")"
}

// openAITarget maps OpenAI's chat completion (both n8n OpenAI nodes).
func (c *converter) openAITarget(n *Node, t *translator) (*marketTarget, string) {
	p := n.Parameters
	res, op := str(p["resource"]), str(p["operation"])
	var model any = "gpt-4o-mini"
	var msgs []any
	opts, _ := p["options"].(map[string]any)
	if n.Type == "@n8n/n8n-nodes-langchain.openAi" {
		if res == "" {
			res = "text"
		}
		if op == "" {
			op = "message"
		}
		if res != "text" || op != "message" {
			return nil, fmt.Sprintf("OpenAI %s %s has no marketplace counterpart (openai-chat generates chat replies)", res, op)
		}
		if m := rl(p["modelId"]); m != nil {
			model = m
		}
		box, _ := p["messages"].(map[string]any)
		msgs = asList(box["values"])
	} else {
		if res == "" {
			res = "text"
		}
		if res != "chat" || (op != "" && op != "complete") {
			return nil, fmt.Sprintf("OpenAI %s %s has no marketplace counterpart (openai-chat generates chat replies)", res, op)
		}
		if m := p["chatModel"]; m != nil {
			model = m
		} else if m := p["model"]; m != nil {
			model = m
		}
		box, _ := p["prompt"].(map[string]any)
		msgs = asList(box["messages"])
	}
	var system, user []string
	for _, e := range msgs {
		m, _ := e.(map[string]any)
		code := "$text(" + t.param(m["content"]) + ")"
		if r := str(m["role"]); r == "system" {
			system = append(system, code)
		} else {
			user = append(user, code)
		}
	}
	if len(user) == 0 {
		return nil, "an OpenAI node without a user message is not converted"
	}
	text := func(name string, v any) marketField {
		return marketField{name: name, code: "$text(" + t.param(v) + ")"}
	}
	mt := &marketTarget{typ: "openai-chat", version: "1.3.0", secret: "OPENAI_API_KEY",
		fields: []marketField{text("model", model), {name: "prompt", code: "[" + strings.Join(user, ", ") + "].join(\"\\n\\n\")"}}}
	if len(user) > 1 {
		mt.notes = append(mt.notes, "several user messages are sent as one prompt")
	}
	if len(system) > 0 {
		mt.fields = append(mt.fields, marketField{name: "system", code: "[" + strings.Join(system, ", ") + "].join(\"\\n\\n\")"})
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := opts[k]
		switch k {
		case "temperature":
			if f, ok := v.(float64); ok {
				mt.fields = append(mt.fields, marketField{name: "temperature", value: f})
			}
		case "maxTokens":
			if f, ok := v.(float64); ok {
				mt.fields = append(mt.fields, marketField{name: "maxTokens", value: f})
			}
		}
	}
	if j, ok := p["jsonOutput"].(bool); ok && j {
		mt.fields = append(mt.fields, marketField{name: "responseFormat", value: "json_object"})
	}
	return mt, ""
}
