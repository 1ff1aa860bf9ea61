package storetest

import (
	"encoding/json"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testSentEvents: a sent event is stored with its payload and runs and read
// back by its project only, listed newest first with a cursor; past
// MaxSentEvents a project's oldest events go, another project's stay.
func testSentEvents(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	other := newTenant(t, s)
	e := &edgeflow.SentEvent{OrganizationID: a.org.ID, ProjectID: a.project.ID, Type: "approval", WorkflowID: "wf_1",
		Payload: json.RawMessage(`{"approved":true}`), Truncated: true, ReplayOf: "evt_0",
		Runs: []edgeflow.SentEventRun{{RunID: "run_1", WorkflowID: "wf_1", State: edgeflow.SentEventDelivered},
			{RunID: "run_2", WorkflowID: "wf_1", State: edgeflow.SentEventFailed, Error: "finished"}}}
	must(t, s.CreateSentEvent(ctx, e))
	if e.ID == "" || e.CreatedAt.IsZero() {
		t.Fatalf("stored without id or time: %+v", e)
	}
	got, err := s.FindSentEvent(ctx, a.project.ID, e.ID)
	must(t, err)
	if got.Type != "approval" || got.WorkflowID != "wf_1" || string(got.Payload) != `{"approved":true}` || !got.Truncated ||
		got.ReplayOf != "evt_0" || len(got.Runs) != 2 || got.Runs[1] != e.Runs[1] || !got.CreatedAt.Equal(e.CreatedAt) ||
		got.OrganizationID != a.org.ID {
		t.Fatalf("read back %+v", got)
	}
	if _, err := s.FindSentEvent(ctx, other.project.ID, e.ID); !edgeflow.IsNotFound(err) {
		t.Fatalf("another project's read: %v", err)
	}
	bare := &edgeflow.SentEvent{OrganizationID: a.org.ID, ProjectID: a.project.ID, Type: "go"}
	must(t, s.CreateSentEvent(ctx, bare))
	if got, err := s.FindSentEvent(ctx, a.project.ID, bare.ID); err != nil || string(got.Payload) != "{}" || got.Runs == nil || len(got.Runs) != 0 {
		t.Fatalf("an event without payload or runs: %+v %v", got, err)
	}

	page, err := s.ListSentEvents(ctx, a.project.ID, edgeflow.ListOptions{Limit: 1})
	must(t, err)
	if len(page.Items) != 1 || page.Items[0].ID != bare.ID || page.NextCursor == "" {
		t.Fatalf("first page %+v", page)
	}
	page, err = s.ListSentEvents(ctx, a.project.ID, edgeflow.ListOptions{Limit: 1, Cursor: page.NextCursor})
	must(t, err)
	if len(page.Items) != 1 || page.Items[0].ID != e.ID || page.NextCursor != "" {
		t.Fatalf("second page %+v", page)
	}
	if page, err := s.ListSentEvents(ctx, other.project.ID, edgeflow.ListOptions{}); err != nil || len(page.Items) != 0 {
		t.Fatalf("another project lists %+v %v", page, err)
	}

	// The bound: a project keeps its newest MaxSentEvents.
	kept := &edgeflow.SentEvent{OrganizationID: other.org.ID, ProjectID: other.project.ID, Type: "other"}
	must(t, s.CreateSentEvent(ctx, kept))
	for range edgeflow.MaxSentEvents - 1 {
		must(t, s.CreateSentEvent(ctx, &edgeflow.SentEvent{OrganizationID: a.org.ID, ProjectID: a.project.ID, Type: "bulk"}))
	}
	if _, err := s.FindSentEvent(ctx, a.project.ID, e.ID); !edgeflow.IsNotFound(err) {
		t.Fatalf("the oldest event past the bound is kept: %v", err)
	}
	if _, err := s.FindSentEvent(ctx, a.project.ID, bare.ID); err != nil {
		t.Fatalf("the %dth newest event is gone: %v", edgeflow.MaxSentEvents, err)
	}
	if _, err := s.FindSentEvent(ctx, other.project.ID, kept.ID); err != nil {
		t.Fatalf("another project's event went with the bound: %v", err)
	}
	n := 0
	for cursor := ""; ; {
		p, err := s.ListSentEvents(ctx, a.project.ID, edgeflow.ListOptions{Limit: 100, Cursor: cursor})
		must(t, err)
		n += len(p.Items)
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if n != edgeflow.MaxSentEvents {
		t.Fatalf("the project keeps %d events, want %d", n, edgeflow.MaxSentEvents)
	}
}
