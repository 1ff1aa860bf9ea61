package n8n_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/importer/n8n"
)

// TestTelegramDefaultsApproximated: what n8n's Telegram node sends without
// being told (parse mode Markdown, link previews off, from version 1.1 an
// attribution line), which telegram-message does not, is in the report
// (TestImportN8nCorpus/z-cron-wait-telegram compares the requests).
func TestTelegramDefaultsApproximated(t *testing.T) {
	cases := []struct {
		version float64
		fields  string
		want    []string
		not     []string
	}{
		{1, `{}`, []string{"Markdown (legacy), n8n's default", "link previews"}, []string{"attribution"}},
		{1.1, `{}`, []string{"Markdown (legacy), n8n's default", "link previews", "attribution"}, nil},
		{1.2, `{"parse_mode":"HTML","disable_web_page_preview":false,"appendAttribution":false}`, nil, []string{"Markdown", "link previews", "attribution"}},
	}
	for _, c := range cases {
		wf := fmt.Sprintf(`{"name":"t","nodes":[
			{"id":"1","name":"Start","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}},
			{"id":"2","name":"Tell","type":"n8n-nodes-base.telegram","typeVersion":%v,"position":[200,0],"parameters":{"chatId":"1","text":"hi","additionalFields":%s}}],
			"connections":{"Start":{"main":[[{"node":"Tell","type":"main","index":0}]]}}}`, c.version, c.fields)
		res, _ := convert(t, wf, n8n.Options{})
		var notes []string
		for _, a := range res.Report.Approximated {
			notes = append(notes, a.What)
		}
		all := strings.Join(notes, "\n")
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("version %v %s: no note on %q in %q", c.version, c.fields, w, all)
			}
		}
		for _, w := range c.not {
			if strings.Contains(all, w) {
				t.Errorf("version %v %s: a note on %q in %q", c.version, c.fields, w, all)
			}
		}
	}
}
