// Package ir holds the workflow intermediate representation (IR) that edgeflow
// stores, validates and compiles: its Go types (docs/ir.md), its parser and
// its complete validation.
//
// The types here are the shared vocabulary of the validator (this package),
// the compiler (internal/codegen) and the service layer. Field names and JSON
// tags follow docs/ir.md exactly.
package ir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Kind says what an artifact compiles to.
type Kind string

// The two artifact kinds. An IR without "kind" is a workflow (legacy IRs).
const (
	KindWorkflow Kind = "workflow"
	KindScript   Kind = "script"
)

// ArtifactIR is a WorkflowIR or a ScriptIR: a graph of nodes joined by edges,
// entered at EntryNodeID.
type ArtifactIR struct {
	Kind        Kind           `json:"kind,omitempty"`
	Metadata    Metadata       `json:"metadata"`
	Nodes       []Node         `json:"nodes"`
	Edges       []Edge         `json:"edges"`
	EntryNodeID string         `json:"entryNodeId"`
	Trigger     *TriggerConfig `json:"trigger,omitempty"`
	// OutputNodeID names the node whose value is the run's output; empty:
	// the last node that completed on the path the run took (decision 583).
	OutputNodeID string `json:"outputNodeId,omitempty"`
	// Notes are the canvas's sticky notes: text for people, placed beside
	// the graph. They have no meaning at run time: validation checks only
	// their shape and bounds, and the compiler never reads them (decision
	// 683).
	Notes []Note `json:"notes,omitempty"`

	filled         bool  // see FilledDefaults
	versionOmitted []int // marketplace nodes whose version the validator fills in
}

// IsScript reports whether the artifact compiles to a fetch-only function.
func (a *ArtifactIR) IsScript() bool { return a.Kind == KindScript }

// Metadata describes the artifact. Version is assigned by the server.
type Metadata struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Version     int    `json:"version"`
	CreatedAt   string `json:"createdAt"`
	UpdatedAt   string `json:"updatedAt"`
}

// Node is one vertex of the graph. Data holds the node-type specific
// configuration, checked against the node definition's config schema.
type Node struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Name     string         `json:"name"`
	Position Position       `json:"position"`
	Version  string         `json:"version"`
	Provider string         `json:"provider"`
	Data     map[string]any `json:"data"`
	Config   *StepConfig    `json:"config,omitempty"`
}

// Note is one sticky note on the canvas: its text (plain text), where it
// sits and its size (0: the editor's default).
type Note struct {
	ID       string   `json:"id"`
	Text     string   `json:"text"`
	Position Position `json:"position"`
	Width    float64  `json:"width,omitempty"`
	Height   float64  `json:"height,omitempty"`
}

// Bounds of the sticky notes of one IR.
const (
	MaxNotes    = 200
	MaxNoteText = 10000 // characters
)

// Position is where the node sits on the canvas; it has no meaning at run time.
type Position struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Edge joins Source to Target. Label is used by container nodes (see the
// edge labels table of docs/ir.md and the Label* constants).
type Edge struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Target string `json:"target"`
	Label  string `json:"label,omitempty"`
}

// Edge labels with a fixed meaning. Branch edges carry a branch condition
// label instead.
const (
	LabelBody    = "body"
	LabelTry     = "try"
	LabelCatch   = "catch"
	LabelFinally = "finally"
	LabelThen    = "then"
)

// StepConfig overrides retries and timeout of a durable step, declares how
// to undo it (Rollback) when a later step fails, and marks its output
// sensitive.
type StepConfig struct {
	Retries  *RetryConfig    `json:"retries,omitempty"`
	Timeout  *Duration       `json:"timeout,omitempty"`
	Rollback *RollbackConfig `json:"rollback,omitempty"`
	// Sensitive keeps the step's output inside the running workflow: it is
	// compiled to the step option {sensitive: "output"}, and edgeflow shows,
	// stores and sends "[REDACTED]" in its place (docs/runs.md).
	Sensitive bool `json:"sensitive,omitempty"`
}

// RetryConfig is the retry policy of a durable step. Delay may be the text
// DelayRetryAfter on http_request and marketplace nodes: the wait is then
// the failed response's Retry-After, at most MaxDelay (default one hour).
type RetryConfig struct {
	Limit    int       `json:"limit"`
	Delay    Duration  `json:"delay"`
	Backoff  string    `json:"backoff,omitempty"`
	MaxDelay *Duration `json:"maxDelay,omitempty"`
}

// DelayRetryAfter is the retries.delay that waits for the failed
// response's Retry-After header.
const DelayRetryAfter = "retry-after"

// IsRetryAfter reports whether the delay is DelayRetryAfter.
func (r *RetryConfig) IsRetryAfter() bool {
	return r != nil && r.Delay.IsText && r.Delay.Text == DelayRetryAfter
}

// RollbackConfig is a durable step's saga rollback: Code (the body of an
// async function that receives output, error and ctx) runs when a later step
// fails terminally, with its own Retries and Timeout.
type RollbackConfig struct {
	Code    string       `json:"code"`
	Retries *RetryConfig `json:"retries,omitempty"`
	Timeout *Duration    `json:"timeout,omitempty"`
}

// Backoff strategies accepted in RetryConfig.Backoff.
const (
	BackoffConstant    = "constant"
	BackoffLinear      = "linear"
	BackoffExponential = "exponential"
)

// TriggerConfig is the union of docs/ir.md's trigger variants, discriminated by
// Type. Only the fields of the variant named by Type are meaningful.
type TriggerConfig struct {
	Type       string `json:"type"`
	Path       string `json:"path,omitempty"`
	Method     string `json:"method,omitempty"`
	Expression string `json:"expression,omitempty"`
	EventType  string `json:"eventType,omitempty"`
}

// Trigger types.
const (
	TriggerManual = "manual"
	TriggerHTTP   = "http"
	TriggerCron   = "cron"
	TriggerEvent  = "event"
)

// Builtin node types (docs/nodes.md).
const (
	TypeStep         = "step"
	TypeSleep        = "sleep"
	TypeSleepUntil   = "sleep_until"
	TypeBranch       = "branch"
	TypeParallel     = "parallel"
	TypeRace         = "race"
	TypeHTTPRequest  = "http_request"
	TypeWaitForEvent = "wait_for_event"
	TypeTryCatch     = "try_catch"
	TypeLoop         = "loop"
	TypeBreak        = "break"
	TypeSubWorkflow  = "sub_workflow"
	TypeAgent        = "agent"
)

// Duration is a number of seconds or a duration string such as "30 seconds"
// or "2 hours", as docs/ir.md allows for retries.delay and timeout. It keeps the
// form it was written in so that the IR round-trips unchanged.
type Duration struct {
	// Text is the duration string when the value was written as a string.
	Text string
	// Seconds is the value when it was written as a number.
	Seconds float64
	// IsText reports which of the two forms was used.
	IsText bool
}

// DurationSeconds returns a Duration written as a number of seconds.
func DurationSeconds(s float64) Duration { return Duration{Seconds: s} }

// DurationText returns a Duration written as a duration string.
func DurationText(s string) Duration { return Duration{Text: s, IsText: true} }

// MarshalJSON writes the duration in the form it was read in.
func (d Duration) MarshalJSON() ([]byte, error) {
	if d.IsText {
		return json.Marshal(d.Text)
	}
	return []byte(strconv.FormatFloat(d.Seconds, 'f', -1, 64)), nil
}

// UnmarshalJSON accepts a JSON number or a JSON string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = DurationText(s)
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("duration must be a number of seconds or a duration string")
	}
	*d = DurationSeconds(f)
	return nil
}

// String returns the duration as written.
func (d Duration) String() string {
	if d.IsText {
		return d.Text
	}
	return strconv.FormatFloat(d.Seconds, 'f', -1, 64)
}
