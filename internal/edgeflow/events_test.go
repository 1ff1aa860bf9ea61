package edgeflow_test

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func TestRunEventType(t *testing.T) {
	t.Parallel()
	cases := []struct {
		created              bool
		oldStatus, oldDetail string
		status, detail       string
		want                 string
	}{
		{true, "", "", "queued", "", edgeflow.EventRunQueued},
		{false, "queued", "", "running", "", edgeflow.EventRunStarted},
		{false, "running", "", "running", "sleeping", ""},
		{false, "running", "", "paused", "waiting", edgeflow.EventRunWaiting},
		{false, "paused", "waiting", "running", "", edgeflow.EventRunRunning},
		{false, "running", "", "paused", "paused", edgeflow.EventRunPaused},
		{false, "paused", "paused", "paused", "paused", ""},
		{false, "paused", "waiting", "paused", "waiting", ""},
		{false, "running", "", "complete", "", edgeflow.EventRunCompleted},
		{false, "running", "", "errored", "", edgeflow.EventRunErrored},
		{false, "paused", "paused", "terminated", "", edgeflow.EventRunTerminated},
		{false, "queued", "", "complete", "", edgeflow.EventRunCompleted},
		{false, "queued", "", "queued", "stuck", edgeflow.EventRunStuck},
		{false, "queued", "stuck", "queued", "stuck", ""},
		{false, "queued", "stuck", "running", "", edgeflow.EventRunStarted},
	}
	for _, c := range cases {
		r := &edgeflow.Run{Status: c.status, StatusDetail: c.detail}
		if got := edgeflow.RunEventType(c.created, c.oldStatus, c.oldDetail, r); got != c.want {
			t.Errorf("%s/%s → %s/%s: %q, want %q", c.oldStatus, c.oldDetail, c.status, c.detail, got, c.want)
		}
	}
	for _, typ := range edgeflow.WebhookEventTypes {
		if !edgeflow.IsWebhookEventType(typ) {
			t.Errorf("%s is not a webhook type", typ)
		}
	}
	if !edgeflow.IsWebhookEventType(edgeflow.EventRunStuck) {
		t.Error("run.stuck is a webhook event (issue 39)")
	}
	if edgeflow.IsWebhookEventType(edgeflow.EventRunQueued) || edgeflow.IsWebhookEventType(edgeflow.EventRunPaused) {
		t.Error("run.queued and run.paused are stream events only")
	}
	all := &edgeflow.Webhook{}
	some := &edgeflow.Webhook{Events: []string{edgeflow.EventRunErrored}}
	if !all.Wants(edgeflow.EventDeployFailed) || all.Wants(edgeflow.EventRunQueued) || some.Wants(edgeflow.EventRunCompleted) || !some.Wants(edgeflow.EventRunErrored) {
		t.Error("Wants")
	}
}
