package deploy_test

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// subscribingProvider is the fake provider with instance event streams: a
// stream gives the events sent to its instance with send, until closed.
type subscribingProvider struct {
	*fakeProvider
	mu      sync.Mutex
	streams map[string]*fakeStream // by instance id, the last opened
	opened  int
}

type fakeStream struct {
	ch   chan deploy.InstanceEvent
	once sync.Once
	done chan struct{}
}

func (s *fakeStream) Next() (deploy.InstanceEvent, error) {
	select {
	case ev := <-s.ch:
		return ev, nil
	case <-s.done:
		return deploy.InstanceEvent{}, io.EOF
	}
}

func (s *fakeStream) Close() error {
	s.once.Do(func() { close(s.done) })
	return nil
}

func (p *subscribingProvider) SubscribeInstance(_ context.Context, _, id, _ string) (deploy.InstanceEventStream, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := &fakeStream{ch: make(chan deploy.InstanceEvent, 8), done: make(chan struct{})}
	p.streams[id] = s
	p.opened++
	return s, nil
}

func (p *subscribingProvider) send(id, typ string) bool {
	p.mu.Lock()
	s := p.streams[id]
	p.mu.Unlock()
	if s == nil {
		return false
	}
	s.ch <- deploy.InstanceEvent{ID: "1", Type: typ}
	return true
}

// TestWatchBound: the refresher keeps at most Subscriptions streams open;
// an event that ends a run makes one read of it (the run is complete at
// once, not at its next poll), and its place goes to a run that was polled.
func TestWatchBound(t *testing.T) {
	t.Parallel()
	w := newRunWorld(t)
	prov := &subscribingProvider{fakeProvider: w.prov, streams: map[string]*fakeStream{}}
	svc, err := deploy.New(deploy.Options{Store: w.st, Secrets: fixedSecrets{},
		NewProvider: func(deploy.ProviderConfig) (deploy.Provider, error) { return prov, nil }})
	must(t, err)
	var runs []*edgeflow.Run
	for range 5 {
		r := w.run(t, edgeflow.RunRunning, "", "running", nil)
		due := time.Now().UTC()
		r.NextRefreshAt = &due
		must(t, w.st.UpdateRun(context.Background(), r))
		runs = append(runs, r)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc.RunRefresher(ctx, deploy.RefresherOptions{Interval: 20 * time.Millisecond, Subscriptions: 3})
	}()
	t.Cleanup(func() { stop(); <-done })
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "three watches", func() (bool, string) {
		st := svc.WatchStats()
		return st.Open == 3, fmt.Sprintf("%+v", st)
	})
	// Every run was read (the two unwatched ones are polled): the bound holds.
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "every run read", func() (bool, string) {
		for _, r := range runs {
			got, err := w.st.FindRunByID(context.Background(), r.WorkflowID, r.ID)
			if err != nil || got.NextRefreshAt == nil || !got.NextRefreshAt.After(*r.NextRefreshAt) {
				return false, "run " + r.ID + " not read yet"
			}
		}
		return true, ""
	})
	if st := svc.WatchStats(); st.Open != 3 || st.Watched != 3 {
		t.Fatalf("watch stats %+v: want 3 open of 3 watched", st)
	}
	// a watch counts as open once taken, before its stream is: wait for a stream
	var watched *edgeflow.Run
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "a watched run's stream", func() (bool, string) {
		prov.mu.Lock()
		defer prov.mu.Unlock()
		for _, r := range runs {
			if _, ok := prov.streams[r.InstanceID]; ok {
				watched = r
				return true, ""
			}
		}
		return false, fmt.Sprintf("%d streams opened", prov.opened)
	})
	w.prov.set(watched.InstanceID, "complete", nil)
	if !prov.send(watched.InstanceID, "workflow_completed") {
		t.Fatal("no stream to send to")
	}
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "the run complete from its event, its place taken", func() (bool, string) {
		got, err := w.st.FindRunByID(context.Background(), watched.WorkflowID, watched.ID)
		st := svc.WatchStats()
		if err != nil || got.Status != edgeflow.RunComplete {
			return false, fmt.Sprintf("run %v %v", got, err)
		}
		return st.Watched == 4 && st.Open == 3, fmt.Sprintf("%+v", st)
	})
}

// togetherSubscriber is a subscribing provider that also reads many
// instances in one request, as the local edge does.
type togetherSubscriber struct{ *subscribingProvider }

func (p togetherSubscriber) GetInstances(ctx context.Context, wf string, ids []string) ([]deploy.InstanceResult, error) {
	out := make([]deploy.InstanceResult, len(ids))
	for i, id := range ids {
		out[i].Instance, out[i].Err = p.GetInstance(ctx, wf, id)
	}
	return out, nil
}

func (p *subscribingProvider) streamCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.opened
}

// TestWatchAfterYoung: on a provider that reads instances together, a run
// is polled while it is young and watched once it is WatchAfter old; a run
// that ends young is never watched (a burst of short runs opens no stream).
// Its twin, TestWatchBound, shows a provider that reads one instance per
// request watching a run at once.
func TestWatchAfterYoung(t *testing.T) {
	t.Parallel()
	w := newRunWorld(t)
	sub := &subscribingProvider{fakeProvider: w.prov, streams: map[string]*fakeStream{}}
	prov := togetherSubscriber{sub}
	svc, err := deploy.New(deploy.Options{Store: w.st, Secrets: fixedSecrets{},
		NewProvider: func(deploy.ProviderConfig) (deploy.Provider, error) { return prov, nil }})
	must(t, err)
	// Two runs due now: "short" ends at its first read, "long" goes on.
	short := w.run(t, edgeflow.RunRunning, "", "complete", nil)
	long := w.run(t, edgeflow.RunRunning, "", "running", nil)
	for _, r := range []*edgeflow.Run{short, long} {
		due := time.Now().UTC()
		r.NextRefreshAt = &due
		must(t, w.st.UpdateRun(context.Background(), r))
	}
	const after = 1500 * time.Millisecond
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc.RunRefresher(ctx, deploy.RefresherOptions{Interval: 20 * time.Millisecond, WatchAfter: after})
	}()
	t.Cleanup(func() { stop(); <-done })
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "the short run complete from a poll", func() (bool, string) {
		got, err := w.st.FindRunByID(context.Background(), short.WorkflowID, short.ID)
		return err == nil && got.Status == edgeflow.RunComplete, fmt.Sprintf("%v %v", got, err)
	})
	// The long run was read (its next read is on the young schedule) and not watched yet.
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "the long run read", func() (bool, string) {
		got, err := w.st.FindRunByID(context.Background(), long.WorkflowID, long.ID)
		return err == nil && got.NextRefreshAt.After(*long.NextRefreshAt), fmt.Sprintf("%v %v", got, err)
	})
	if time.Since(long.CreatedAt) < after {
		if st := svc.WatchStats(); st.Watched != 0 || sub.streamCount() != 0 {
			t.Fatalf("a young run was watched: %+v, %d streams", st, sub.streamCount())
		}
	}
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "the long run watched once old enough", func() (bool, string) {
		st := svc.WatchStats()
		return st.Open == 1 && sub.streamCount() == 1, fmt.Sprintf("%+v", st)
	})
	if age := time.Since(long.CreatedAt); age < after {
		t.Fatalf("watched at age %v, before WatchAfter %v", age, after)
	}
	// Its end comes from its stream.
	w.prov.set(long.InstanceID, "complete", nil)
	if !sub.send(long.InstanceID, "workflow_completed") {
		t.Fatal("no stream to send to")
	}
	testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, "the long run complete from its event", func() (bool, string) {
		got, err := w.st.FindRunByID(context.Background(), long.WorkflowID, long.ID)
		return err == nil && got.Status == edgeflow.RunComplete, fmt.Sprintf("%v %v", got, err)
	})
	if st := svc.WatchStats(); st.Watched != 1 {
		t.Fatalf("watch stats %+v: want only the long run watched", st)
	}
}
