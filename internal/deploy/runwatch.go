package deploy

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Run state from the instance event stream (decision 490). While the
// refresher runs, each non-final run whose provider offers the stream
// (InstanceSubscriber: the local edge, Cloudflare's GET …/subscribe) is
// watched: its events are read as they happen, and an event that can change
// what the run shows (its status or detail) makes one read of the instance
// (refreshFrom), so that the change reaches the run stream and webhooks
// within a second. A watched run is still polled, every WatchedRefresh, in
// case its stream missed something; runs past the bounds, and runs of
// providers without the stream, are polled as before.
//
// On a provider that reads many instances in one request (InstancesReader:
// the local edge) a run is watched only once it is WatchAfter old (decision
// 792): a young run is read every 0.5 s anyway, with the other due runs of
// its workflow in one request, while a stream costs the engine a
// subscription, an event read per step and an instance read per event. Most
// runs of a burst end before they are watched at all.

const (
	// DefaultSubscriptions is the most instance event streams one process
	// keeps open at once.
	DefaultSubscriptions = 256
	// DefaultSubscriptionsPerConnection is the most streams open at once
	// on one connection (below the local edge's 64 per account, so that
	// other clients of the account keep some).
	DefaultSubscriptionsPerConnection = 48
	// WatchedRefresh is how often a watched run is polled all the same. It
	// is also how long another replica waits to take over the run of a
	// replica that died while watching it (its next refresh is stored),
	// so it stays short.
	WatchedRefresh = 10 * time.Second
	// watchSettle is how long a watch gathers the events that arrive
	// together before it reads the instance once for all of them.
	watchSettle = 30 * time.Millisecond
	// lacksFor is how long a connection whose provider lacks the stream
	// is polled without trying it again.
	lacksFor = 10 * time.Minute
	// maxWatchFailures is how many failed or fruitless connections in a
	// row end a watch (the run is polled).
	maxWatchFailures = 5
	// DefaultWatchAfter is how old a run of a provider that reads
	// instances together is before it is watched: past it, its polls would
	// soon come further apart than a second (refreshDelay).
	DefaultWatchAfter = 2 * time.Second
)

// WatchStats count what the watches did since the refresher started: the
// runs watched, the streams opened (reconnections included), the events
// read and the instance reads they caused.
type WatchStats struct {
	Watched int64
	Opened  int64
	Events  int64
	Reads   int64
	// Open is how many streams are open now.
	Open int
}

// runWatch holds the watches of one refresher.
type runWatch struct {
	s       *Service
	ctx     context.Context
	limit   int
	perConn int
	after   time.Duration // WatchAfter; 0 watches at once

	mu      sync.Mutex
	runs    map[string]struct{} // run id
	conns   map[string]int      // connection id -> watches
	lacking map[string]time.Time

	watched, opened, events, reads atomic.Int64
}

func newRunWatch(s *Service, ctx context.Context, limit, perConn int, after time.Duration) *runWatch {
	if limit == 0 {
		limit = DefaultSubscriptions
	}
	if after == 0 {
		after = DefaultWatchAfter
	}
	if perConn <= 0 {
		perConn = DefaultSubscriptionsPerConnection
	}
	return &runWatch{s: s, ctx: ctx, limit: limit, perConn: perConn, after: max(after, 0),
		runs: map[string]struct{}{}, conns: map[string]int{}, lacking: map[string]time.Time{}}
}

// startWatching makes the refresher's watches, which end with ctx.
func (s *Service) startWatching(ctx context.Context, opts RefresherOptions) {
	w := newRunWatch(s, ctx, opts.Subscriptions, opts.SubscriptionsPerConnection, opts.WatchAfter)
	s.watch.Store(w)
	context.AfterFunc(ctx, func() { s.watch.CompareAndSwap(w, nil) })
}

// WatchStats answers the counters of the running refresher's watches
// (zero when none runs).
func (s *Service) WatchStats() WatchStats {
	w := s.watch.Load()
	if w == nil {
		return WatchStats{}
	}
	w.mu.Lock()
	open := len(w.runs)
	w.mu.Unlock()
	return WatchStats{Watched: w.watched.Load(), Opened: w.opened.Load(), Events: w.events.Load(), Reads: w.reads.Load(), Open: open}
}

// watching reports whether the run is watched by this process.
func (s *Service) watching(runID string) bool {
	w := s.watch.Load()
	if w == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.runs[runID]
	return ok
}

// nextRefresh is how long after a successful refresh at now the non-final
// run r is read again: WatchedRefresh while it is watched, else
// refreshDelay by its age.
func (s *Service) nextRefresh(r *edgeflow.Run, now time.Time) time.Duration {
	if s.watching(r.ID) {
		return WatchedRefresh
	}
	return refreshDelay(now.Sub(r.CreatedAt))
}

// reserveWatch takes a watch for run r when the bounds allow it and its
// provider offers the event stream (prov, or the run's own when nil); start
// begins it (after the run is stored), and release gives the place back
// when the run is not stored. ok is false when no watch was taken (start
// and release do nothing then).
func (s *Service) reserveWatch(ctx context.Context, r *edgeflow.Run, prov Provider) (start, release func(), ok bool) {
	w := s.watch.Load()
	nop := func() {}
	if w == nil || w.limit < 0 || edgeflow.RunIsFinal(r.Status) || !w.room(r) {
		return nop, nop, false
	}
	if prov == nil {
		var err error
		if prov, err = s.runProvider(ctx, r); err != nil {
			return nop, nop, false
		}
	}
	if _, ok := prov.(InstanceSubscriber); !ok {
		w.mu.Lock()
		w.lacking[r.ConnectionID] = s.now().Add(lacksFor)
		w.mu.Unlock()
		return nop, nop, false
	}
	if w.young(r, prov) {
		return nop, nop, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.roomLocked(r) {
		return nop, nop, false
	}
	w.runs[r.ID] = struct{}{}
	w.conns[r.ConnectionID]++
	run := *r
	var once sync.Once
	start = func() { once.Do(func() { w.watched.Add(1); go w.follow(&run, prov.(InstanceSubscriber)) }) }
	release = func() { once.Do(func() { w.done(&run, false) }) }
	return start, release, true
}

// young reports whether r is polled rather than watched for now: its
// provider reads instances together and r is younger than the watch's
// after (a run not stored yet, without its creation time, is new).
func (w *runWatch) young(r *edgeflow.Run, prov Provider) bool {
	if _, together := prov.(InstancesReader); !together || w.after <= 0 {
		return false
	}
	return r.CreatedAt.IsZero() || w.s.now().Sub(r.CreatedAt) < w.after
}

// room reports whether r may be watched: not watched yet, its connection
// not known to lack the stream, and the bounds not reached.
func (w *runWatch) room(r *edgeflow.Run) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.roomLocked(r)
}

func (w *runWatch) roomLocked(r *edgeflow.Run) bool {
	if _, ok := w.runs[r.ID]; ok {
		return false
	}
	if until, ok := w.lacking[r.ConnectionID]; ok {
		if w.s.now().Before(until) {
			return false
		}
		delete(w.lacking, r.ConnectionID)
	}
	return len(w.runs) < w.limit && w.conns[r.ConnectionID] < w.perConn
}

// watchRun starts watching a stored non-final run, when the bounds allow.
func (s *Service) watchRun(ctx context.Context, r *edgeflow.Run) {
	if start, _, ok := s.reserveWatch(ctx, r, nil); ok {
		start()
	}
}

// done ends the watch of r; lacking marks its connection as one whose
// provider has no stream.
func (w *runWatch) done(r *edgeflow.Run, lacking bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.runs[r.ID]; !ok {
		return
	}
	delete(w.runs, r.ID)
	if w.conns[r.ConnectionID]--; w.conns[r.ConnectionID] <= 0 {
		delete(w.conns, r.ConnectionID)
	}
	if lacking {
		w.lacking[r.ConnectionID] = w.s.now().Add(lacksFor)
	}
}

// follow watches r until it is final, its stream fails too often, or the
// refresher stops. When the watch ends before the run is final, the run is
// read once more and polled from then on.
func (w *runWatch) follow(r *edgeflow.Run, sub InstanceSubscriber) {
	lacking := false
	defer func() {
		w.done(r, lacking)
		if w.ctx.Err() == nil && !w.final(r) {
			// Polled from now on: read it at once, which also puts its
			// next refresh back on the age schedule.
			w.read(r)
		}
	}()
	cursor := ""
	failures := 0
	for w.ctx.Err() == nil {
		stream, err := sub.SubscribeInstance(w.ctx, r.WorkflowName, r.InstanceID, cursor)
		if err != nil {
			if lacksFeature(err) {
				lacking = true
				return
			}
			if ae, ok := errors.AsType[*cloudflare.APIError](err); ok && (ae.Status == http.StatusNotFound || ae.Status == http.StatusTooManyRequests) {
				// Gone, or the account's streams are all taken: poll it.
				return
			}
			if failures++; failures >= maxWatchFailures || !w.pause(failureDelay(failures)) {
				return
			}
			continue
		}
		w.opened.Add(1)
		got, last, final := w.drain(r, stream)
		if last != "" {
			cursor = last
		}
		if final || w.final(r) {
			return
		}
		if got {
			failures = 0
		} else if failures++; failures >= maxWatchFailures {
			return
		}
		// The stream ended before the run did (a deploy restarted the
		// edge's workers, its lifetime ran out): open it again after the
		// last event read.
		if !w.pause(failureDelay(failures)) {
			return
		}
	}
}

// drain reads stream until it ends: events that can change what the run
// shows are gathered for watchSettle and answered with one read. It
// answers whether any event came, the last event id, and whether the run
// is final.
func (w *runWatch) drain(r *edgeflow.Run, stream InstanceEventStream) (got bool, last string, final bool) {
	events := make(chan InstanceEvent, 64)
	go func() {
		defer close(events)
		for {
			ev, err := stream.Next()
			if err != nil {
				return
			}
			select {
			case events <- ev:
			case <-w.ctx.Done():
				return
			}
		}
	}()
	defer func() {
		stream.Close()
		for range events { // let the reader end
		}
	}()
	retrying := false
	pending := false
	var settle <-chan time.Time
	for {
		select {
		case <-w.ctx.Done():
			return got, last, false
		case ev, ok := <-events:
			if !ok {
				if pending {
					final = w.read(r)
				}
				return got, last, final
			}
			got = true
			w.events.Add(1)
			if ev.ID != "" {
				last = ev.ID
			}
			if changesRun(ev.Type, retrying) && !pending {
				pending = true
				settle = time.After(watchSettle)
			}
			retrying = ev.Type == "attempt_errored"
		case <-settle:
			pending, settle = false, nil
			if w.read(r) {
				return got, last, true
			}
		}
	}
}

// read refreshes r from its instance (one provider read) and reports
// whether it is final now.
func (w *runWatch) read(r *edgeflow.Run) bool {
	w.reads.Add(1)
	got, err := w.s.refreshFrom(w.ctx, r, false, nil)
	if err != nil {
		if w.ctx.Err() == nil {
			w.s.log.Warn("runs: refresh on an instance event", "run", r.ID, "err", err)
		}
		return false
	}
	return edgeflow.RunIsFinal(got.Status)
}

// final reports whether the stored run is final (or gone).
func (w *runWatch) final(r *edgeflow.Run) bool {
	cur, err := w.s.store.FindRunByID(context.WithoutCancel(w.ctx), r.WorkflowID, r.ID)
	if err != nil {
		return edgeflow.IsNotFound(err)
	}
	return edgeflow.RunIsFinal(cur.Status)
}

// pause waits d, or answers false when the refresher stops first.
func (w *runWatch) pause(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-w.ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// changesRun reports whether an event of type typ can change a run's
// status or detail (MapStatus): the instance's own events, sleeps, waits
// for events, a failed attempt (retrying) and the attempt after it, and
// rollbacks. Steps that start and complete without a change of state are
// left to the run's next read.
func changesRun(typ string, afterFailedAttempt bool) bool {
	switch typ {
	case "workflow_queued", "workflow_started", "workflow_running", "workflow_paused", "workflow_waiting_for_pause",
		"workflow_waiting", "workflow_completed", "workflow_errored", "workflow_terminated",
		"sleep_started", "sleep_completed", "wait_started", "wait_completed", "wait_timed_out",
		"attempt_errored", "rollback_started", "rollback_completed", "rollback_errored":
		return true
	case "attempt_started":
		return afterFailedAttempt
	}
	return false
}
