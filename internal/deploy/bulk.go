package deploy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Bulk actions on runs (docs/runs.md, "Bulk actions"): a job stores the ids
// of the runs its filter matched and is carried out in batches by whichever
// replica claims it (BulkTick, run by RunRefresher).

// MaxBulkRuns is the most runs one bulk job acts on (decision 571).
const MaxBulkRuns = 10000

// BulkDryRunSample is how many run ids a dry run answers.
const BulkDryRunSample = 20

// bulkBatch is how many runs one batch acts on before the job's progress
// is saved (a short write of its own) and a cancel is noticed.
const bulkBatch = 25

// bulkLease is how long a claim of a job holds it: renewed with each batch;
// a replica that died lets another take the job over after it.
const bulkLease = 2 * time.Minute

// BulkCreateRate is how many runs a bulk restart or replay starts per
// second and workflow: Cloudflare's instance creation rate (docs/runs.md).
const BulkCreateRate = 100

// BulkRequest asks for a bulk action on the tenant's runs that the filter
// matches.
type BulkRequest struct {
	Action   string
	Filter   edgeflow.BulkFilter
	FromStep string
	Version  string
	DryRun   bool
	// Actor and RequestID name the request in the job's audit entry.
	Actor     edgeflow.AuditActor
	RequestID string
}

// BulkStarted is the answer to a bulk request: the job, or for a dry run
// the runs it would act on.
type BulkStarted struct {
	// ID is the job's id ("" for a dry run).
	ID string `json:"id,omitempty"`
	// Matched counts the runs the filter matches.
	Matched int `json:"matched"`
	// DryRun is true when nothing was done; RunIDs then holds the first 20
	// runs matched.
	DryRun bool     `json:"dryRun,omitempty"`
	RunIDs []string `json:"runIds,omitempty"`
}

// StartBulk checks a bulk request, lists the runs its filter matches
// (newest first, at most MaxBulkRuns: more is validation_failed) and
// stores the job, or for a dry run answers them without acting. The
// filter's fields are the run search's, checked by the caller.
func (s *Service) StartBulk(ctx context.Context, t Tenant, req BulkRequest) (*BulkStarted, error) {
	switch req.Action {
	case edgeflow.BulkRestart, edgeflow.BulkReplay:
		switch req.Version {
		case "", RestartSameVersion, RestartCurrentVersion:
		default:
			return nil, edgeflow.Invalid("/version", `version must be "same" or "current"`)
		}
	case edgeflow.BulkTerminate, edgeflow.BulkDelete:
		if req.FromStep != "" {
			return nil, edgeflow.Invalid("/fromStep", "fromStep applies to restart and replay only")
		}
		if req.Version != "" {
			return nil, edgeflow.Invalid("/version", "version applies to restart and replay only")
		}
	default:
		return nil, edgeflow.Invalid("/action", `action must be "restart", "replay", "terminate" or "delete"`)
	}
	f := req.Filter
	var ids []string
	var err error
	if len(f.RunIDs) > 0 {
		ids, err = s.selectedRuns(ctx, t.ProjectID, f.RunIDs)
	} else {
		ids, err = s.matchRuns(ctx, edgeflow.RunFilter{ProjectID: t.ProjectID, WorkflowID: f.WorkflowID, Status: f.Status,
			VersionID: f.VersionID, From: f.From, To: f.To, Query: f.Q})
	}
	if err != nil {
		return nil, err
	}
	if req.DryRun {
		return &BulkStarted{Matched: len(ids), DryRun: true, RunIDs: ids[:min(len(ids), BulkDryRunSample)]}, nil
	}
	j := &edgeflow.BulkJob{ID: edgeflow.NewID(edgeflow.PrefixBulkJob), OrganizationID: t.OrganizationID, ProjectID: t.ProjectID,
		Action: req.Action, Filter: f, FromStep: req.FromStep, Version: req.Version, State: edgeflow.BulkRunning,
		Matched: len(ids), RunIDs: ids, Actor: req.Actor, RequestID: req.RequestID}
	if err := s.store.CreateBulkJob(context.WithoutCancel(ctx), j); err != nil {
		return nil, err
	}
	s.wakeBulk()
	return &BulkStarted{ID: j.ID, Matched: j.Matched}, nil
}

// MaxBulkSelected is the most runs a bulk filter names by id (runIds).
const MaxBulkSelected = 1000

// selectedRuns are the runs a filter names by id, each once, in the order
// given; a run the project does not have is validation_failed naming it
// (decision 622).
func (s *Service) selectedRuns(ctx context.Context, projectID string, runIDs []string) ([]string, error) {
	if len(runIDs) > MaxBulkSelected {
		return nil, edgeflow.Invalid("/filter/runIds", fmt.Sprintf("at most %d runs are selected by id (got %d); select all runs matching a filter instead", MaxBulkSelected, len(runIDs)))
	}
	seen := make(map[string]bool, len(runIDs))
	ids := make([]string, 0, len(runIDs))
	for i, id := range runIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		if _, err := s.store.FindRunInProject(ctx, projectID, id); err != nil {
			if edgeflow.IsNotFound(err) {
				return nil, edgeflow.Invalid(fmt.Sprintf("/filter/runIds/%d", i), "the project has no run "+id)
			}
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// matchRuns lists the ids of the runs f matches, newest first.
func (s *Service) matchRuns(ctx context.Context, f edgeflow.RunFilter) ([]string, error) {
	var ids []string
	opts := edgeflow.ListOptions{Limit: 100}
	for {
		page, err := s.store.ListRuns(ctx, f, opts)
		if err != nil {
			return nil, err
		}
		for _, r := range page.Items {
			ids = append(ids, r.ID)
		}
		if len(ids) > MaxBulkRuns {
			return nil, edgeflow.Invalid("/filter", fmt.Sprintf(
				"the filter matches more than %d runs, the most one bulk action takes; narrow it (status, workflowId, from, to)", MaxBulkRuns))
		}
		if page.NextCursor == "" {
			return ids, nil
		}
		opts.Cursor = page.NextCursor
	}
}

// BulkJob answers the tenant's bulk job.
func (s *Service) BulkJob(ctx context.Context, t Tenant, id string) (*edgeflow.BulkJob, error) {
	return s.store.FindBulkJob(ctx, t.ProjectID, id)
}

// CancelBulk stops the tenant's running bulk job: the runs it acted on
// stay as they are, the others are left alone. A job that ended is
// answered as it is.
func (s *Service) CancelBulk(ctx context.Context, t Tenant, id string) (*edgeflow.BulkJob, error) {
	j, err := s.store.CancelBulkJob(ctx, t.ProjectID, id, s.now().UTC())
	if err != nil {
		return nil, err
	}
	if j.State == edgeflow.BulkCancelled {
		s.auditBulk(ctx, j)
	}
	return j, nil
}

func (s *Service) wakeBulk() {
	select {
	case s.bulkWake <- struct{}{}:
	default:
	}
}

// runBulkJobs carries out bulk jobs until ctx ends: at once when one is
// created here, and every interval for the jobs of other replicas that
// died (their lease ended).
func (s *Service) runBulkJobs(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for {
			did, err := s.BulkTick(ctx)
			if err != nil && ctx.Err() == nil {
				s.log.Warn("runs: bulk job", "err", err)
			}
			if !did || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.bulkWake:
		}
	}
}

// BulkTick claims one running bulk job whose lease ended (or that has
// none) and carries it out to its end or its cancellation; false when
// there was none.
func (s *Service) BulkTick(ctx context.Context) (bool, error) {
	now := s.now().UTC()
	j, err := s.store.ClaimBulkJob(ctx, now, now.Add(bulkLease))
	if err != nil || j == nil {
		return false, err
	}
	return true, s.carryOut(ctx, j)
}

// carryOut acts on the job's runs from j.Next in batches, saving its
// progress (and renewing its lease) after each; it stops when the job was
// cancelled meanwhile.
func (s *Service) carryOut(ctx context.Context, j *edgeflow.BulkJob) error {
	t := Tenant{OrganizationID: j.OrganizationID, ProjectID: j.ProjectID}
	rate := newCreateRate(s.now)
	for j.Next < len(j.RunIDs) {
		end := min(j.Next+bulkBatch, len(j.RunIDs))
		batch := j.RunIDs[j.Next:end]
		var errs map[string]error
		if j.Action == edgeflow.BulkDelete {
			errs = s.bulkDelete(ctx, t, batch)
		} else {
			errs = map[string]error{}
			for _, id := range batch {
				if err := s.bulkOne(ctx, t, j, id, rate); err != nil {
					errs[id] = err
				}
			}
		}
		if ctx.Err() != nil {
			return ctx.Err() // the lease ends; another claim goes on from j.Next
		}
		for _, id := range batch {
			if err, ok := errs[id]; ok {
				j.FailedCount++
				if len(j.Failed) < edgeflow.MaxBulkFailures {
					j.Failed = append(j.Failed, edgeflow.BulkFailure{RunID: id, Error: errorText(err)})
				}
			}
		}
		j.Done += len(batch)
		j.Next = end
		lease := s.now().UTC().Add(bulkLease)
		j.LeaseUntil = &lease
		if j.Next >= len(j.RunIDs) {
			now := s.now().UTC()
			j.State, j.EndedAt, j.LeaseUntil = edgeflow.BulkComplete, &now, nil
		}
		ok, err := s.store.SaveBulkJobProgress(context.WithoutCancel(ctx), j)
		if err != nil {
			return err
		}
		if !ok {
			return nil // cancelled: CancelBulk audited it
		}
	}
	if j.State != edgeflow.BulkComplete { // no runs at all
		now := s.now().UTC()
		j.State, j.EndedAt, j.LeaseUntil = edgeflow.BulkComplete, &now, nil
		if ok, err := s.store.SaveBulkJobProgress(context.WithoutCancel(ctx), j); err != nil || !ok {
			return err
		}
	}
	s.auditBulk(ctx, j)
	return nil
}

// bulkOne restarts, replays or terminates one run.
func (s *Service) bulkOne(ctx context.Context, t Tenant, j *edgeflow.BulkJob, runID string, rate *createRate) error {
	r, err := s.store.FindRunInProject(ctx, t.ProjectID, runID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return edgeflow.Errorf(edgeflow.ENotFound, "the run no longer exists")
		}
		return err
	}
	if j.Action == edgeflow.BulkTerminate {
		_, err := s.ControlRun(ctx, t, r.WorkflowID, r.ID, ActionTerminate)
		return err
	}
	tw, err := s.ReadWorkflow(ctx, t, r.WorkflowID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return edgeflow.Errorf(edgeflow.EConflict, "the run's workflow was deleted")
		}
		return err
	}
	if err := rate.wait(ctx, r.WorkflowID); err != nil {
		return err
	}
	if j.Action == edgeflow.BulkReplay {
		_, err = s.Replay(ctx, tw, ReplayRequest{RunID: r.ID, FromStep: j.FromStep, Version: j.Version})
		return err
	}
	_, err = s.Restart(ctx, tw, RestartRequest{RunID: r.ID, FromStep: j.FromStep, Version: j.Version})
	return err
}

// bulkDelete deletes the finished runs among ids in one short write and
// queues their instances for deletion; the others fail.
func (s *Service) bulkDelete(ctx context.Context, t Tenant, ids []string) map[string]error {
	errs := map[string]error{}
	deleted, instances, err := s.store.DeleteRuns(context.WithoutCancel(ctx), t.ProjectID, ids)
	if err != nil {
		for _, id := range ids {
			errs[id] = err
		}
		return errs
	}
	s.DeleteInstancesLater(instances)
	gone := map[string]bool{}
	for _, id := range deleted {
		gone[id] = true
	}
	for _, id := range ids {
		if gone[id] {
			continue
		}
		if _, err := s.store.FindRunInProject(ctx, t.ProjectID, id); edgeflow.IsNotFound(err) {
			errs[id] = edgeflow.Errorf(edgeflow.ENotFound, "the run no longer exists")
		} else {
			errs[id] = edgeflow.Errorf(edgeflow.EConflict, "the run has not finished; terminate it first")
		}
	}
	return errs
}

// auditBulk records the job's one audit entry: its filter and counts.
func (s *Service) auditBulk(ctx context.Context, j *edgeflow.BulkJob) {
	e := edgeflow.AuditEntry{OrganizationID: j.OrganizationID, ProjectID: j.ProjectID, Actor: j.Actor, Action: "run.bulk",
		Target: edgeflow.AuditTarget{Type: "run", ID: j.ID}, Outcome: 202, RequestID: j.RequestID, Details: j.BulkDetails()}
	if err := s.store.RecordAudit(context.WithoutCancel(ctx), []edgeflow.AuditEntry{e}); err != nil {
		s.log.Error("runs: audit of a bulk job", "job", j.ID, "err", err)
	}
}

func errorText(err error) string {
	var e *edgeflow.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

// createRate keeps the runs a job starts within BulkCreateRate per second
// and workflow.
type createRate struct {
	now   func() time.Time
	start map[string]time.Time
	count map[string]int
}

func newCreateRate(now func() time.Time) *createRate {
	return &createRate{now: now, start: map[string]time.Time{}, count: map[string]int{}}
}

// wait returns when one more run of the workflow may start.
func (c *createRate) wait(ctx context.Context, workflowID string) error {
	now := c.now()
	if now.Sub(c.start[workflowID]) >= time.Second {
		c.start[workflowID], c.count[workflowID] = now, 0
	}
	if c.count[workflowID] >= BulkCreateRate {
		t := time.NewTimer(c.start[workflowID].Add(time.Second).Sub(now))
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		c.start[workflowID], c.count[workflowID] = c.now(), 0
	}
	c.count[workflowID]++
	return nil
}
