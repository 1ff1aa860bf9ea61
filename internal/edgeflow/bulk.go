package edgeflow

import (
	"encoding/json"
	"time"
)

// Bulk actions on runs (docs/runs.md, "Bulk actions").
const (
	BulkRestart   = "restart"
	BulkReplay    = "replay"
	BulkTerminate = "terminate"
	BulkDelete    = "delete"
)

// States of a BulkJob.
const (
	BulkRunning   = "running"
	BulkComplete  = "complete"
	BulkCancelled = "cancelled"
)

// BulkFilter selects the runs a bulk action acts on: the run search's
// filters (GET /api/runs).
type BulkFilter struct {
	WorkflowID string     `json:"workflowId,omitempty"`
	Status     string     `json:"status,omitempty"`
	VersionID  string     `json:"versionId,omitempty"`
	From       *time.Time `json:"from,omitempty"`
	To         *time.Time `json:"to,omitempty"`
	Q          string     `json:"q,omitempty"`
	// RunIDs selects runs by id instead (Studio's selection): with it the
	// other fields are empty.
	RunIDs []string `json:"runIds,omitempty"`
}

// BulkFailure is a run a bulk action could not act on, with why.
type BulkFailure struct {
	RunID string `json:"runId"`
	Error string `json:"error"`
}

// BulkJob is a bulk action on the runs a filter matched when it was asked
// for. It is stored, so that any replica (or the same one after a restart)
// sees its state and carries it on.
type BulkJob struct {
	ID        string     `json:"id"`
	ProjectID string     `json:"projectId"`
	Action    string     `json:"action"`
	Filter    BulkFilter `json:"filter"`
	FromStep  string     `json:"fromStep,omitempty"`
	Version   string     `json:"version,omitempty"`
	// State is running, complete or cancelled.
	State string `json:"state"`
	// Matched counts the runs the filter matched; Done the runs acted on
	// (successfully or not); Failed lists the failures (the first
	// MaxBulkFailures) and FailedCount counts them all.
	Matched     int           `json:"matched"`
	Done        int           `json:"done"`
	Failed      []BulkFailure `json:"failed"`
	FailedCount int           `json:"failedCount"`
	CreatedAt   time.Time     `json:"createdAt"`
	UpdatedAt   time.Time     `json:"updatedAt"`
	EndedAt     *time.Time    `json:"endedAt"`

	// What the worker needs, not answered.
	OrganizationID string     `json:"-"`
	Actor          AuditActor `json:"-"`
	RequestID      string     `json:"-"`
	// RunIDs are the matched runs in the order acted on; Next is the
	// index of the first not acted on yet.
	RunIDs []string `json:"-"`
	Next   int      `json:"-"`
	// LeaseUntil: the replica working on the job holds it until then.
	LeaseUntil *time.Time `json:"-"`
}

// MaxBulkFailures is how many failures a BulkJob lists.
const MaxBulkFailures = 100

// BulkDetails is what the audit entry of a bulk action holds.
func (j *BulkJob) BulkDetails() json.RawMessage {
	b, _ := json.Marshal(map[string]any{"action": j.Action, "filter": j.Filter, "fromStep": j.FromStep,
		"version": j.Version, "state": j.State, "matched": j.Matched, "done": j.Done, "failed": j.FailedCount})
	return b
}
