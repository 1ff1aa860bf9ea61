package deploy

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The stuck-queued rule (docs/runs.md and docs/operations.md, "Runs stuck
// in queued"; decision 473). A provider that accepted a create and never
// started the instance (a local edge whose workerd cannot open another
// instance, issue 39) would leave the run queued forever. A run queued for
// longer than StuckAfter is marked: its statusDetail becomes "stuck" (a
// run event, so streams and webhooks carry it) and its instance is created
// again once, with the same id (a provider that has it answers that it
// exists, so no run starts twice). A run still queued after StuckFailAfter
// is failed with an error saying why, once its instance is terminated (so
// that a provider that recovers later does not run it after all); while
// the terminate fails the run stays stuck and the next refresh tries again.

// DetailStuck is the statusDetail of a run queued longer than StuckAfter.
const DetailStuck = edgeflow.RunDetailStuck

// DefaultStuckAfter and DefaultStuckFailAfter are the bounds of the rule.
const (
	DefaultStuckAfter     = 2 * time.Minute
	DefaultStuckFailAfter = 10 * time.Minute
)

type stuckBounds struct{ after, failAfter time.Duration }

func newStuckBounds(after, failAfter time.Duration) stuckBounds {
	if after <= 0 {
		after = DefaultStuckAfter
	}
	if failAfter <= 0 {
		failAfter = DefaultStuckFailAfter
	}
	return stuckBounds{after: after, failAfter: max(failAfter, after)}
}

// applyStuck applies the stuck-queued rule to r, a run just refreshed (or
// whose refresh failed) at now, whose statusDetail before the refresh was
// detail; it changes r in memory, the caller writes it.
func (s *Service) applyStuck(ctx context.Context, r *edgeflow.Run, detail string, now time.Time) {
	if r.Status != edgeflow.RunQueued {
		return
	}
	age := now.Sub(r.CreatedAt)
	if age < s.stuck.after {
		return
	}
	if age >= s.stuck.failAfter {
		if err := s.endStuck(ctx, r); err != nil {
			s.log.Warn("runs: a run stuck in queued was not failed: its instance could not be terminated (tried again at its next refresh)", "run", r.ID, "err", err)
			r.StatusDetail = DetailStuck
			return
		}
		r.Status, r.StatusDetail = edgeflow.RunErrored, ""
		r.Error = fmt.Sprintf("the run stayed queued for %s and the provider never started it; it was terminated (on the local edge, see the edge's errors: /readyz and edgeflow_local_edge_errors_total)", s.stuck.failAfter)
		r.EndedAt = &now
		s.log.Error("runs: a run stuck in queued failed", "run", r.ID, "workflow", r.WorkflowID, "queuedFor", age.Round(time.Second).String())
		return
	}
	first := detail != DetailStuck
	r.StatusDetail = DetailStuck
	if !first {
		return
	}
	s.log.Error("runs: a run is stuck in queued; creating its instance again", "run", r.ID, "workflow", r.WorkflowID, "queuedFor", age.Round(time.Second).String())
	if err := s.recreateStuck(ctx, r); err != nil {
		s.log.Warn("runs: creating a stuck run's instance again failed", "run", r.ID, "err", err)
	}
}

// recreateStuck creates r's instance again through the provider's REST API,
// with the same id and params; an instance that exists is left as it is.
func (s *Service) recreateStuck(ctx context.Context, r *edgeflow.Run) error {
	prov, err := s.runProvider(ctx, r)
	if err != nil {
		return err
	}
	params := r.Params
	if len(params) == 0 {
		params = []byte("{}")
	}
	err = prov.CreateInstance(ctx, r.WorkflowName, r.InstanceID, params)
	if err == nil || isProviderConflict(err) {
		return nil
	}
	return err
}

// endStuck terminates r's instance; an instance the provider does not have
// counts as ended.
func (s *Service) endStuck(ctx context.Context, r *edgeflow.Run) error {
	prov, err := s.runProvider(ctx, r)
	if err != nil {
		return err
	}
	err = prov.ChangeInstanceStatus(ctx, r.WorkflowName, r.InstanceID, "terminate")
	if err == nil || providerStatus(err) == http.StatusNotFound {
		return nil
	}
	return err
}
