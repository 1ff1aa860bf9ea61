package deploy

import (
	"context"
	"sync"
	"time"
)

// RefresherOptions configure RunRefresher.
type RefresherOptions struct {
	// Interval is how often due runs are looked for; 0 means 500 ms.
	Interval time.Duration
	// Batch is the most runs refreshed per round; 0 means 100.
	Batch int
	// Concurrency is how many runs are refreshed at once; 0 means 8.
	Concurrency int
	// DiscoverInterval is how often cron discovery (DiscoverCronRuns) and
	// the retirer of drained versions (RetireDrained) run; 0 means 10 ×
	// Interval.
	DiscoverInterval time.Duration
	// ClaimFor is how long a run taken for refresh is left alone by the
	// other replicas' refreshers (unless the refresh writes first); 0 means
	// DefaultClaimFor.
	ClaimFor time.Duration
	// Subscriptions is the most instance event streams open at once
	// (runwatch.go); 0 means DefaultSubscriptions, a negative value turns
	// them off (every run is polled).
	Subscriptions int
	// SubscriptionsPerConnection is the most of them on one connection;
	// 0 means DefaultSubscriptionsPerConnection.
	SubscriptionsPerConnection int
	// WatchAfter is how old a run of a provider that reads instances
	// together must be before it is watched (younger ones are polled);
	// 0 means DefaultWatchAfter, a negative value watches from the trigger.
	WatchAfter time.Duration
	// InstanceDeleteRetry is how long after a failed batch delete of the
	// instances of deleted runs it is tried again, doubling per failure
	// up to an hour; 0 means a minute (instancedelete.go).
	InstanceDeleteRetry time.Duration
}

// DefaultClaimFor is how long a refresher holds the runs it took: long
// enough for a round of refreshes, short enough that the runs of a replica
// that died are refreshed by another within seconds (decision 136).
const DefaultClaimFor = 15 * time.Second

// RunRefresher brings non-final runs up to date until ctx is cancelled, so
// that run lists are true without anyone polling. Each run is read again
// when its NextRefreshAt is due: after 0.5 s while it is young, up to every
// 30 s when old, and with back-off (1 s doubling to 5 minutes) while the
// provider fails. Every DiscoverInterval it also runs DiscoverCronRuns, so
// that instances the provider starts on a cron schedule become runs. serve
// starts it once per process; replicas on one database share the work:
// each due run is claimed by one refresher at a time (ClaimRunsForRefresh),
// and a refresh writes only if nobody wrote the run since it read it. It
// also carries out bulk jobs on runs (BulkTick).
func (s *Service) RunRefresher(ctx context.Context, opts RefresherOptions) {
	if opts.Interval <= 0 {
		opts.Interval = 500 * time.Millisecond
	}
	if opts.Batch <= 0 {
		opts.Batch = 100
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 8
	}
	if opts.DiscoverInterval <= 0 {
		opts.DiscoverInterval = 10 * opts.Interval
	}
	s.startWatching(ctx, opts)
	deletesDone := make(chan struct{})
	go func() {
		defer close(deletesDone)
		s.runInstanceDeletes(ctx, opts.InstanceDeleteRetry)
	}()
	defer func() { <-deletesDone }()
	bulkDone := make(chan struct{})
	go func() {
		defer close(bulkDone)
		s.runBulkJobs(ctx, max(opts.Interval, time.Second))
	}()
	defer func() { <-bulkDone }()
	t := time.NewTicker(opts.Interval)
	defer t.Stop()
	var lastDiscovery time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		held := s.heldMaybe.Load()
		if now := s.now(); now.Sub(lastDiscovery) >= opts.DiscoverInterval {
			lastDiscovery = now
			s.DiscoverCronRuns(ctx)
			s.RetireDrained(ctx)
			held = true
		}
		s.refreshDue(ctx, opts.Batch, opts.Concurrency, opts.ClaimFor)
		if held {
			s.StartHeldRuns(ctx)
		}
	}
}

// RefreshDue claims up to batch runs whose refresh is due and that no other
// refresher holds, refreshes them concurrency at a time, and returns how
// many it read. Failures are recorded on the runs (back-off) and logged,
// never returned.
func (s *Service) RefreshDue(ctx context.Context, batch, concurrency int) int {
	return s.refreshDue(ctx, batch, concurrency, 0)
}

func (s *Service) refreshDue(ctx context.Context, batch, concurrency int, claimFor time.Duration) int {
	if claimFor <= 0 {
		claimFor = DefaultClaimFor
	}
	now := s.now().UTC()
	runs, err := s.store.ClaimRunsForRefresh(ctx, now, now.Add(claimFor), batch)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("runs: claim runs due for refresh", "err", err)
		}
		return 0
	}
	pre := s.readTogether(ctx, runs, concurrency)
	sem := make(chan struct{}, max(concurrency, 1))
	var wg sync.WaitGroup
	for i := range runs {
		r := &runs[i]
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			s.watchRun(ctx, r)
			if _, err := s.refreshFrom(ctx, r, false, pre[r.ID]); err != nil && ctx.Err() == nil {
				s.log.Warn("runs: refresh", "run", r.ID, "err", err)
			}
		}()
	}
	wg.Wait()
	return len(runs)
}
