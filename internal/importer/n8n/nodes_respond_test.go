package n8n_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/importer/n8n"
)

// TestRespondToWebhookAnswer: in a function, Respond to Webhook's value is
// the answer n8n's node sends (TestImportN8nRespond compares them with
// n8n's own answers): the first item by default in every version, the
// option's code for a redirect, header names in lower case, the item(s) put
// in a field when asked.
func TestRespondToWebhookAnswer(t *testing.T) {
	cases := []struct {
		name    string
		version float64
		params  string
		want    []string
	}{
		{"default v1", 1, `{"options":{}}`, []string{"status: 200", "body: items[0].json"}},
		{"default v1.1", 1.1, `{"options":{}}`, []string{"status: 200", "body: items[0].json"}},
		{"first item", 1.5, `{"respondWith":"firstIncomingItem","options":{"responseCode":201}}`, []string{"status: 201", "body: items[0].json"}},
		{"all items in a field", 1.1, `{"respondWith":"allIncomingItems","options":{"responseKey":"data.list"}}`,
			[]string{`String("data.list").split(".")`, "(items.map((it) => it.json))"}},
		{"redirect with a code", 1, `{"respondWith":"redirect","redirectURL":"https://example.com/","options":{"responseCode":302,"responseHeaders":{"entries":[{"name":"X-Trace","value":"1"}]}}}`,
			[]string{"status: 302", `[String("X-Trace").toLowerCase(), String("1")]`, `location: "https://example.com/"`}},
		{"redirect", 1, `{"respondWith":"redirect","redirectURL":"https://example.com/","options":{}}`, []string{"status: 307"}},
		{"text", 1, `{"respondWith":"text","responseBody":"hi","options":{}}`, []string{`body: "hi"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wf := fmt.Sprintf(`{"name":"t","nodes":[
				{"id":"1","name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"p","responseMode":"responseNode","options":{}}},
				{"id":"2","name":"Answer","type":"n8n-nodes-base.respondToWebhook","typeVersion":%v,"position":[200,0],"parameters":%s}],
				"connections":{"Hook":{"main":[[{"node":"Answer","type":"main","index":0}]]}}}`, c.version, c.params)
			_, a := convert(t, wf, n8n.Options{})
			var code string
			for _, n := range a.Nodes {
				if n.ID == "answer" {
					code, _ = n.Data["code"].(string)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(code, w) {
					t.Errorf("the answer's code lacks %q:\n%s", w, code)
				}
			}
			if !strings.Contains(code, "event.payload?.n8nAnswer?.(answer);") {
				t.Errorf("the answer is not handed to the trigger code as it is made:\n%s", code)
			}
			if strings.Contains(code, "not converted") {
				t.Errorf("the answer is not converted:\n%s", code)
			}
		})
	}
}

// TestRespondTriggerCode: the function's trigger code sets the Webhook
// node's response headers on every answer (an expression is left out and
// reported), answers another method and a failing graph as n8n does, and
// runs the graph on after the answer.
func TestRespondTriggerCode(t *testing.T) {
	wf := `{"name":"t","nodes":[
		{"id":"1","name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"parameters":{"path":"p","httpMethod":"POST","responseMode":"responseNode",
			"options":{"responseHeaders":{"entries":[{"name":"Content-Type","value":"text/plain"},{"name":"X-Id","value":"={{ $json.id }}"}]}}}},
		{"id":"2","name":"Answer","type":"n8n-nodes-base.respondToWebhook","typeVersion":1.1,"position":[200,0],"parameters":{"options":{}}}],
		"connections":{"Hook":{"main":[[{"node":"Answer","type":"main","index":0}]]}}}`
	res, _ := convert(t, wf, n8n.Options{})
	for _, w := range []string{`new Headers({"content-type": "text/plain"})`, `send(500, { message: "Error in workflow" })`,
		`if (request.method !== "POST")`, "ctx.waitUntil(graph.catch("} {
		if !strings.Contains(res.TriggerCode, w) {
			t.Errorf("the trigger code lacks %q:\n%s", w, res.TriggerCode)
		}
	}
	if strings.Contains(res.TriggerCode, "x-id") {
		t.Errorf("the trigger code sets the header given by an expression:\n%s", res.TriggerCode)
	}
	noted := false
	for _, ap := range res.Report.Approximated {
		noted = noted || ap.N8nNode == "Hook" && strings.Contains(ap.What, `"X-Id"`)
	}
	if !noted {
		t.Errorf("approximated %v: the header given by an expression is not reported", res.Report.Approximated)
	}
}
