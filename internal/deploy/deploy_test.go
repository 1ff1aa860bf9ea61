package deploy_test

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/google/go-cmp/cmp"
)

// TestMapStatus checks ARCHITECTURE.md's mapping of provider statuses onto
// run statuses and details. The end-to-end behaviour is in internal/e2e.
func TestMapStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		provider, previous string
		status, detail     string
	}{
		{"queued", "", "queued", ""},
		{"running", "queued", "running", ""},
		{"waiting", "running", "paused", "waiting"},
		{"paused", "running", "paused", "paused"},
		{"waitingForPause", "running", "running", "pausing"},
		{"complete", "running", "complete", ""},
		{"errored", "running", "errored", ""},
		{"terminated", "paused", "terminated", ""},
		{"rollingBack", "running", "running", "rollingBack"},
		{"unknown", "paused", "paused", "unknown"},
		{"", "", "queued", ""},
	}
	for _, tc := range tests {
		st, detail := deploy.MapStatus(tc.provider, tc.previous)
		if diff := cmp.Diff([2]string{tc.status, tc.detail}, [2]string{st, detail}); diff != "" {
			t.Errorf("MapStatus(%q, %q) (-want +got):\n%s", tc.provider, tc.previous, diff)
		}
	}
}

// TestStages checks the order of SPEC.md's deploy stages.
func TestStages(t *testing.T) {
	t.Parallel()
	want := []string{"INITIALIZING", "GENERATING_CODE", "CODE_READY", "DETECTING_BINDINGS", "BINDINGS_READY",
		"CREATING_WORKER", "DEPLOYING", "WORKER_DEPLOYED", "UPDATING_WORKFLOW", "COMPLETED"}
	if diff := cmp.Diff(want, deploy.Stages); diff != "" {
		t.Fatalf("stages (-want +got):\n%s", diff)
	}
}
