package e2e_test

import (
	"testing"
	"time"
)

// TestRunSearchFindsStepOutputsAndEvents: on the local edge, a run is
// found by a word of a step's output and by a word of the event payload it
// received, as recorded from the provider; never by a word of a sensitive
// step's output; another organization's search finds nothing (the attack,
// beside the owner's searches, its twin).
func TestRunSearchFindsStepOutputsAndEvents(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	token := step("token", "return { token: 'sekrit' + 'zebra' + event.payload.order };")
	token["config"] = map[string]any{"sensitive": true}
	wf, _ := s.workflow("Searchable", "workflow", chain("Searchable",
		step("ship", "return { carrier: 'zephyrline', order: event.payload.order };"),
		token,
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		step("finish", "return { done: {{token.token}}.length > 0 };"),
	))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"order": 9})
	s.waitRun(wf, id, 30*time.Second, "waiting for the event", func(r run) bool {
		return r.Status == "paused" && r.StatusDetail == "waiting"
	})
	s.must(201, "POST", "/api/events", map[string]any{"type": "approval", "payload": map[string]any{"approver": "margueritex"}})
	done := s.waitStatus(wf, id, "complete", 30*time.Second)
	jsonEqual(t, done.Output, `{"done":true}`)

	found := func(c *server, q string) []string {
		t.Helper()
		var page struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		c.must(200, "GET", "/api/runs?q="+q, nil).into(&page)
		var ids []string
		for _, r := range page.Data {
			ids = append(ids, r.ID)
		}
		return ids
	}
	for _, q := range []string{"zephyrline", "margueritex", "zephyrline+margueritex"} {
		if got := found(s, q); len(got) != 1 || got[0] != id {
			t.Errorf("GET /api/runs?q=%s = %v, want the run", q, got)
		}
	}
	if got := found(s, "sekritzebra9"); len(got) != 0 {
		t.Errorf("a search for the sensitive output found %v", got)
	}
	attacker := s.tenant("mallory@example.com")
	for _, q := range []string{"zephyrline", "margueritex"} {
		if got := found(attacker, q); len(got) != 0 {
			t.Errorf("another organization's GET /api/runs?q=%s = %v", q, got)
		}
	}
}
