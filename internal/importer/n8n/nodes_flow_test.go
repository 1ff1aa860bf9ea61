package n8n_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/importer/n8n"
)

// TestScheduleTriggerItems: the legacy Cron and Interval triggers output one
// empty item, as n8n's do (TestImportN8nCorpus/z-cron-wait-telegram found
// the time fields there); the Schedule Trigger's time fields are formatted
// as n8n's moment formats them (ordinal day, offset instead of Z).
func TestScheduleTriggerItems(t *testing.T) {
	cases := []struct {
		typ, params string
		want, not   []string
		timeNote    bool
	}{
		{"n8n-nodes-base.cron", `{"triggerTimes":{"item":[{"mode":"everyX","unit":"minutes","value":5}]}}`,
			[]string{"return [{ json: {} }];"}, []string{"Readable date"}, false},
		{"n8n-nodes-base.interval", `{"interval":2,"unit":"hours"}`,
			[]string{"return [{ json: {} }];"}, []string{"Readable date"}, false},
		{"n8n-nodes-base.scheduleTrigger", `{"rule":{"interval":[{"field":"minutes"}]}}`,
			[]string{`"Readable date": ` + "`${months[now.getUTCMonth()]} ${ordinal(now.getUTCDate())} ", `now.toISOString().replace(/Z$/, "+00:00")`},
			[]string{"getUTCDate()}th"}, true},
	}
	for _, c := range cases {
		t.Run(c.typ, func(t *testing.T) {
			wf := fmt.Sprintf(`{"name":"t","nodes":[{"id":"1","name":"Tick","type":%q,"typeVersion":1,"position":[0,0],"parameters":%s}],"connections":{}}`, c.typ, c.params)
			res, a := convert(t, wf, n8n.Options{})
			var code string
			for _, n := range a.Nodes {
				if n.ID == "tick" {
					code, _ = n.Data["code"].(string)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(code, w) {
					t.Errorf("the trigger's code lacks %q:\n%s", w, code)
				}
			}
			for _, w := range c.not {
				if strings.Contains(code, w) {
					t.Errorf("the trigger's code has %q:\n%s", w, code)
				}
			}
			timeNote := false
			for _, ap := range res.Report.Approximated {
				timeNote = timeNote || strings.Contains(ap.What, "time fields")
			}
			if timeNote != c.timeNote {
				t.Errorf("approximated %v: a note on time fields = %v, want %v", res.Report.Approximated, timeNote, c.timeNote)
			}
		})
	}
}

// TestHTTPRequestArrayAnswer: HTTP Request versions 1 and 2 make an array
// answer one item whose json is the array unless "Split Into Items" is on;
// version 3 splits it (TestImportN8nCorpus/z-schedule-telegram-digest).
func TestHTTPRequestArrayAnswer(t *testing.T) {
	cases := []struct {
		version float64
		options string
		want    string
	}{
		{1, `{}`, "for (const json of [data])"},
		{2, `{"splitIntoItems":true}`, "for (const json of Array.isArray(data) ? data : [data])"},
		{4.2, `{}`, "for (const json of Array.isArray(data) ? data : [data])"},
	}
	for _, c := range cases {
		wf := fmt.Sprintf(`{"name":"t","nodes":[
			{"id":"1","name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
			{"id":"2","name":"Get","type":"n8n-nodes-base.httpRequest","typeVersion":%v,"position":[200,0],"parameters":{"url":"https://example.com/list","options":%s}}],
			"connections":{"Start":{"main":[[{"node":"Get","type":"main","index":0}]]}}}`, c.version, c.options)
		_, a := convert(t, wf, n8n.Options{})
		var code string
		for _, n := range a.Nodes {
			if n.ID == "get" {
				code, _ = n.Data["code"].(string)
			}
		}
		if !strings.Contains(code, c.want) {
			t.Errorf("version %v %s: the code lacks %q:\n%s", c.version, c.options, c.want, code)
		}
	}
}
