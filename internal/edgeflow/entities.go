package edgeflow

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
)

// User is a person who signs in with email and password.
type User struct {
	ID           string    `json:"id"`
	Email        string    `json:"email"`
	Name         string    `json:"name,omitempty"`
	PasswordHash []byte    `json:"-"`
	CreatedAt    time.Time `json:"createdAt"`
}

// SignInFailures counts the failed sign-ins for one email since its last
// successful sign-in (the sign-in back-off).
type SignInFailures struct {
	Count        int
	LastFailedAt time.Time
}

// SignInBackOff is the policy of the sign-in back-off (docs/decisions.md 85
// and 343): after FreeFailures failed sign-ins for one email, each further
// attempt waits Delay(count) after the last one; failures older than
// ForgetAfter are forgotten.
type SignInBackOff struct {
	FreeFailures int
	BaseDelay    time.Duration
	MaxDelay     time.Duration
	ForgetAfter  time.Duration
}

// Delay is how long after its last failure a key with count failures is
// refused: 0 below FreeFailures, then BaseDelay doubling with each failure
// up to MaxDelay.
func (b SignInBackOff) Delay(count int) time.Duration {
	if count < b.FreeFailures {
		return 0
	}
	d := b.BaseDelay
	for i := b.FreeFailures; i < count && d < b.MaxDelay; i++ {
		d *= 2
	}
	return min(d, b.MaxDelay)
}

// Session is a signed-in browser session. Only the SHA-256 of its token is
// stored. ActiveOrganizationID and ActiveProjectID select the tenant of
// requests that do not override them.
type Session struct {
	ID                   string     `json:"id"`
	UserID               string     `json:"userId"`
	TokenHash            []byte     `json:"-"`
	CSRFToken            string     `json:"-"`
	ActiveOrganizationID string     `json:"activeOrganizationId,omitempty"`
	ActiveProjectID      string     `json:"activeProjectId,omitempty"`
	CreatedAt            time.Time  `json:"createdAt"`
	ExpiresAt            time.Time  `json:"expiresAt"`
	RevokedAt            *time.Time `json:"-"`
	// LastSeenAt is the last request made with the session, recorded at
	// most once a minute; nil until the first one after sign-in.
	LastSeenAt *time.Time `json:"lastSeenAt"`
	// UserAgent and IP are those of the sign-in request (the user agent cut
	// to 256 bytes; the client address as the server saw it).
	UserAgent string `json:"userAgent"`
	IP        string `json:"ip"`
}

// AuditActor is who made an audited request: a signed-in user (type
// "user") or an API key (type "key"); the zero value is an anonymous caller.
type AuditActor struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// AuditTarget is the record an audited request acted on; ID is "" when the
// request named none (for example a refused create).
type AuditTarget struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// AuditEntry is one state-changing request, allowed or refused. It never
// holds a request body.
type AuditEntry struct {
	ID             string      `json:"id"`
	OrganizationID string      `json:"organizationId"`
	ProjectID      string      `json:"projectId"`
	Actor          AuditActor  `json:"actor"`
	Action         string      `json:"action"`
	Target         AuditTarget `json:"target"`
	// Outcome is the HTTP status of the answer.
	Outcome   int       `json:"outcome"`
	RequestID string    `json:"requestId"`
	Time      time.Time `json:"time"`
	// Details says more of what was done, for the entries that carry it
	// (run.bulk: the filter and the counts); absent otherwise.
	Details json.RawMessage `json:"details,omitempty" tstype:"unknown"`
}

// AuditFilter narrows ListAudit; zero fields match everything. Since is
// inclusive, Until exclusive.
type AuditFilter struct {
	// ProjectID keeps the entries recorded in that project and the
	// organization's entries whose target is the project itself (its
	// rename, say, by a member working in another project): what a
	// project's API key may read.
	ProjectID string
	ActorID   string
	Action    string
	TargetID  string
	Since     time.Time
	Until     time.Time
}

// Role is a member's role in an organization.
type Role string

// Roles of organization members.
const (
	RoleOwner  Role = "owner"
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
	RoleViewer Role = "viewer"
)

// Rank orders the roles: viewer 1, member 2, admin 3, owner 4; 0 for an
// unknown role. A role includes every right of the roles ranked below it.
func (r Role) Rank() int {
	switch r {
	case RoleViewer:
		return 1
	case RoleMember:
		return 2
	case RoleAdmin:
		return 3
	case RoleOwner:
		return 4
	}
	return 0
}

// AtLeast reports whether r includes the rights of min.
func (r Role) AtLeast(min Role) bool { return r.Rank() > 0 && r.Rank() >= min.Rank() }

// Member is a member of an organization with the user's public fields.
type Member struct {
	UserID    string    `json:"userId"`
	Email     string    `json:"email"`
	Name      string    `json:"name"`
	Role      Role      `json:"role"`
	CreatedAt time.Time `json:"createdAt"`
}

// Invitation invites an email address to join an organization with a role.
// Only the SHA-256 of its token is stored.
type Invitation struct {
	ID             string     `json:"id"`
	OrganizationID string     `json:"organizationId"`
	Email          string     `json:"email"`
	Role           Role       `json:"role"`
	TokenHash      []byte     `json:"-"`
	InvitedBy      string     `json:"invitedBy"`
	CreatedAt      time.Time  `json:"createdAt"`
	ExpiresAt      time.Time  `json:"expiresAt"`
	AcceptedAt     *time.Time `json:"acceptedAt"`
	AcceptedBy     string     `json:"acceptedBy"`
	RevokedAt      *time.Time `json:"revokedAt"`
}

// Status of an invitation at now: "pending", "accepted", "revoked" or
// "expired".
func (i *Invitation) Status(now time.Time) string {
	switch {
	case i.AcceptedAt != nil:
		return "accepted"
	case i.RevokedAt != nil:
		return "revoked"
	case !now.Before(i.ExpiresAt):
		return "expired"
	}
	return "pending"
}

// Organization groups members and projects.
type Organization struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Slug      string    `json:"slug"`
	CreatedAt time.Time `json:"createdAt"`
}

// Membership is a user's role in one organization.
type Membership struct {
	OrganizationID string    `json:"organizationId"`
	UserID         string    `json:"userId"`
	Role           Role      `json:"role"`
	CreatedAt      time.Time `json:"createdAt"`
}

// OrganizationMembership is an organization seen by one of its members.
type OrganizationMembership struct {
	Organization
	Role Role `json:"role"`
}

// Project belongs to an organization and holds workflows.
type Project struct {
	ID             string    `json:"id"`
	OrganizationID string    `json:"organizationId"`
	Name           string    `json:"name"`
	Slug           string    `json:"slug"`
	Description    string    `json:"description"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

// Environment is a named place a project deploys to (production, staging,
// …), bound to one of the connections the project may use (ConnectionID ""
// until set). A protected environment takes deploys, promotions and
// rollbacks from admins and owners only (docs/environments.md).
type Environment struct {
	ProjectID    string    `json:"projectId"`
	Name         string    `json:"name"`
	ConnectionID string    `json:"connectionId"`
	Protected    bool      `json:"protected"`
	CreatedAt    time.Time `json:"createdAt"`
	UpdatedAt    time.Time `json:"updatedAt"`
}

// DefaultEnvironment is the environment every project has from its
// creation; deployments to it keep the workflow's base names.
const DefaultEnvironment = "production"

// MaxEnvironments is the most environments a project may have.
const MaxEnvironments = 20

// Scope is an API key permission.
type Scope string

// API key scopes.
const (
	ScopeRead   Scope = "read"
	ScopeWrite  Scope = "write"
	ScopeDeploy Scope = "deploy"
)

// APIKey is bound to one project, or (ProjectID "") to the whole
// organization. Only the SHA-256 of the key is stored, with
// an 8-character display prefix.
type APIKey struct {
	ID             string     `json:"id"`
	OrganizationID string     `json:"organizationId"`
	ProjectID      string     `json:"projectId"`
	UserID         string     `json:"userId"`
	Name           string     `json:"name"`
	Prefix         string     `json:"prefix"`
	Hash           []byte     `json:"-"`
	Scopes         []Scope    `json:"scopes"`
	ExpiresAt      *time.Time `json:"expiresAt"`
	LastUsedAt     *time.Time `json:"lastUsedAt"`
	RevokedAt      *time.Time `json:"revokedAt"`
	CreatedAt      time.Time  `json:"createdAt"`
}

// Kind of an artifact.
const (
	KindWorkflow = "workflow"
	KindScript   = "script"
)

// WorkflowEnvVar is a variable set on one workflow. For secrets, Value holds
// the sealed ciphertext (internal/secret), never the plain value.
type WorkflowEnvVar struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	IsSecret bool   `json:"isSecret"`
	// Values holds the variable's value per environment (by environment
	// name), each sealed like Value for a secret; a deploy to an
	// environment without an entry takes Value (docs/environments.md).
	Values map[string]string `json:"values,omitempty"`
	// OnlyEnvironments marks a variable that has no default: environments
	// without an entry in Values lack it.
	OnlyEnvironments bool `json:"onlyEnvironments,omitempty"`
}

// Route is a custom route for a deployed worker.
type Route struct {
	Pattern  string `json:"pattern"`
	ZoneName string `json:"zoneName"`
}

// DeployConfig holds deploy-time settings of a workflow. PublicTrigger lets
// outside callers create instances of a deployed workflow with requests
// signed by the deployment's trigger secret (docs/deploy.md).
type DeployConfig struct {
	Route         *Route `json:"route,omitempty"`
	PublicTrigger bool   `json:"publicTrigger,omitempty"`
	// Retention is how long the provider keeps the Workflow's finished
	// instances (its default retention); nil leaves the provider's.
	Retention *Retention `json:"retention,omitempty"`
	// Concurrency is the most runs of the workflow running at once on a
	// connection (0: no limit); RateLimit bounds how many start per period.
	// edgeflow's trigger path enforces both (docs/deploy.md, "Flow control").
	Concurrency int        `json:"concurrency,omitempty"`
	RateLimit   *RateLimit `json:"rateLimit,omitempty"`
}

// RateLimit is at most Limit run starts per Period (a duration such as
// "1 minute", or seconds as text) for the workflow, or for each value of
// Key, an expression over the trigger params ("{{event.payload.customerId}}").
type RateLimit struct {
	Limit  int    `json:"limit"`
	Period string `json:"period"`
	Key    string `json:"key,omitempty"`
}

// Retention is how long finished instances are kept: Success for complete
// ones, Error for errored and terminated ones, each a duration ("7 days",
// or a number of seconds as text); "" leaves the provider's default.
type Retention struct {
	Success string `json:"success,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Workflow is a workflow or a function (Kind "script"). CurrentVersionID is the
// newest submitted version; ActiveVersionID the deployed one ("" when not
// deployed).
type Workflow struct {
	ID               string            `json:"id"`
	OrganizationID   string            `json:"organizationId"`
	ProjectID        string            `json:"projectId"`
	Name             string            `json:"name"`
	Description      string            `json:"description"`
	Kind             string            `json:"kind"`
	EnvVars          []WorkflowEnvVar  `json:"envVars"`
	TriggerCode      string            `json:"triggerCode"`
	Dependencies     map[string]string `json:"dependencies"`
	DeployConfig     *DeployConfig     `json:"deployConfig"`
	CurrentVersionID string            `json:"currentVersionId"`
	ActiveVersionID  string            `json:"activeVersionId"`
	CreatedAt        time.Time         `json:"createdAt"`
	UpdatedAt        time.Time         `json:"updatedAt"`
}

// Version is one submitted IR of a workflow with its generated code. Number is
// assigned by the store (previous + 1, never reused). NodeTypes lists the
// marketplace node references ("<nodeId>@<version>") the IR uses.
type Version struct {
	ID         string          `json:"id"`
	WorkflowID string          `json:"workflowId"`
	Number     int             `json:"version"`
	IR         json.RawMessage `json:"ir,omitempty"`
	Code       string          `json:"code,omitempty"`
	Locked     bool            `json:"locked"`
	NodeTypes  []string        `json:"-"`
	CreatedBy  string          `json:"createdBy,omitempty"`
	CreatedAt  time.Time       `json:"createdAt"`
}

// Deployment states.
const (
	DeploymentActive   = "active"   // serving; at most one per (workflow, connection)
	DeploymentReplaced = "replaced" // superseded by a later deploy
	DeploymentRemoved  = "removed"  // taken down
	// DeploymentRetired: a replaced deployment whose worker and Workflow
	// were deleted once no run of it was in flight, or whose names a later
	// deployment took over (docs/releases.md).
	DeploymentRetired = "retired"
)

// Deployment states as GET /api/workflows/:id/deployments shows them
// (Deployment.State): the status, with a replaced deployment that still
// serves runs in flight shown as draining.
const (
	DeploymentStateActive   = "active"
	DeploymentStateDraining = "draining"
	DeploymentStateRetired  = "retired"
	DeploymentStateRemoved  = "removed"
)

// RunsInFlight counts the runs of a workflow that are not final on one
// connection, of one version, on one provider Workflow.
type RunsInFlight struct {
	ConnectionID string
	VersionID    string
	WorkflowName string
	Count        int
}

// Deployment links a workflow version to a connection. A workflow's
// deployment holds its worker token and, when its public trigger is enabled,
// the trigger's signing secret, both sealed (internal/secret) and never
// shown in JSON.
type Deployment struct {
	ID           string     `json:"id"`
	WorkflowID   string     `json:"workflowId"`
	ProjectID    string     `json:"projectId"`
	VersionID    string     `json:"versionId"`
	ConnectionID string     `json:"connectionId"`
	Status       string     `json:"status"`
	URL          string     `json:"url"`
	ScriptName   string     `json:"scriptName"`
	WorkflowName string     `json:"workflowName,omitempty"`
	CreatedBy    string     `json:"createdBy,omitempty"`
	CreatedAt    time.Time  `json:"createdAt"`
	RemovedAt    *time.Time `json:"removedAt,omitempty"`
	// Environment is the project environment the connection was bound to
	// when the deployment was made ("" when none was).
	Environment string `json:"environment,omitempty"`
	// SealedWorkerToken is the sealed token callers of the worker send
	// (docs/deploy.md, "Who may call a deployed workflow"); "" for a
	// function.
	SealedWorkerToken string `json:"-"`
	// SealedTriggerSecret is the sealed signing secret of the public
	// trigger; "" when it is not enabled.
	SealedTriggerSecret string `json:"-"`
	// State is what the deployment is now (DeploymentState*), filled for
	// lists: active, draining (replaced, its worker still serving the
	// InFlight runs it runs), retired or removed.
	State string `json:"state,omitempty"`
	// InFlight counts the runs not final on the deployment's Workflow
	// (filled with State for active and draining deployments).
	InFlight *int `json:"inFlight,omitempty"`
	// VersionNumber is the number of VersionID (filled for lists; 0 when
	// the version was deleted).
	VersionNumber int `json:"versionNumber,omitempty"`
}

// Run states (docs/api.md, run statuses).
const (
	RunQueued     = "queued"
	RunRunning    = "running"
	RunPaused     = "paused"
	RunComplete   = "complete"
	RunErrored    = "errored"
	RunTerminated = "terminated"
)

// RunIsFinal reports whether status is complete, errored or terminated.
func RunIsFinal(status string) bool {
	return status == RunComplete || status == RunErrored || status == RunTerminated
}

// Run is one execution of a deployed workflow. StatusDetail keeps the
// finer state: sleeping, retrying or pausing while running; waiting (for an
// event) or paused (by hand) while paused; the provider's word for a status
// edgeflow does not know. Output, Error and
// Steps are kept after the provider forgets them.
type Run struct {
	ID           string `json:"id"`
	WorkflowID   string `json:"workflowId"`
	ProjectID    string `json:"projectId"`
	VersionID    string `json:"versionId"`
	ConnectionID string `json:"connectionId"`
	DeploymentID string `json:"deploymentId"`
	// Environment is the environment of the deployment the run started
	// on ("" when it had none).
	Environment  string          `json:"environment,omitempty"`
	WorkflowName string          `json:"-"`
	InstanceID   string          `json:"instanceId"`
	Status       string          `json:"status"`
	StatusDetail string          `json:"statusDetail,omitempty"`
	Params       json.RawMessage `json:"params,omitempty"`
	Output       json.RawMessage `json:"output,omitempty"`
	Error        string          `json:"error,omitempty"`
	// Steps is the instance's step list as the provider last reported it
	// (Cloudflare's shape), kept as it was read.
	Steps json.RawMessage `json:"-"`
	// StepDetail is Steps described per step, in execution order, with
	// the steps replayed from the original run first (filled by the run
	// service for a run's detail; nil in lists).
	StepDetail []RunStep `json:"steps,omitempty"`
	// Usage is the tokens the run's agent nodes spent, summed from the
	// outputs of their model calls ("agent <node> turn N" steps) that ran
	// in this run (nil when it has none; filled with StepDetail).
	Usage *TokenUsage `json:"usage,omitempty"`
	// RestartOf is the id of the run this run restarted ("" for a run
	// started by a trigger); FromStep the node id it restarted from ("" =
	// from the start).
	RestartOf string `json:"restartOf,omitempty"`
	FromStep  string `json:"fromStep,omitempty"`
	// ReplayOf is the id of the run this run replays with edited params
	// (POST …/replay; "" otherwise), and ParamsChanged whether its params
	// differ from that run's.
	ReplayOf      string `json:"replayOf,omitempty"`
	ParamsChanged bool   `json:"paramsChanged,omitempty"`
	// Replayed are the steps this restarted run took from the original run
	// without executing them, in the original's order.
	Replayed []ReplayedStep `json:"-"`
	// DeletedWorkflow is set on a run kept after its workflow was deleted
	// (DELETE /api/workflows/:id?runs=keep): the workflow's name and when
	// it was deleted. Nil while the workflow exists.
	DeletedWorkflow *DeletedWorkflow `json:"deletedWorkflow,omitempty"`
	CreatedAt       time.Time        `json:"createdAt"`
	StartedAt       *time.Time       `json:"startedAt"`
	EndedAt         *time.Time       `json:"endedAt"`
	UpdatedAt       time.Time        `json:"updatedAt"`
	NextRefreshAt   *time.Time       `json:"-"`
	RefreshFailures int              `json:"-"`
	// StateVersion counts the writes of the run's state; the refresher
	// writes only if it is unchanged since it read the run
	// (Store.UpdateRunIfUnchanged).
	StateVersion int64 `json:"-"`
	// Trace is the run's trace context when tracing was on at its trigger
	// (nil otherwise); TraceID is its trace id, and TraceURL the link to
	// the trace that EDGEFLOW_TRACE_URL_TEMPLATE makes of it
	// (docs/observability.md).
	Trace    *RunTrace `json:"-"`
	TraceID  string    `json:"traceId,omitempty"`
	TraceURL string    `json:"traceUrl,omitempty"`
}

// RunTrace is the trace context a run was triggered with, kept with the run
// so that whichever replica learns of a step's end emits its span into the
// same trace: the trace id, the run span's id, the span the run span is a
// child of (the trigger request's, or the caller's traceparent; "" for a
// root), whether the trace is sampled, the caller's tracestate, and the
// workflow's name when the run started (the run span's name).
type RunTrace struct {
	TraceID      string `json:"traceId"`
	SpanID       string `json:"spanId"`
	ParentSpanID string `json:"parentSpanId,omitempty"`
	Sampled      bool   `json:"sampled"`
	TraceState   string `json:"traceState,omitempty"`
	Name         string `json:"name,omitempty"`
}

// RunInstance names the provider instance of a deleted run: the
// connection (of the organization) and Workflow it ran on and its id, so
// that the instance can be deleted on the provider after the run.
type RunInstance struct {
	OrganizationID string
	ConnectionID   string
	WorkflowName   string
	InstanceID     string
}

// Step states of RunStep.State.
const (
	StepRunning  = "running"  // started, not finished
	StepRetrying = "retrying" // an attempt failed; waiting before the next one
	StepWaiting  = "waiting"  // a sleep or a wait for an event, not over yet
	StepComplete = "complete" // finished successfully
	StepErrored  = "errored"  // failed after its last attempt
	StepReplayed = "replayed" // taken from the original run by a restart, not executed
	// StepTerminated: not finished when the run was terminated.
	StepTerminated = "terminated"
	// StepRolledBack and StepRollbackFailed are the states of a rollback
	// (a step of type StepTypeRollback): its handler succeeded, or failed
	// after its last attempt.
	StepRolledBack     = "rolled_back"
	StepRollbackFailed = "rollback_failed"
)

// StepTypeRollback is the type of a run's step that undid a completed step
// (config.rollback of the IR), as the provider lists it after the run's
// other steps.
const StepTypeRollback = "rollback"

// RunStep is one durable step of a run as clients see it. NodeID is the IR
// node the step belongs to ("" when the step is not one of the version's
// nodes); Name is the step's name in the generated code (with " #i" inside
// loops). Output holds at most MaxStepOutput bytes of JSON: a longer output
// is cut to its first MaxStepOutput bytes, given as a JSON string, with
// OutputTruncated set.
type RunStep struct {
	NodeID          string          `json:"nodeId"`
	Name            string          `json:"name"`
	Type            string          `json:"type"`
	State           string          `json:"state"`
	Attempts        int             `json:"attempts"`
	StartedAt       *time.Time      `json:"startedAt"`
	EndedAt         *time.Time      `json:"endedAt"`
	Output          json.RawMessage `json:"output"`
	OutputTruncated bool            `json:"outputTruncated"`
	Error           *StepError      `json:"error"`
	// Sensitive is true for a step whose output its node marks sensitive:
	// Output is then "[REDACTED]" (docs/runs.md, "Sensitive outputs").
	Sensitive bool `json:"sensitive,omitempty"`
}

// RunUsage is the token usage of the runs a filter selects
// (Store.SumRunUsage), in all and per workflow.
type RunUsage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	// Runs is how many of the selected runs made model calls.
	Runs int64 `json:"runs"`
	// Workflows holds one entry per workflow with such runs, the most
	// tokens first.
	Workflows []WorkflowUsage `json:"workflows"`
	// Partial is true when more runs matched than a sum reads: the sums
	// cover the newest of them only.
	Partial bool `json:"partial"`
}

// WorkflowUsage is the token usage of one workflow's runs in a RunUsage.
type WorkflowUsage struct {
	WorkflowID   string `json:"workflowId"`
	WorkflowName string `json:"workflowName"`
	InputTokens  int64  `json:"inputTokens"`
	OutputTokens int64  `json:"outputTokens"`
	Runs         int64  `json:"runs"`
}

// TokenUsage counts the tokens of model calls.
type TokenUsage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
}

// MaxStepOutput is the largest step output shown in a run's detail (64 KiB).
const MaxStepOutput = 64 << 10

// StepError is the failure of a step's last attempt.
type StepError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// ReplayedStep is a step of the original run that a restarted run took
// without executing it: its node, its name in the original run, the name
// the restarted run's code knows it by, and its full output.
type ReplayedStep struct {
	NodeID       string          `json:"nodeId"`
	Name         string          `json:"name"`
	OriginalName string          `json:"originalName"`
	Type         string          `json:"type"`
	StartedAt    *time.Time      `json:"startedAt"`
	EndedAt      *time.Time      `json:"endedAt"`
	Attempts     int             `json:"attempts"`
	Output       json.RawMessage `json:"output"`
}

// SortRunsByDue orders runs by NextRefreshAt (none last), then ID: the
// order in which refreshes are due.
func SortRunsByDue(runs []Run) {
	slices.SortStableFunc(runs, func(a, b Run) int {
		switch {
		case a.NextRefreshAt == nil && b.NextRefreshAt != nil:
			return 1
		case a.NextRefreshAt != nil && b.NextRefreshAt == nil:
			return -1
		case a.NextRefreshAt != nil && !a.NextRefreshAt.Equal(*b.NextRefreshAt):
			return a.NextRefreshAt.Compare(*b.NextRefreshAt)
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// Connection providers.
const (
	ProviderCloudflare = "cloudflare"
	ProviderLocal      = "local"
)

// Connection is a stored credential set for an edge provider, in one
// organization: organization-wide (ProjectID "") or owned by one of its
// projects. SealedCredentials holds the AES-GCM sealed JSON credentials;
// AccountID is kept in clear for display.
type Connection struct {
	ID                string `json:"id"`
	OrganizationID    string `json:"organizationId"`
	ProjectID         string `json:"projectId,omitempty"`
	Provider          string `json:"provider"`
	Name              string `json:"name"`
	AccountID         string `json:"accountId"`
	SealedCredentials []byte `json:"-"`
	// Plan is the account's Workflows plan, PlanFree or PlanPaid ("" is
	// PlanPaid); Limits the account's own limits where they differ from
	// the plan's (docs/deploy.md, "Plan limits").
	Plan      string      `json:"plan"`
	Limits    *PlanLimits `json:"limits,omitempty"`
	CreatedAt time.Time   `json:"createdAt"`
	UpdatedAt time.Time   `json:"updatedAt"`
}

// Plans of a connection's account.
const (
	PlanFree = "free"
	PlanPaid = "paid"
)

// PlanLimits are a connection's own limits: the steps an instance may take
// and the CPU milliseconds of a step; 0 keeps the plan's default.
type PlanLimits struct {
	Steps int `json:"steps,omitempty"`
	CPUMs int `json:"cpuMs,omitempty"`
}

// EnvVar is a global environment variable of an organization (ProjectID "")
// or of one project. For secrets Value holds the sealed ciphertext.
type EnvVar struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	ProjectID      string `json:"projectId,omitempty"`
	Name           string `json:"name"`
	Value          string `json:"value"`
	IsSecret       bool   `json:"isSecret"`
	// Values and OnlyEnvironments are as in WorkflowEnvVar: the value per
	// environment, and whether environments without one lack the variable.
	Values           map[string]string `json:"values,omitempty"`
	OnlyEnvironments bool              `json:"onlyEnvironments,omitempty"`
	CreatedAt        time.Time         `json:"createdAt"`
	UpdatedAt        time.Time         `json:"updatedAt"`
}

// InstalledNode is a marketplace node installed in an organization at one
// version, with a snapshot of that version's definition and template.
type InstalledNode struct {
	ID             string          `json:"id"`
	OrganizationID string          `json:"organizationId"`
	NodeID         string          `json:"nodeId"`
	Version        string          `json:"version"`
	Definition     json.RawMessage `json:"-"`
	Template       string          `json:"-"`
	Checksum       string          `json:"checksum"`
	InstalledBy    string          `json:"installedBy,omitempty"`
	InstalledAt    time.Time       `json:"installedAt"`
	UpdatedAt      time.Time       `json:"updatedAt"`
}

// ListOptions selects one page of a list. Cursor is opaque (from a previous
// page's NextCursor); Limit is 1..100 (0 means the default, 50).
type ListOptions struct {
	Cursor string
	Limit  int
}

// Page is one page of a list; NextCursor is "" on the last page.
type Page[T any] struct {
	Items      []T
	NextCursor string
}

// DeletedWorkflow is what stays of a workflow deleted with its runs kept.
type DeletedWorkflow struct {
	ID        string    `json:"-"`
	ProjectID string    `json:"-"`
	Name      string    `json:"name"`
	DeletedAt time.Time `json:"deletedAt"`
}

// RunFilter selects runs. ProjectID is required; the others narrow.
type RunFilter struct {
	ProjectID  string
	WorkflowID string
	Status     string
	VersionID  string
	// From (inclusive) and To (exclusive) bound CreatedAt; nil: unbounded.
	From, To *time.Time
	// Query keeps runs whose params, output, error and step words
	// (sqlstore.StepWords: step outputs and received event payloads) hold
	// every word of it (letters and digits; case-insensitive); "" keeps all.
	Query string
	// Environment keeps the runs recorded in that environment.
	Environment string
}

// DeploymentFilter selects deployments. ProjectID is required.
type DeploymentFilter struct {
	ProjectID  string
	WorkflowID string
}

// SealedSamples holds one record of each kind that carries a value sealed
// with the secret key (Store.SealedSamples); a nil field means the database
// holds no such value.
type SealedSamples struct {
	// Connection has non-empty SealedCredentials.
	Connection *Connection
	// EnvVar is a secret variable (Value is sealed).
	EnvVar *EnvVar
	// Workflow has at least one secret variable in EnvVars.
	Workflow *Workflow
	// Deployment has a SealedWorkerToken or a SealedTriggerSecret.
	Deployment *Deployment
	// Webhook is a webhook (every webhook's secret is sealed).
	Webhook *Webhook
}

// LogLine is one line of a run's or a worker's logs: a console line or an
// uncaught exception (level "error").
type LogLine struct {
	Timestamp time.Time `json:"timestamp"`
	Level     string    `json:"level"`
	Message   string    `json:"message"`
}

// RunLogs are the logs kept with a run (docs/runs.md): its lines, oldest
// first, and how many older lines were left out to keep within
// MaxRunLogLines and MaxRunLogBytes.
type RunLogs struct {
	Lines   []LogLine
	Dropped int
}

// Limits of the logs kept with a run.
const (
	MaxRunLogLines = 1000
	MaxRunLogBytes = 256 << 10
)
