package edgeflow

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"
)

// Prefixes of the records of events and webhooks.
const (
	PrefixEvent    = "msg"
	PrefixWebhook  = "wh"
	PrefixDelivery = "dlv"
)

// Event types. Every state change of a run is an event of the run stream
// (GET /api/runs/stream); those in WebhookEventTypes are also sent to
// webhooks (docs/runs.md, "Webhooks").
const (
	EventRunQueued     = "run.queued"
	EventRunStuck      = "run.stuck" // queued past the stuck-queued bound (statusDetail RunDetailStuck)
	EventRunStarted    = "run.started"
	EventRunRunning    = "run.running" // running again after a pause or a wait
	EventRunPaused     = "run.paused"  // paused by hand
	EventRunWaiting    = "run.waiting" // waiting for an event, sleeping
	EventRunCompleted  = "run.completed"
	EventRunErrored    = "run.errored"
	EventRunTerminated = "run.terminated"
	// EventRunRolledBack follows run.errored or run.terminated when the
	// run's rollbacks ran (RunEvent.Rollback says how they ended).
	EventRunRolledBack  = "run.rolled_back"
	EventDeployComplete = "deploy.completed"
	EventDeployFailed   = "deploy.failed"
)

// WebhookEventTypes are the event types a webhook can subscribe to, in the
// order the documentation lists them.
var WebhookEventTypes = []string{EventRunStarted, EventRunCompleted, EventRunErrored, EventRunWaiting,
	EventRunTerminated, EventRunStuck, EventRunRolledBack, EventDeployComplete, EventDeployFailed}

// RunDetailStuck is the statusDetail of a run queued longer than the
// stuck-queued bound (internal/deploy, stuck.go; docs/runs.md).
const RunDetailStuck = "stuck"

// RunDetailHeld is the statusDetail of a queued run that edgeflow holds
// back for its workflow's flow control (deployConfig concurrency or
// rateLimit, triggered with queue: true): its instance is not created yet.
const RunDetailHeld = "held"

// RunDetailSkipped is the statusDetail of a terminated run that a cron
// schedule started while its workflow's flow control had no room: edgeflow
// terminated its instance (docs/deploy.md, "Flow control").
const RunDetailSkipped = "skipped"

// IsWebhookEventType reports whether t is one of WebhookEventTypes.
func IsWebhookEventType(t string) bool { return slices.Contains(WebhookEventTypes, t) }

// Event is one change the service publishes: a run's state change or a
// deploy's result. Events are kept for a short time (Store.PruneEvents) so
// that every replica's run streams can read them; the webhook deliveries an
// event causes are stored with it, in the same transaction.
type Event struct {
	// Seq orders the events of the database; assigned by the store.
	Seq int64 `json:"-"`
	// ID is the message id (the webhook-id header of its deliveries).
	ID        string          `json:"id"`
	ProjectID string          `json:"projectId"`
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"createdAt"`
}

// RunEvent is the data of a run's events: what the run stream sends and
// the data of a run webhook.
type RunEvent struct {
	ID           string `json:"id"`
	WorkflowID   string `json:"workflowId"`
	ProjectID    string `json:"projectId"`
	Status       string `json:"status"`
	StatusDetail string `json:"statusDetail,omitempty"`
	Error        string `json:"error,omitempty"`
	// Rollback is set on run.rolled_back: "complete" when every rollback
	// succeeded, "failed" when one failed (which stops the chain).
	Rollback  string    `json:"rollback,omitempty"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// RunEventType names the event of a run that went from status
// (oldStatus, oldDetail) to r's; "" when nothing a client sees changed.
// created is true for a run just stored.
func RunEventType(created bool, oldStatus, oldDetail string, r *Run) string {
	if !created && oldStatus == r.Status && oldDetail == r.StatusDetail {
		return ""
	}
	switch r.Status {
	case RunQueued:
		if r.StatusDetail == RunDetailStuck {
			return EventRunStuck
		}
		return EventRunQueued
	case RunRunning:
		if created || oldStatus == RunQueued {
			return EventRunStarted
		}
		if oldStatus == RunRunning {
			return "" // a finer running state (sleeping, retrying) is no change of the run
		}
		return EventRunRunning
	case RunPaused:
		if r.StatusDetail == "waiting" {
			return EventRunWaiting
		}
		if oldStatus == RunPaused && oldDetail != "waiting" {
			return ""
		}
		return EventRunPaused
	case RunComplete:
		return EventRunCompleted
	case RunErrored:
		return EventRunErrored
	case RunTerminated:
		return EventRunTerminated
	}
	return ""
}

// Outcomes of a run's rollbacks (RunEvent.Rollback).
const (
	RollbackComplete = "complete"
	RollbackFailed   = "failed"
)

// RunRollback is how the rollbacks of a run ended, read from its stored
// step list (the provider's shape): "" when none ran, RollbackFailed when
// one did not succeed, else RollbackComplete.
func RunRollback(steps json.RawMessage) string {
	if len(steps) == 0 || !bytes.Contains(steps, []byte(StepTypeRollback)) {
		return ""
	}
	var list []struct {
		Type    string `json:"type"`
		Success *bool  `json:"success"`
	}
	if json.Unmarshal(steps, &list) != nil {
		return ""
	}
	out := ""
	for _, st := range list {
		if st.Type != StepTypeRollback {
			continue
		}
		if st.Success == nil || !*st.Success {
			return RollbackFailed
		}
		out = RollbackComplete
	}
	return out
}

// DeployEvent is the data of a deploy.completed or deploy.failed event.
type DeployEvent struct {
	// DeploymentID is the new active deployment ("" when the deploy failed).
	DeploymentID string `json:"deploymentId,omitempty"`
	WorkflowID   string `json:"workflowId"`
	ProjectID    string `json:"projectId"`
	VersionID    string `json:"versionId,omitempty"`
	ConnectionID string `json:"connectionId"`
	URL          string `json:"url,omitempty"`
	// Error is the reason of a failed deploy (never a credential).
	Error string `json:"error,omitempty"`
}

// Webhook is an endpoint of a project that receives its events, signed
// with its secret (Standard Webhooks).
type Webhook struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	ProjectID      string `json:"projectId"`
	URL            string `json:"url"`
	// Events are the subscribed types; empty means all of WebhookEventTypes.
	Events []string `json:"events"`
	// SealedSecret is the signing secret ("whsec_…"), sealed.
	SealedSecret string    `json:"-"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// Wants reports whether the webhook subscribes to events of type t.
func (w *Webhook) Wants(t string) bool {
	if !IsWebhookEventType(t) {
		return false
	}
	return len(w.Events) == 0 || slices.Contains(w.Events, t)
}

// Delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is one message to one webhook, with its attempts. Every
// attempt sends the same message id and body.
type WebhookDelivery struct {
	ID        string `json:"id"`
	WebhookID string `json:"webhookId"`
	ProjectID string `json:"projectId"`
	// MessageID is the webhook-id header: the event's id.
	MessageID string `json:"messageId"`
	EventType string `json:"eventType"`
	// Payload is the body sent: {type, timestamp, data}.
	Payload json.RawMessage `json:"payload"`
	// Status is pending, delivered or failed (no more attempts).
	Status string `json:"status"`
	// ResponseStatus is the status code of the last attempt's answer (0:
	// none yet, or no answer).
	ResponseStatus int               `json:"responseStatus"`
	Attempts       []DeliveryAttempt `json:"attempts"`
	// NextAttemptAt is when the next attempt is due (nil once delivered or
	// failed).
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	// RedeliveryOf names the delivery this one sends again ("" otherwise).
	RedeliveryOf string    `json:"redeliveryOf,omitempty"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// DeliveryAttempt is one try to deliver a message.
type DeliveryAttempt struct {
	At time.Time `json:"at"`
	// ResponseStatus is the answer's status code, 0 when there was none.
	ResponseStatus int `json:"responseStatus"`
	// Error says why there was no answer, or that the status was not 2xx.
	Error string `json:"error,omitempty"`
	// ResponseBody is the start of the answer's body (at most 1 KiB).
	ResponseBody string `json:"responseBody,omitempty"`
	DurationMs   int64  `json:"durationMs"`
}
