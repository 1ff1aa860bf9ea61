package edgeflow

import (
	"encoding/json"
	"time"
)

// The answers of the public API that are not a stored record as it is: the
// API package (internal/api) writes them and the CLI (internal/cli) reads
// them, so that both sides of the contract use one Go type per answer. The
// OpenAPI document derives each route's response schema from these types
// (docs/architecture.md, "The contract"); the names in brackets are the
// document's schema names where they differ.

// ListPage is the JSON shape of every list: {data, nextCursor}; nextCursor
// is null on the last page.
type ListPage[T any] struct {
	Data       []T     `json:"data"`
	NextCursor *string `json:"nextCursor"`
}

// ErrorBody is the JSON body of every error response [Error].
type ErrorBody struct {
	Error     string `json:"error"`
	Code      string `json:"code"`
	Details   any    `json:"details"`
	RequestID string `json:"requestId"`
}

// StreamError is the data of an event stream's error event: the error
// answer the request would have had, with its status.
type StreamError struct {
	ErrorBody
	Status int `json:"status"`
}

// SignedIn is the session of a signed-in user with its organizations, the
// active organization and project, and the session's CSRF token.
type SignedIn struct {
	User                 SignedInUser             `json:"user"`
	Organizations        []OrganizationMembership `json:"organizations"`
	ActiveOrganizationID string                   `json:"activeOrganizationId"`
	ActiveProjectID      string                   `json:"activeProjectId"`
	CSRFToken            string                   `json:"csrfToken"`
	ExpiresAt            time.Time                `json:"expiresAt"`
}

// SignedInUser is the user of a session [User].
type SignedInUser struct {
	ID        string    `json:"id"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// OrganizationList is the signed-in user's organizations with their role.
type OrganizationList struct {
	Data []OrganizationMembership `json:"data"`
}

// Whoami names the caller (the user, the key when a key calls) and the
// organization and project the request acted in.
type Whoami struct {
	User         WhoamiUser          `json:"user"`
	APIKey       *WhoamiKey          `json:"apiKey"`
	Organization *WhoamiOrganization `json:"organization"`
	Project      *WhoamiProject      `json:"project"`
}

// WhoamiUser is the calling user.
type WhoamiUser struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

// WhoamiKey is the calling API key; Scope is "organization" or "project".
type WhoamiKey struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Prefix    string     `json:"prefix"`
	Scope     string     `json:"scope"`
	Scopes    []Scope    `json:"scopes"`
	ExpiresAt *time.Time `json:"expiresAt"`
}

// WhoamiOrganization is the organization a request acted in, with the
// caller's role.
type WhoamiOrganization struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
	Role Role   `json:"role"`
}

// WhoamiProject is the project a request acted in.
type WhoamiProject struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// ConnectionView is a connection as lists and answers show it [Connection]:
// its credentials masked (the API token never, the account id shortened).
type ConnectionView struct {
	ID             string            `json:"id"`
	OrganizationID string            `json:"organizationId"`
	ProjectID      string            `json:"projectId,omitempty"`
	Scope          string            `json:"scope"`
	Provider       string            `json:"provider"`
	Name           string            `json:"name"`
	AccountID      string            `json:"accountId"`
	Credentials    map[string]string `json:"credentials"`
	Plan           string            `json:"plan"`
	Limits         *PlanLimits       `json:"limits,omitempty"`
	CreatedAt      time.Time         `json:"createdAt"`
	UpdatedAt      time.Time         `json:"updatedAt"`
}

// VersionSummary is a version as the versions routes list and change it
// [Version]. Summaries leave ir and code out.
type VersionSummary struct {
	ID         string          `json:"id"`
	WorkflowID string          `json:"workflowId"`
	Version    int             `json:"version"`
	Locked     bool            `json:"locked"`
	NodeTypes  []string        `json:"nodeTypes"`
	CreatedBy  string          `json:"createdBy,omitempty"`
	CreatedAt  time.Time       `json:"createdAt"`
	IR         json.RawMessage `json:"ir,omitempty"`
	Code       *string         `json:"code,omitempty"`
	// Warnings are what a submit found that does not refuse the version
	// (a run that can exceed a plan's steps, a loop without a bound); only
	// the submit's answer has them.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Warning is one thing a check found that does not refuse the request: the
// JSON pointer it concerns, the node it names ("" for none) and what it is.
type Warning struct {
	Path    string `json:"path"`
	NodeID  string `json:"nodeId,omitempty"`
	Message string `json:"message"`
}

// VersionDetail is one version read by its id, which always has its IR and
// generated code: its ir and code hide the summary's optional ones.
type VersionDetail struct {
	VersionSummary
	IR   json.RawMessage `json:"ir"`
	Code string          `json:"code"`
}

// WorkflowFull is a workflow with its current version (or the one asked
// for), summaries of its versions, highest first, and its active deployment
// (null when not deployed).
type WorkflowFull struct {
	Workflow         Workflow    `json:"workflow"`
	CurrentVersion   *Version    `json:"currentVersion"`
	Versions         []Version   `json:"versions"`
	ActiveDeployment *Deployment `json:"activeDeployment"`
}

// IRProblem is one problem of an IR as the IR endpoints report it: a
// problem of ir.Validate, or one a version submit finds after it. Field,
// Line and Column locate a syntax error inside a code field's text.
type IRProblem struct {
	NodeID  string `json:"nodeId,omitempty"`
	Path    string `json:"path"`
	Message string `json:"message"`
	Rule    string `json:"rule"`
	Field   string `json:"field,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
}

// IRValidation is the answer of POST /api/ir/validate; Errors is empty,
// never null, for a valid IR.
type IRValidation struct {
	Valid  bool        `json:"valid"`
	Errors []IRProblem `json:"errors"`
}

// TriggerResult is the answer of a trigger: the run created (Status queued)
// or, for an event, the run it reached (EventType set).
type TriggerResult struct {
	ID         string `json:"id"`
	InstanceID string `json:"instanceId"`
	Status     string `json:"status"`
	// StatusDetail is "held" for a run queued by flow control.
	StatusDetail string `json:"statusDetail,omitempty"`
	EventType    string `json:"eventType,omitempty"`
}

// BatchTriggerResult answers a batch trigger: the runs created and the
// entries refused, each by its index in the request.
type BatchTriggerResult struct {
	Created []BatchCreated `json:"created"`
	Errors  []BatchError   `json:"errors"`
}

// BatchCreated is one run a batch trigger created.
type BatchCreated struct {
	Index      int    `json:"index"`
	ID         string `json:"id"`
	InstanceID string `json:"instanceId"`
	// StatusDetail is "held" for a run the workflow's flow control queued
	// (the batch said queue: true); it has no instance yet.
	StatusDetail string `json:"statusDetail,omitempty"`
}

// BatchError is one entry of a batch trigger that created no run: its
// index, an error code (validation_failed, payload_too_large, conflict,
// rate_limited, provider_error, provider_unavailable) and a message; for
// rate_limited, RetryAfter is the seconds to wait before trying it again.
type BatchError struct {
	Index      int    `json:"index"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	RetryAfter int    `json:"retryAfter,omitempty"`
}

// Estimate is what a month of runs of a version costs under per-step
// pricing (docs/deploy.md, "Cost estimate"): the steps of one run (work:
// step.do calls; billed: with sleeps and waits), the month's figures on
// the most billed steps a run takes (the fewest when a loop has no bound)
// and the pricing's date and source.
type Estimate struct {
	VersionID         string        `json:"versionId"`
	Plan              string        `json:"plan"`
	RunsPerMonth      int64         `json:"runsPerMonth"`
	StepsPerRun       StepRange     `json:"stepsPerRun"`
	BilledStepsPerRun StepRange     `json:"billedStepsPerRun"`
	Monthly           MonthlyCost   `json:"monthly"`
	Pricing           PricingSource `json:"pricing"`
	Warnings          []Warning     `json:"warnings"`
}

// StepRange is the fewest and most steps of a run; Max is null when a loop
// without a bound makes it unknown.
type StepRange struct {
	Min int64  `json:"min"`
	Max *int64 `json:"max"`
}

// MonthlyCost is a month's steps: all of them, those the plan includes,
// those past them (on Free: the steps it would not run) and their price in
// US dollars.
type MonthlyCost struct {
	Steps    int64   `json:"steps"`
	Included int64   `json:"included"`
	Billable int64   `json:"billable"`
	USD      float64 `json:"usd"`
}

// PricingSource is when the pricing was read and from where.
type PricingSource struct {
	Date   string `json:"date"`
	Source string `json:"source"`
}

// TestResult is what a test run of a version did.
type TestResult struct {
	Status string `json:"status"`
	// Output is the run's output (null when it has none).
	Output json.RawMessage `json:"output"`
	// Error is the run's error, null when it completed.
	Error      *string       `json:"error"`
	Steps      []RunStep     `json:"steps"`
	Logs       []TestLogLine `json:"logs"`
	DurationMs int64         `json:"durationMs"`
	// Pinned are the nodes whose pinned output answered for their step
	// (their steps show as mocked), in the IR's order.
	Pinned []string `json:"pinned,omitempty"`
}

// TestLogLine is one line of console output or an exception of a test run.
type TestLogLine struct {
	Timestamp time.Time `json:"timestamp"`
	Level     string    `json:"level"`
	Message   string    `json:"message"`
}

// DeployProgress is one progress event of a deploy: the stage whose work
// starts, in words, and how far the deploy is (0 to 100).
type DeployProgress struct {
	Stage    string `json:"stage"`
	Message  string `json:"message"`
	Progress int    `json:"progress"`
}

// DeployResult is the answer of deploy and takedown and the data of
// deploy-stream's result event: the deployment with its url, plus
// AwaitStep's success and deploymentId fields.
type DeployResult struct {
	Deployment
	Success      bool   `json:"success"`
	DeploymentID string `json:"deploymentId"`
}
