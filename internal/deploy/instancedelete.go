package deploy

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Deleting runs deletes their provider instances (docs/runs.md, "Deleting
// runs"): the callers that delete runs — retention pruning, a forced
// workflow delete — hand the runs' instances to DeleteInstancesLater, which
// only queues them; the refresher's companion loop deletes them with the
// provider's batch delete, at most cloudflare.MaxInstancesDelete per
// request, and retries failures later with back-off. No user request ever
// waits on the provider for it (decision 494).

// MaxPendingInstanceDeletes bounds the queue of instances waiting to be
// deleted in one process; instances past it are logged and left to the
// provider's own retention.
const MaxPendingInstanceDeletes = 100_000

// instanceDeleteAttempts is how many times a batch is tried before its
// instances are left to the provider's retention.
const instanceDeleteAttempts = 12

// instanceGroup is the Workflow of one connection that instances belong to.
type instanceGroup struct{ org, conn, workflow string }

// instanceDeletes is the queue of instances to delete.
type instanceDeletes struct {
	mu      sync.Mutex
	pending map[instanceGroup]*pendingDeletes
	count   int
	wake    chan struct{}
}

type pendingDeletes struct {
	ids      []string
	failures int
	due      time.Time
}

// DeleteInstancesLater queues the provider instances of deleted runs for
// deletion and returns at once; a running refresher (RunRefresher) deletes
// them. Instances without a connection, Workflow or id are skipped.
func (s *Service) DeleteInstancesLater(instances []edgeflow.RunInstance) {
	q := &s.instanceDeletes
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pending == nil {
		q.pending = map[instanceGroup]*pendingDeletes{}
		q.wake = make(chan struct{}, 1)
	}
	dropped := 0
	for _, ri := range instances {
		if ri.ConnectionID == "" || ri.WorkflowName == "" || ri.InstanceID == "" {
			continue
		}
		if q.count >= MaxPendingInstanceDeletes {
			dropped++
			continue
		}
		g := instanceGroup{ri.OrganizationID, ri.ConnectionID, ri.WorkflowName}
		p := q.pending[g]
		if p == nil {
			p = &pendingDeletes{}
			q.pending[g] = p
		}
		p.ids = append(p.ids, ri.InstanceID)
		q.count++
	}
	if dropped > 0 && s.log != nil {
		s.log.Warn("too many provider instances waiting to be deleted; these are left to the provider's retention",
			"instances", dropped)
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// PendingInstanceDeletes answers how many instances wait to be deleted.
func (s *Service) PendingInstanceDeletes() int {
	q := &s.instanceDeletes
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.count
}

// wakeChan answers the queue's wake channel, made on first use.
func (q *instanceDeletes) wakeChan() chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pending == nil {
		q.pending = map[instanceGroup]*pendingDeletes{}
		q.wake = make(chan struct{}, 1)
	}
	return q.wake
}

// runInstanceDeletes deletes queued instances until ctx ends: at once when
// some are queued, and failed batches again after retry, doubling up to an
// hour.
func (s *Service) runInstanceDeletes(ctx context.Context, retry time.Duration) {
	if retry <= 0 {
		retry = time.Minute
	}
	q := &s.instanceDeletes
	wake := q.wakeChan()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		next := s.deleteDueInstances(ctx, retry)
		if ctx.Err() != nil {
			return
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = max(time.Until(next), time.Millisecond)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-timer.C:
		}
	}
}

// deleteDueInstances deletes the instances of every group that is due and
// answers when the next failed group is due again (zero when none waits).
func (s *Service) deleteDueInstances(ctx context.Context, retry time.Duration) time.Time {
	q := &s.instanceDeletes
	now := time.Now()
	q.mu.Lock()
	var due []instanceGroup
	for g, p := range q.pending {
		if !p.due.After(now) {
			due = append(due, g)
		}
	}
	q.mu.Unlock()
	sort.Slice(due, func(i, j int) bool { return due[i].workflow+due[i].conn < due[j].workflow+due[j].conn })
	for _, g := range due {
		if ctx.Err() != nil {
			break
		}
		s.deleteGroup(ctx, g, retry)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	var next time.Time
	for _, p := range q.pending {
		if next.IsZero() || p.due.Before(next) {
			next = p.due
		}
	}
	return next
}

// deleteGroup deletes a group's queued instances, a batch at a time. A
// batch the provider refuses or does not answer stays queued, due after
// retry times two to the number of failures; after
// instanceDeleteAttempts failures the group is dropped with a log line.
func (s *Service) deleteGroup(ctx context.Context, g instanceGroup, retry time.Duration) {
	q := &s.instanceDeletes
	for {
		q.mu.Lock()
		p := q.pending[g]
		if p == nil || len(p.ids) == 0 {
			delete(q.pending, g)
			q.mu.Unlock()
			return
		}
		batch := append([]string(nil), p.ids[:min(len(p.ids), cloudflare.MaxInstancesDelete)]...)
		q.mu.Unlock()

		err := s.deleteBatch(ctx, g, batch)
		q.mu.Lock()
		p = q.pending[g]
		if gone := (errGone{}); err == nil || errors.As(err, &gone) {
			p.ids = p.ids[len(batch):]
			q.count -= len(batch)
			if err != nil && s.log != nil {
				s.log.Info("provider instances of deleted runs not deleted: "+err.Error(),
					"connection", g.conn, "workflow", g.workflow, "instances", len(batch))
			}
			q.mu.Unlock()
			continue
		}
		p.failures++
		if p.failures >= instanceDeleteAttempts {
			if s.log != nil {
				s.log.Warn("gave up deleting provider instances of deleted runs; they are left to the provider's retention",
					"connection", g.conn, "workflow", g.workflow, "instances", len(p.ids), "error", err.Error())
			}
			q.count -= len(p.ids)
			delete(q.pending, g)
		} else {
			p.due = time.Now().Add(min(retry<<(p.failures-1), time.Hour))
			if s.log != nil {
				s.log.Warn("deleting provider instances of deleted runs failed; retrying later",
					"connection", g.conn, "workflow", g.workflow, "instances", len(p.ids), "attempt", p.failures,
					"error", err.Error())
			}
		}
		q.mu.Unlock()
		return
	}
}

// errGone marks an error after which a batch is not tried again: the
// connection or its Workflow no longer exists, or the provider cannot
// delete instances at all.
type errGone struct{ error }

func (e errGone) Unwrap() error { return e.error }

// deleteBatch deletes one batch of a group's instances on the provider. An
// error of type errGone means there is nothing left to try.
func (s *Service) deleteBatch(ctx context.Context, g instanceGroup, ids []string) error {
	c, err := s.store.FindConnectionByID(ctx, g.org, g.conn)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return errGone{edgeflow.Errorf(edgeflow.ENotFound, "the connection was deleted")}
		}
		return err
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return err
	}
	del, ok := prov.(InstanceDeleter)
	if !ok {
		return errGone{edgeflow.Errorf(edgeflow.EBadRequest, "the provider cannot delete instances")}
	}
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	_, err = del.DeleteInstances(rctx, g.workflow, ids)
	switch {
	case err == nil:
		return nil
	case lacksFeature(err):
		return errGone{err}
	case cloudflare.IsNotFound(err): // the Workflow is gone, and its instances with it
		return errGone{err}
	}
	return err
}

// WorkflowInstances answers the provider instances of the workflow's runs
// (at most MaxPendingInstanceDeletes), read before a delete that is to
// take them with it.
func (s *Service) WorkflowInstances(ctx context.Context, tw *TenantWorkflow) ([]edgeflow.RunInstance, error) {
	wf := tw.Workflow()
	var out []edgeflow.RunInstance
	opts := edgeflow.ListOptions{Limit: 100}
	for len(out) < MaxPendingInstanceDeletes {
		page, err := s.store.ListRuns(ctx, edgeflow.RunFilter{ProjectID: wf.ProjectID, WorkflowID: wf.ID}, opts)
		if err != nil {
			return nil, err
		}
		for _, r := range page.Items {
			if r.ConnectionID != "" && r.WorkflowName != "" && r.InstanceID != "" {
				out = append(out, edgeflow.RunInstance{OrganizationID: tw.Tenant().OrganizationID,
					ConnectionID: r.ConnectionID, WorkflowName: r.WorkflowName, InstanceID: r.InstanceID})
			}
		}
		if page.NextCursor == "" {
			break
		}
		opts.Cursor = page.NextCursor
	}
	return out, nil
}
