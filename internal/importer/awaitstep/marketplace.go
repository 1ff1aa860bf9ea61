package awaitstep

import (
	"fmt"
	"strings"

	"github.com/edgeflow/edgeflow/internal/importer"
)

// AwaitStep's marketplace nodes take an "action" and the action's fields;
// edgeflow's marketplace nodes do one thing each. An AwaitStep node whose
// action has an edgeflow counterpart becomes it, its fields renamed; any
// other becomes a step that throws and is reported.

// marketMap is the edgeflow node of one AwaitStep (node, action).
type marketMap struct {
	typ, version string
	// fields maps AwaitStep's field names to edgeflow's.
	fields map[string]string
	// set are fields edgeflow needs that AwaitStep does not have.
	set map[string]any
	// secret is edgeflow's env var for the node's secret, and from is
	// AwaitStep's, when they differ.
	secret, from string
}

var marketMaps = map[string]marketMap{
	"resend/Send Email": {typ: "resend-email", version: "1.0.0",
		fields: map[string]string{"from": "from", "to": "to", "subject": "subject", "html": "html", "replyTo": "replyTo", "cc": "cc", "bcc": "bcc"}},
	"slack/Send Message": {typ: "slack-message", version: "2.0.0", fields: map[string]string{"channel": "channel", "text": "text"}},
	"discord/Send Webhook Message": {typ: "discord-webhook", version: "1.0.0",
		fields: map[string]string{"content": "content", "username": "username", "avatarUrl": "avatarUrl"}},
	"openai/Chat Completion": {typ: "openai-chat", version: "1.1.0",
		fields: map[string]string{"model": "model", "systemPrompt": "system", "userMessage": "prompt", "temperature": "temperature", "maxTokens": "maxTokens"}},
	"anthropic/Chat Completion": {typ: "anthropic-message", version: "1.0.0",
		fields: map[string]string{"model": "model", "systemPrompt": "system", "userMessage": "prompt", "temperature": "temperature", "maxTokens": "maxTokens"}},
	"telegram/Send Message": {typ: "telegram-message", version: "1.0.0",
		fields: map[string]string{"chatId": "chatId", "text": "text", "disableNotification": "disableNotification"}},
	"github/Create Issue": {typ: "github-issue", version: "1.0.0",
		fields: map[string]string{"owner": "owner", "repo": "repo", "title": "title", "body": "body", "labels": "labels", "assignees": "assignees"}},
	"notion/Create Page": {typ: "notion-page", version: "1.0.0", secret: "NOTION_TOKEN", from: "NOTION_API_KEY",
		fields: map[string]string{"databaseId": "databaseId", "properties": "properties", "content": "content"}},
	"airtable/Create Record": {typ: "airtable-record", version: "1.0.0", secret: "AIRTABLE_TOKEN", from: "AIRTABLE_API_KEY",
		fields: map[string]string{"baseId": "baseId", "tableId": "table", "fields": "fields"}},
	"stripe/Retrieve Customer": {typ: "stripe-customer", version: "1.0.0",
		fields: map[string]string{"customerId": "customerId"}, set: map[string]any{"lookup": "id"}},
	"sendgrid/Send Email": {typ: "sendgrid-email", version: "1.0.0",
		fields: map[string]string{"from": "from", "to": "to", "subject": "subject", "html": "html"}},
	"twilio/Send SMS": {typ: "twilio-sms", version: "1.0.0", fields: map[string]string{"to": "to", "from": "from", "body": "body"}},
	"linear/Create Issue": {typ: "linear-issue", version: "1.0.0",
		fields: map[string]string{"teamId": "teamId", "title": "title", "description": "description", "priority": "priority", "assigneeId": "assigneeId"}},
}

// marketplace converts an AwaitStep marketplace node (or any other type).
func (c *converter) marketplace(id, typ string, out map[string]any, data map[string]any) []map[string]any {
	action := str(data["action"])
	m, ok := marketMaps[typ+"/"+action]
	if !ok {
		reason := fmt.Sprintf("AwaitStep's %q has no edgeflow counterpart", typ)
		switch {
		case typ == "sub_script":
			reason = "sub_script calls another worker through a service binding; edgeflow has no such node"
		case action != "":
			reason = fmt.Sprintf("AwaitStep's %q action %q has no edgeflow marketplace counterpart", typ, action)
		}
		return c.throwing(id, typ, out, reason)
	}
	nd := map[string]any{}
	for from, to := range m.fields {
		v, ok := data[from]
		if !ok || v == nil || v == "" {
			continue
		}
		switch x := v.(type) {
		case string:
			nd[to] = c.rewrite(id, x, false)
		case []any:
			if to == "labels" || to == "assignees" {
				var parts []string
				for _, e := range x {
					parts = append(parts, fmt.Sprint(e))
				}
				nd[to] = strings.Join(parts, ",")
			} else {
				nd[to] = x
			}
		default:
			nd[to] = x
		}
	}
	for k, v := range m.set {
		nd[k] = v
	}
	out["type"] = m.typ
	out["version"] = m.version
	out["data"] = nd
	c.outTypes[id] = m.typ
	c.rep.Marketplace = append(c.rep.Marketplace, m.typ+"@"+m.version)
	c.approximate(id, fmt.Sprintf("became the marketplace node %s@%s; its value has the fields of that node's outputs table, not AwaitStep's", m.typ, m.version))
	if m.secret != "" {
		c.rep.EnvVars = append(c.rep.EnvVars, importer.EnvVar{Name: m.secret, Secret: true,
			Why: fmt.Sprintf("the secret of %s (AwaitStep's %q reads it from %s)", m.typ, typ, m.from)})
	}
	c.converted(id, c.ids[id])
	return []map[string]any{out}
}

func unsupported(id, typ, reason, irID string) importer.Unsupported {
	return importer.Unsupported{Node: id, Type: typ, Reason: reason, NodeIDs: []string{irID}}
}
