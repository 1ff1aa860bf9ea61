package edgeflow

import (
	"context"
	"encoding/json"
	"time"
)

// Store is the persistence of the service. internal/sqlite and
// internal/postgres implement it and internal/storetest checks both against
// the same cases.
//
// Conventions every implementation keeps:
//   - Find* methods return an *Error with ENotFound (never nil, nil) for an
//     unknown record or one outside the given tenant.
//   - Create* methods set ID (when empty, see NewID), CreatedAt and UpdatedAt
//     on the passed record; Update* methods set UpdatedAt.
//   - Uniqueness violations return EConflict; an invalid cursor returns
//     EInvalid with path "/cursor".
//   - List* methods return newest first unless stated otherwise, with a
//     stable opaque cursor; Limit 0 means 50, above 100 is capped to 100.
//   - Times are stored and returned in UTC.
type Store interface {
	// Ping checks that the database answers (GET /readyz).
	Ping(ctx context.Context) error
	// FaultClassifier tells errors meaning "the database cannot be reached"
	// (answered 503 unavailable) from others.
	FaultClassifier
	// SealedSamples returns one stored value of each kind that is sealed
	// with the secret key, when the database holds one, so that serve can
	// check at start that its key opens them (nil fields: none stored).
	SealedSamples(ctx context.Context) (SealedSamples, error)
	// Close releases the database.
	Close() error

	// CreateUser stores a user; a taken email (case-insensitive) is EConflict.
	CreateUser(ctx context.Context, u *User) error
	FindUserByID(ctx context.Context, id string) (*User, error)
	// FindUserByEmail matches the email case-insensitively.
	FindUserByEmail(ctx context.Context, email string) (*User, error)

	CreateSession(ctx context.Context, s *Session) error
	// FindSessionByTokenHash returns a session that is neither revoked nor
	// expired at now; otherwise ENotFound.
	FindSessionByTokenHash(ctx context.Context, hash []byte, now time.Time) (*Session, error)
	// SetSessionActive changes the active organization and project.
	SetSessionActive(ctx context.Context, sessionID, organizationID, projectID string) error
	RevokeSession(ctx context.Context, sessionID string, at time.Time) error
	// PurgeSessions deletes the sessions that can no longer be used at now
	// (expired, or revoked) and returns how many it deleted.
	PurgeSessions(ctx context.Context, now time.Time) (int, error)
	// ListSessionsForUser lists the user's sessions that are neither
	// revoked nor expired at now, newest first.
	ListSessionsForUser(ctx context.Context, userID string, now time.Time, opts ListOptions) (Page[Session], error)
	// TouchSession records a use of the session at at.
	TouchSession(ctx context.Context, sessionID string, at time.Time) error
	// RevokeUserSession revokes the user's live session at at; ENotFound
	// for a session of another user, unknown, revoked or expired.
	RevokeUserSession(ctx context.Context, userID, sessionID string, at time.Time) error
	// SetPassword stores the user's new password hash and revokes, in the
	// same transaction, every live session of the user except keepSessionID
	// ("" revokes all); ENotFound for an unknown user.
	SetPassword(ctx context.Context, userID string, hash []byte, keepSessionID string, at time.Time) error

	// RecordAudit stores audit entries (ids and times set when empty) in one
	// transaction.
	RecordAudit(ctx context.Context, entries []AuditEntry) error
	// ListAudit lists the organization's audit entries matching f, newest
	// first.
	ListAudit(ctx context.Context, organizationID string, f AuditFilter, opts ListOptions) (Page[AuditEntry], error)
	// PurgeAudit deletes the entries older than before.
	PurgeAudit(ctx context.Context, before time.Time) (int, error)

	// CreateOrganization stores the organization and makes ownerUserID its
	// owner, in one transaction. A taken slug is EConflict.
	CreateOrganization(ctx context.Context, o *Organization, ownerUserID string) error
	FindOrganizationByID(ctx context.Context, id string) (*Organization, error)
	// ListOrganizationsForUser lists the user's organizations, oldest first.
	ListOrganizationsForUser(ctx context.Context, userID string) ([]OrganizationMembership, error)
	// FindMembership returns ENotFound when the user is not a member.
	FindMembership(ctx context.Context, organizationID, userID string) (*Membership, error)
	// AddMember adds or changes a member's role.
	AddMember(ctx context.Context, m *Membership) error
	// UpdateOrganization changes the name and refreshes o; ENotFound for
	// an unknown organization.
	UpdateOrganization(ctx context.Context, o *Organization) error
	// DeleteOrganization deletes the organization with everything it
	// holds; EConflict (Details [{deploymentId}]) while one of its
	// deployments is active.
	DeleteOrganization(ctx context.Context, id string) error
	// ListMembers lists the organization's members, oldest membership first.
	ListMembers(ctx context.Context, organizationID string, opts ListOptions) (Page[Member], error)
	// SetMemberRole changes a member's role; EConflict when it would leave
	// the organization without an owner, ENotFound for a non-member.
	SetMemberRole(ctx context.Context, organizationID, userID string, role Role) error
	// RemoveMember removes a member and revokes their API keys of the
	// organization at at; EConflict for the last owner.
	RemoveMember(ctx context.Context, organizationID, userID string, at time.Time) error
	// TransferOwnership makes toUserID the owner and fromUserID (the owner)
	// an admin, in one transaction.
	TransferOwnership(ctx context.Context, organizationID, fromUserID, toUserID string) error

	// CountUsers returns the number of users.
	CountUsers(ctx context.Context) (int, error)
	// CreateSetupToken stores the hash of a setup token valid until
	// expiresAt; EConflict once a user exists.
	CreateSetupToken(ctx context.Context, hash []byte, expiresAt time.Time) error
	// UseSetupToken consumes a setup token that is valid at now while no
	// user exists, and drops every other setup token; ENotFound otherwise.
	UseSetupToken(ctx context.Context, hash []byte, now time.Time) error

	// CreateInvitation stores an invitation (ID, CreatedAt set).
	CreateInvitation(ctx context.Context, inv *Invitation) error
	// ListInvitations lists the organization's invitations, newest first.
	ListInvitations(ctx context.Context, organizationID string, opts ListOptions) (Page[Invitation], error)
	// FindInvitationByTokenHash returns the invitation whatever its state.
	FindInvitationByTokenHash(ctx context.Context, hash []byte) (*Invitation, error)
	// RevokeInvitation revokes a pending invitation; EConflict once accepted.
	RevokeInvitation(ctx context.Context, organizationID, id string, at time.Time) error
	// AcceptInvitation makes userID a member with the invitation's role and
	// marks it accepted, in one transaction; EConflict when it is not
	// pending at at or the user is a member already.
	AcceptInvitation(ctx context.Context, id, userID string, at time.Time) (*Membership, error)

	// CreateProject stores a project; a slug taken in the organization is EConflict.
	CreateProject(ctx context.Context, p *Project) error
	FindProjectByID(ctx context.Context, organizationID, id string) (*Project, error)
	// FindProjectBySlug is used by bootstrap to reuse a project.
	FindProjectBySlug(ctx context.Context, organizationID, slug string) (*Project, error)
	// ListProjects lists an organization's projects, oldest first.
	ListProjects(ctx context.Context, organizationID string, opts ListOptions) (Page[Project], error)
	// UpdateProject changes name and description (the slug never changes).
	UpdateProject(ctx context.Context, p *Project) error
	// DeleteProject refuses (EConflict) while the project holds workflows.
	DeleteProject(ctx context.Context, organizationID, id string) error

	CreateAPIKey(ctx context.Context, k *APIKey) error
	// FindAPIKeyByHash returns the key whatever its state; callers check
	// RevokedAt and ExpiresAt.
	FindAPIKeyByHash(ctx context.Context, hash []byte) (*APIKey, error)
	ListAPIKeys(ctx context.Context, organizationID string, opts ListOptions) (Page[APIKey], error)
	// FindAPIKeyByID returns the organization's key whatever its state.
	FindAPIKeyByID(ctx context.Context, organizationID, id string) (*APIKey, error)
	// ListAPIKeysOfUser lists the keys the user created in the
	// organization, newest first.
	ListAPIKeysOfUser(ctx context.Context, organizationID, userID string, opts ListOptions) (Page[APIKey], error)
	RevokeAPIKey(ctx context.Context, organizationID, id string, at time.Time) error
	// TouchAPIKey records a use; implementations may coalesce frequent calls.
	TouchAPIKey(ctx context.Context, id string, at time.Time) error

	CreateWorkflow(ctx context.Context, w *Workflow) error
	FindWorkflowByID(ctx context.Context, projectID, id string) (*Workflow, error)
	ListWorkflows(ctx context.Context, projectID string, opts ListOptions) (Page[Workflow], error)
	// UpdateWorkflow writes name, description, envVars, triggerCode,
	// dependencies and deployConfig.
	UpdateWorkflow(ctx context.Context, w *Workflow) error
	// MoveWorkflow moves a workflow (and its runs and deployments) to another
	// project of the same organization.
	MoveWorkflow(ctx context.Context, fromProjectID, id, toProjectID string) error
	// DeleteWorkflow deletes the workflow with its versions, deployments and
	// runs (with their steps and outputs), in one transaction.
	DeleteWorkflow(ctx context.Context, projectID, id string) error
	// DeleteWorkflowKeepingRuns deletes the workflow with its versions and
	// deployments and keeps its runs: it records the workflow's name as a
	// DeletedWorkflow (found on the kept runs) and ends the runs that are
	// not final as terminated, since nothing runs them any more.
	DeleteWorkflowKeepingRuns(ctx context.Context, projectID, id string) error
	// FindDeletedWorkflow returns the project's workflow deleted with its
	// runs kept, or ENotFound.
	FindDeletedWorkflow(ctx context.Context, projectID, id string) (*DeletedWorkflow, error)

	// CreateVersion assigns Number = previous highest + 1 (numbers are never
	// reused) and makes the version the workflow's current one, atomically.
	// It is SubmitVersion with a version that does not depend on its number.
	CreateVersion(ctx context.Context, v *Version) error
	// SubmitVersion stores the workflow's next version. Inside one write
	// transaction it takes the next number from the workflow's counter,
	// holding the workflow row's write lock until the commit, calls build
	// with that number, stores the version build returns with that number
	// and a new ID (build's ID, WorkflowID, Number and CreatedAt are
	// overwritten) and makes it the workflow's current version. Submissions
	// to one workflow through any number of stores on one database wait for
	// each other; numbers are contiguous: an error from build or from the
	// write rolls the number back, so only deleted versions leave gaps.
	// build runs with the lock held: it must be quick, must not use the
	// store and may be called again if the store retries. ENotFound for an
	// unknown workflow.
	SubmitVersion(ctx context.Context, workflowID string, build func(number int) (*Version, error)) (*Version, error)
	// FindVersionByID returns the version with its IR and code.
	FindVersionByID(ctx context.Context, workflowID, id string) (*Version, error)
	// ListVersions returns summaries (IR and Code empty), highest number first.
	ListVersions(ctx context.Context, workflowID string, opts ListOptions) (Page[Version], error)
	SetVersionLocked(ctx context.Context, workflowID, id string, locked bool) error
	// DeleteVersion refuses with EConflict a locked version, the workflow's
	// current version, its active version and any version of an active
	// deployment.
	DeleteVersion(ctx context.Context, workflowID, id string) error

	// RecordDeployment stores d as the active deployment of (workflow,
	// connection), marks the previous one replaced and sets the workflow's
	// active version, in one transaction.
	RecordDeployment(ctx context.Context, d *Deployment) error
	// FindActiveDeployment returns the active deployment of the workflow on
	// the connection, or the newest active one when connectionID is "".
	FindActiveDeployment(ctx context.Context, workflowID, connectionID string) (*Deployment, error)
	ListDeployments(ctx context.Context, f DeploymentFilter, opts ListOptions) (Page[Deployment], error)
	// RemoveDeployment marks the active deployment of (workflow, connection)
	// removed and clears the workflow's active version when no active
	// deployment is left; ENotFound when nothing is deployed there.
	RemoveDeployment(ctx context.Context, workflowID, connectionID string, at time.Time) (*Deployment, error)
	// ListActiveDeployments returns every active deployment of every
	// tenant, oldest first, for background work (run discovery); never for
	// a client.
	ListActiveDeployments(ctx context.Context) ([]Deployment, error)
	// SetDeploymentSecrets replaces the sealed worker token and trigger
	// secret of the active deployment id (a redeploy of the same version
	// rotates them); ENotFound when no active deployment has that id.
	SetDeploymentSecrets(ctx context.Context, id, sealedWorkerToken, sealedTriggerSecret string) error
	// ListDrainingDeployments returns every replaced deployment not retired
	// yet, oldest first, for the retirer; never for a client.
	ListDrainingDeployments(ctx context.Context) ([]Deployment, error)
	// FindServingDeployment returns the newest active or replaced
	// deployment of the workflow on the connection whose Workflow is
	// workflowName (the one whose worker serves its instances), or ENotFound.
	FindServingDeployment(ctx context.Context, workflowID, connectionID, workflowName string) (*Deployment, error)
	// RetireDeployment marks the replaced deployment id retired at at;
	// ENotFound when no replaced deployment has that id.
	RetireDeployment(ctx context.Context, id string, at time.Time) error
	// CountRunsInFlight counts the workflow's runs not final, by
	// connection, version and Workflow name; connectionID "" for all.
	CountRunsInFlight(ctx context.Context, workflowID, connectionID string) ([]RunsInFlight, error)
	// ListWorkflowsUsingNode names the workflows of the organization whose
	// active deployment's version uses marketplace node nodeID.
	ListWorkflowsUsingNode(ctx context.Context, organizationID, nodeID string) ([]Workflow, error)

	CreateRun(ctx context.Context, r *Run) error
	// CreateRunLimited is CreateRun (status queued) when fewer than
	// concurrency runs of r's workflow on r's connection take a slot
	// (running, or queued and not held; concurrency <= 0: always), and
	// answers true; otherwise it stores r held (StatusDetail RunDetailHeld,
	// no refresh due) when hold is set, nothing when not, and answers
	// false. The count and the insert are atomic across replicas.
	CreateRunLimited(ctx context.Context, r *Run, concurrency int, hold bool) (bool, error)
	// AdmitHeldRun clears the held run r's statusDetail and makes its
	// refresh due at next when its workflow has room for it, as
	// CreateRunLimited counts; false when there is none or r is no longer
	// held.
	AdmitHeldRun(ctx context.Context, r *Run, concurrency int, next time.Time) (bool, error)
	// ListHeldGroups returns up to limit (100 when <= 0) of the (workflow,
	// connection) pairs that have held runs, the pair with the oldest held
	// run first.
	ListHeldGroups(ctx context.Context, limit int) ([]HeldGroup, error)
	// ListHeldRuns returns the held runs f selects, oldest first (by
	// creation time, then id).
	ListHeldRuns(ctx context.Context, f HeldRunsFilter) ([]Run, error)
	// CountAdmittedRuns counts the runs of the workflow on the connection
	// that take a slot, as CreateRunLimited counts them.
	CountAdmittedRuns(ctx context.Context, workflowID, connectionID string) (int, error)
	// DeleteRuns deletes the project's final runs (complete, errored,
	// terminated) among ids in one transaction and answers the deleted
	// ones' ids and provider instances; others are left.
	DeleteRuns(ctx context.Context, projectID string, ids []string) ([]string, []RunInstance, error)

	// CreateBulkJob stores a new bulk job (docs/runs.md, "Bulk actions").
	CreateBulkJob(ctx context.Context, j *BulkJob) error
	// FindBulkJob returns the project's bulk job; ENotFound otherwise.
	FindBulkJob(ctx context.Context, projectID, id string) (*BulkJob, error)
	// SaveBulkJobProgress writes Done, Failed, FailedCount, Next, State,
	// EndedAt and LeaseUntil of a running job; false when the stored job is
	// no longer running (cancelled: its counts are written, its state and
	// end kept).
	SaveBulkJobProgress(ctx context.Context, j *BulkJob) (bool, error)
	// CancelBulkJob moves the project's running job to cancelled and
	// answers it as stored; a job already ended is answered unchanged.
	CancelBulkJob(ctx context.Context, projectID, id string, now time.Time) (*BulkJob, error)
	// ClaimBulkJob takes one running job whose lease ended before now
	// (or that has none) and holds it until until; nil when none.
	ClaimBulkJob(ctx context.Context, now, until time.Time) (*BulkJob, error)
	// SentEventStore keeps the events sent by type (docs/runs.md, "Events").
	SentEventStore
	FindRunByID(ctx context.Context, workflowID, id string) (*Run, error)
	FindRunByInstanceID(ctx context.Context, workflowID, instanceID string) (*Run, error)
	// FindRunInProject returns the project's run, whether its workflow
	// exists or was deleted with its runs kept (then with DeletedWorkflow
	// set), or ENotFound.
	FindRunInProject(ctx context.Context, projectID, id string) (*Run, error)
	// ListRuns lists the project's runs newest first; runs of a workflow
	// deleted with its runs kept have DeletedWorkflow set.
	ListRuns(ctx context.Context, f RunFilter, opts ListOptions) (Page[Run], error)
	// SumRunUsage sums the token usage of the filter's runs that made
	// model calls, newest first up to limit runs (Partial when more
	// matched), in all and per workflow.
	SumRunUsage(ctx context.Context, f RunFilter, limit int) (RunUsage, error)
	// UpdateRun writes status, statusDetail, output, error, steps, startedAt,
	// endedAt, nextRefreshAt and refreshFailures, adds one to the stored
	// StateVersion and ends the run's refresh claim, whatever was written
	// since r was read.
	UpdateRun(ctx context.Context, r *Run) error
	// UpdateRunIfUnchanged is UpdateRun only while the stored StateVersion
	// is still r.StateVersion (compare-and-set): it answers false, writing
	// nothing and leaving r as it was, when another write came first.
	// ENotFound for an unknown run of the workflow.
	UpdateRunIfUnchanged(ctx context.Context, r *Run) (bool, error)
	// ClaimRunsForRefresh takes up to limit runs due for refresh (not
	// final, NextRefreshAt at or before now) that no refresher holds at now,
	// marks them held until until, and returns them oldest due first.
	// Concurrent callers, in other processes too, never get the same run
	// while it is held; a write of the run (UpdateRun, UpdateRunIfUnchanged)
	// ends the hold.
	ClaimRunsForRefresh(ctx context.Context, now, until time.Time, limit int) ([]Run, error)
	// FindRunRetention returns the organization's run retention in days
	// (90 unless set); ENotFound for an unknown organization.
	FindRunRetention(ctx context.Context, organizationID string) (int, error)
	// SetRunRetention sets the organization's run retention in days;
	// ENotFound for an unknown organization.
	SetRunRetention(ctx context.Context, organizationID string, days int) error
	// PruneRuns deletes up to limit final runs (complete, errored,
	// terminated) created before now minus their organization's retention,
	// oldest first per organization, and returns how many it deleted with
	// the provider instances of those that had one (for the caller to
	// delete on the provider). Runs not final are kept whatever their age.
	PruneRuns(ctx context.Context, now time.Time, limit int) (int, []RunInstance, error)
	// PutRunLogs stores (replaces) the logs kept with a run; they are
	// deleted with the run.
	PutRunLogs(ctx context.Context, runID string, l RunLogs) error
	// FindRunLogs returns the logs kept with a run (no lines when none
	// were stored).
	FindRunLogs(ctx context.Context, runID string) (RunLogs, error)
	// FindPinnedOutputs returns the pinned outputs of a workflow (none,
	// UpdatedAt nil, when never set).
	FindPinnedOutputs(ctx context.Context, workflowID string) (PinnedOutputs, error)
	// PutPinnedOutputs replaces the pinned outputs of a workflow and
	// returns them as stored; ENotFound for an unknown workflow. They are
	// deleted with the workflow.
	PutPinnedOutputs(ctx context.Context, workflowID string, outputs map[string]json.RawMessage, userID string) (PinnedOutputs, error)

	// RecordEvent stores e (ID, CreatedAt and Seq set) and, for a type of
	// WebhookEventTypes, one pending delivery due now for every webhook of
	// e's project that subscribes to it, in one transaction. Run writes
	// (CreateRun, UpdateRun, UpdateRunIfUnchanged) record their events
	// themselves, in the run's transaction.
	RecordEvent(ctx context.Context, e *Event) error
	// ListEventsAfter returns up to limit events with Seq above after, in
	// Seq order (all projects: for the run streams of this process).
	ListEventsAfter(ctx context.Context, after int64, limit int) ([]Event, error)
	// LastEventSeq returns the highest Seq stored (0 when none).
	LastEventSeq(ctx context.Context) (int64, error)
	// PruneEvents deletes events created before before and returns how
	// many; deliveries keep their own copy of the message.
	PruneEvents(ctx context.Context, before time.Time) (int, error)

	// CreateWebhook stores w (ID, CreatedAt, UpdatedAt set); ENotFound for
	// a project not of w's organization.
	CreateWebhook(ctx context.Context, w *Webhook) error
	// FindWebhookByID returns the project's webhook or ENotFound.
	FindWebhookByID(ctx context.Context, projectID, id string) (*Webhook, error)
	// ListWebhooks lists the project's webhooks, newest first.
	ListWebhooks(ctx context.Context, projectID string, opts ListOptions) (Page[Webhook], error)
	// UpdateWebhook writes URL, events and the sealed secret, sets
	// UpdatedAt and refreshes w; ENotFound outside the project.
	UpdateWebhook(ctx context.Context, w *Webhook) error
	// DeleteWebhook deletes the webhook with its deliveries; ENotFound
	// outside the project.
	DeleteWebhook(ctx context.Context, projectID, id string) error
	// ListWebhookDeliveries lists the webhook's deliveries, newest first.
	ListWebhookDeliveries(ctx context.Context, webhookID string, opts ListOptions) (Page[WebhookDelivery], error)
	// FindWebhookDelivery returns the webhook's delivery or ENotFound.
	FindWebhookDelivery(ctx context.Context, webhookID, id string) (*WebhookDelivery, error)
	// RedeliverWebhookDelivery stores a new pending delivery, due at now,
	// of the same message as the webhook's delivery id (same MessageID and
	// payload, RedeliveryOf = id); ENotFound for an unknown delivery.
	RedeliverWebhookDelivery(ctx context.Context, webhookID, id string, now time.Time) (*WebhookDelivery, error)
	// ClaimWebhookDeliveries takes up to limit pending deliveries due at
	// now that no dispatcher holds, marks them held until until and returns
	// them, oldest due first. Concurrent callers, in other processes too,
	// never get the same delivery while it is held.
	ClaimWebhookDeliveries(ctx context.Context, now, until time.Time, limit int) ([]WebhookDelivery, error)
	// FinishWebhookAttempt writes d's status, attempts, response status and
	// next attempt time and ends the hold; ENotFound when the delivery (or
	// its webhook) was deleted meanwhile.
	FinishWebhookAttempt(ctx context.Context, d *WebhookDelivery) error

	// CreateConnection stores a connection of an organization, owned by
	// the project c.ProjectID when set (organization-wide when "").
	CreateConnection(ctx context.Context, c *Connection) error
	// FindConnectionByID finds a connection of the organization, whichever
	// project owns it; callers check ProjectID against the caller's project.
	FindConnectionByID(ctx context.Context, organizationID, id string) (*Connection, error)
	// ListConnections lists the organization-wide connections and, when
	// projectID is set, that project's, newest first.
	ListConnections(ctx context.Context, organizationID, projectID string, opts ListOptions) (Page[Connection], error)
	// UpdateConnection writes provider, name, account id and credentials;
	// the owning project never changes.
	UpdateConnection(ctx context.Context, c *Connection) error
	// DeleteConnection refuses (EConflict) while an active deployment uses it.
	DeleteConnection(ctx context.Context, organizationID, id string) error

	// CreateEnvironment stores an environment of a project; a name taken in
	// the project, or a connection bound to another of its environments, is
	// EConflict.
	CreateEnvironment(ctx context.Context, e *Environment) error
	// FindEnvironment returns the project's environment of that name, or
	// ENotFound.
	FindEnvironment(ctx context.Context, projectID, name string) (*Environment, error)
	// FindEnvironmentByConnection returns the project's environment bound
	// to the connection, or ENotFound.
	FindEnvironmentByConnection(ctx context.Context, projectID, connectionID string) (*Environment, error)
	// ListEnvironments lists the project's environments by name (at most
	// MaxEnvironments).
	ListEnvironments(ctx context.Context, projectID string) ([]Environment, error)
	// UpdateEnvironment writes the connection and the protected flag.
	UpdateEnvironment(ctx context.Context, e *Environment) error
	// DeleteEnvironment deletes the project's environment; ENotFound when
	// there is none of that name.
	DeleteEnvironment(ctx context.Context, projectID, name string) error

	// CreateEnvVar stores a variable; the name taken in the same scope
	// (organization, or project) is EConflict.
	CreateEnvVar(ctx context.Context, v *EnvVar) error
	FindEnvVarByID(ctx context.Context, organizationID, id string) (*EnvVar, error)
	// ListEnvVars lists the organization-level variables and, when projectID
	// is set, that project's, ordered by name.
	ListEnvVars(ctx context.Context, organizationID, projectID string, opts ListOptions) (Page[EnvVar], error)
	UpdateEnvVar(ctx context.Context, v *EnvVar) error
	DeleteEnvVar(ctx context.Context, organizationID, id string) error

	// InstallNode stores an installation; already installed is EConflict.
	InstallNode(ctx context.Context, n *InstalledNode) error
	FindInstalledNode(ctx context.Context, organizationID, nodeID string) (*InstalledNode, error)
	// ListInstalledNodes lists installations ordered by node id.
	ListInstalledNodes(ctx context.Context, organizationID string, opts ListOptions) (Page[InstalledNode], error)
	// UpdateInstalledNode writes version, definition, template and checksum.
	UpdateInstalledNode(ctx context.Context, n *InstalledNode) error
	UninstallNode(ctx context.Context, organizationID, nodeID string) error

	// Hit counts one request against key in the fixed window starting at
	// windowStart and returns the count so far in that window, so that rate
	// limits hold across replicas sharing the database.
	Hit(ctx context.Context, key string, windowStart time.Time) (int, error)

	// FindSignInFailures returns the failed sign-ins recorded for key (a
	// hash of an email) since its last success; a zero Count when there are
	// none, never ENotFound.
	FindSignInFailures(ctx context.Context, key string) (SignInFailures, error)
	// ClaimSignInAttempt decides whether a sign-in attempt for key at time
	// at may check its password and, when it may, counts it as a failure in
	// the same atomic step (a success then clears the count with
	// ClearSignInFailures), so concurrent attempts, on any replica, are
	// never checked more often than policy allows. It answers the failures
	// after the claim and a zero wait, or, while key backs off, its failures
	// unchanged and how long until the next attempt may be checked. Counts
	// whose last failure is older than policy.ForgetAfter are deleted first,
	// of every key.
	ClaimSignInAttempt(ctx context.Context, key string, at time.Time, policy SignInBackOff) (SignInFailures, time.Duration, error)
	// ClearSignInFailures forgets key's failures (after a successful sign-in).
	ClearSignInFailures(ctx context.Context, key string) error
}

// HeldGroup is a workflow on a connection that has runs held by its flow
// control.
type HeldGroup struct {
	ProjectID, WorkflowID, ConnectionID string
}

// HeldRunsFilter selects held runs: those of WorkflowID on ConnectionID
// (both "": of every workflow), after the run created at AfterCreatedAt
// with id AfterID (zero: from the oldest), at most Limit (100 when <= 0).
type HeldRunsFilter struct {
	WorkflowID, ConnectionID string
	AfterCreatedAt           time.Time
	AfterID                  string
	Limit                    int
}
