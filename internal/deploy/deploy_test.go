package deploy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/google/go-cmp/cmp"
)

// TestMapStatus checks the mapping of provider statuses onto run statuses
// and details (docs/api.md, run statuses), with paused kept (decision 117): a waiting
// instance is paused only while it waits for an event; in a sleep or a
// retry back-off it is running. The end-to-end behaviour is in internal/e2e.
func TestMapStatus(t *testing.T) {
	t.Parallel()
	const (
		done     = `{"type":"step","name":"a","success":true,"attempts":[{"success":true}],"output":{}}`
		slept    = `{"type":"sleep","name":"nap","finished":true}`
		sleeping = `{"type":"sleep","name":"nap","start":"2026-01-01T00:00:00Z","end":"2026-01-01T00:01:00Z","finished":false}`
		event    = `{"type":"waitForEvent","name":"approval","start":"2026-01-01T00:00:00Z","finished":false}`
		got      = `{"type":"waitForEvent","name":"approval","finished":true,"output":{}}`
		backoff  = `{"type":"step","name":"charge","success":null,"attempts":[{"success":false,"error":{"name":"Error","message":"x"}}]}`
		backoff2 = `{"type":"step","name":"charge","success":false,"end":null,"attempts":[{"success":false},{"success":false}]}`
		trying   = `{"type":"step","name":"charge","success":null,"attempts":[{"success":false},{"success":null}]}`
	)
	list := func(s ...string) string { return "[" + strings.Join(s, ",") + "]" }
	tests := []struct {
		provider, steps, previous string
		status, detail            string
	}{
		{"queued", "", "", "queued", ""},
		{"running", "", "queued", "running", ""},
		{"waiting", list(done, sleeping), "running", "running", "sleeping"},
		{"waiting", list(done, slept, event), "running", "paused", "waiting"},
		{"waiting", list(done, backoff), "running", "running", "retrying"},
		{"waiting", list(slept, backoff2), "running", "running", "retrying"},
		{"waiting", list(got, done, trying), "running", "running", ""},
		// Parallel branches: an event wins over a sleep, a sleep over a retry.
		{"waiting", list(backoff, sleeping), "running", "running", "sleeping"},
		{"waiting", list(sleeping, event, backoff), "running", "paused", "waiting"},
		// Steps that say nothing: not known to wait for an event.
		{"waiting", "", "running", "running", ""},
		{"waiting", "[]", "paused", "running", ""},
		{"waiting", `{"not":"a list"}`, "running", "running", ""},
		{"waiting", list(done, slept, got), "running", "running", ""},
		{"paused", list(sleeping), "running", "paused", "paused"},
		{"waitingForPause", "", "running", "running", "pausing"},
		{"complete", list(done), "running", "complete", ""},
		{"errored", "", "running", "errored", ""},
		{"terminated", "", "paused", "terminated", ""},
		{"rollingBack", "", "running", "running", "rollingBack"},
		{"unknown", "", "paused", "paused", "unknown"},
		{"", "", "", "queued", ""},
	}
	for _, tc := range tests {
		var steps json.RawMessage
		if tc.steps != "" {
			steps = json.RawMessage(tc.steps)
		}
		st, detail := deploy.MapStatus(tc.provider, steps, tc.previous)
		if diff := cmp.Diff([2]string{tc.status, tc.detail}, [2]string{st, detail}); diff != "" {
			t.Errorf("MapStatus(%q, %s, %q) (-want +got):\n%s", tc.provider, tc.steps, tc.previous, diff)
		}
	}
}

// TestStages checks the order of the deploy stages (docs/deploy.md).
func TestStages(t *testing.T) {
	t.Parallel()
	want := []string{"INITIALIZING", "GENERATING_CODE", "CODE_READY", "DETECTING_BINDINGS", "BINDINGS_READY",
		"CREATING_WORKER", "DEPLOYING", "WORKER_DEPLOYED", "UPDATING_WORKFLOW", "COMPLETED"}
	if diff := cmp.Diff(want, deploy.Stages); diff != "" {
		t.Fatalf("stages (-want +got):\n%s", diff)
	}
}
