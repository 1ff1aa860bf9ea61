package edgeflow

import (
	"context"
	"encoding/json"
	"time"
)

// Events sent by type to a project's waiting runs (POST /api/events;
// docs/runs.md, "Events").

// MaxSentEvents is how many sent events a project keeps: storing one more
// deletes its oldest (decision 691).
const MaxSentEvents = 1000

// States of a SentEventRun.
const (
	SentEventDelivered = "delivered"
	SentEventFailed    = "failed"
)

// SentEventRun is one run an event was sent to: its workflow, whether the
// event reached it, and why not when it did not.
type SentEventRun struct {
	RunID      string `json:"runId"`
	WorkflowID string `json:"workflowId"`
	// State is delivered or failed.
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// SentEvent is an event sent by type to every run of a project (or of one
// of its workflows) paused on a wait_for_event node of that type, with the
// runs it was sent to.
type SentEvent struct {
	ID        string `json:"id"`
	ProjectID string `json:"projectId"`
	// Type is the event type; WorkflowID the workflow it was limited to
	// ("" for every workflow of the project).
	Type       string          `json:"type"`
	WorkflowID string          `json:"workflowId,omitempty"`
	Payload    json.RawMessage `json:"payload" tstype:"Record<string, unknown>"`
	// Runs are the runs that were waiting for it, in the order it was sent
	// to them; Truncated says more were waiting than one send wakes.
	Runs      []SentEventRun `json:"runs"`
	Truncated bool           `json:"truncated,omitempty"`
	// ReplayOf is the id of the event this one replayed ("" otherwise).
	ReplayOf  string    `json:"replayOf,omitempty"`
	CreatedAt time.Time `json:"createdAt"`

	OrganizationID string `json:"-"`
}

// SentEventStore keeps the events sent by type (part of Store).
type SentEventStore interface {
	// CreateSentEvent stores e (ID when empty, and CreatedAt set) and, in
	// the same transaction, deletes the project's oldest events beyond
	// MaxSentEvents.
	CreateSentEvent(ctx context.Context, e *SentEvent) error
	// FindSentEvent returns the project's event; ENotFound otherwise.
	FindSentEvent(ctx context.Context, projectID, id string) (*SentEvent, error)
	// ListSentEvents lists the project's events, newest first.
	ListSentEvents(ctx context.Context, projectID string, opts ListOptions) (Page[SentEvent], error)
}
