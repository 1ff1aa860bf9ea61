package e2e_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// readCounter counts the instance reads that reach the local edge through a
// proxy: GET …/instances/{id} and the edge's POST …/instances/read (one
// request for many runs), and the event streams opened (GET …/subscribe).
type readCounter struct {
	edge    *failingEdge
	reads   atomic.Int64
	streams atomic.Int64
}

func newReadCounter(t testing.TB) *readCounter {
	c := &readCounter{edge: newFailingEdge(t)}
	c.edge.set(func(r *http.Request) bool {
		p := r.URL.Path
		switch {
		case r.Method == "GET" && strings.HasSuffix(p, "/subscribe"):
			c.streams.Add(1)
		case r.Method == "POST" && strings.HasSuffix(p, "/instances/read"):
			c.reads.Add(1)
		case r.Method == "GET" && strings.Contains(p, "/instances/") && !strings.Contains(p[strings.Index(p, "/instances/")+len("/instances/"):], "/"):
			c.reads.Add(1)
		}
		return false
	})
	return c
}

// streamTimes opens the run stream of s and answers, per run, when its
// final event arrived.
func streamTimes(t *testing.T, s *server) (final func(id string) (time.Time, bool)) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", s.url+"/api/runs/stream", nil)
	req.Header.Set("Authorization", "Bearer "+s.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", res, err)
	}
	var mu sync.Mutex
	at := map[string]time.Time{}
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var ev struct{ ID, Status string }
				json.Unmarshal([]byte(data), &ev)
				if ev.Status == "complete" || ev.Status == "errored" || ev.Status == "terminated" {
					mu.Lock()
					at[ev.ID] = time.Now()
					mu.Unlock()
				}
			}
		}
	}()
	return func(id string) (time.Time, bool) {
		mu.Lock()
		defer mu.Unlock()
		tm, ok := at[id]
		return tm, ok
	}
}

// runStateLatency runs n runs that sleep between two steps on a server whose
// refresher watches instance event streams (subscriptions 0: the default
// bound) or polls (-1), waits for each run's final event on the run stream
// (never reading the run, which would read the instance), and answers the
// time from each instance's end to that event, and the provider reads and
// streams per run.
func runStateLatency(t *testing.T, subscriptions, n int, sleep string) (latencies []time.Duration, readsPerRun, streamsPerRun float64, s *server) {
	counter := newReadCounter(t)
	s = newServer(t, serverOptions{edge: counter.edge, refresherInterval: 200 * time.Millisecond, subscriptions: subscriptions})
	wf, _ := s.workflow("Latency", "workflow", chain("Latency",
		step("before", "return { at: Date.now() };"),
		node("nap", "sleep", "nap", map[string]any{"duration": sleep}),
		step("after", "return { done: true };"),
	))
	s.deploy(wf)
	final := streamTimes(t, s)
	before := counter.reads.Load()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = s.trigger(wf, map[string]any{})
	}
	testenv.WaitFor(t, 3*time.Minute, 100*time.Millisecond, "every run's final event on the run stream", func() (bool, string) {
		for _, id := range ids {
			if _, ok := final(id); !ok {
				return false, "run " + id + " has no final event yet"
			}
		}
		return true, ""
	})
	reads := counter.reads.Load() - before
	for _, id := range ids {
		r := s.run(wf, id) // final: answered from the store
		if r.Status != "complete" || r.EndedAt == nil {
			t.Fatalf("run %s: %+v", id, r)
		}
		got, _ := final(id)
		latencies = append(latencies, got.Sub(*r.EndedAt))
	}
	return latencies, float64(reads) / float64(n), float64(counter.streams.Load()) / float64(n), s
}

// TestRunStateFromEvents: with the refresher watching instance event
// streams, runs on the local edge complete on the run stream from their
// events: a stream is opened per run, and the instance is read only on the
// events that change the run (not on a polling schedule). The latencies and
// reads are logged beside those of polling (docs/runs.md, "How run state
// is followed"); EDGEFLOW_E2E_LATENCY_SLEEP sets the sleep of the runs
// ("3 seconds" by default).
func TestRunStateFromEvents(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	sleep := os.Getenv("EDGEFLOW_E2E_LATENCY_SLEEP")
	if sleep == "" {
		sleep = "3 seconds"
	}
	const n = 4
	evLat, evReads, evStreams, s := runStateLatency(t, 0, n, sleep)
	st := s.dep.WatchStats()
	if st.Watched < n || st.Opened < n {
		t.Fatalf("watch stats %+v: want every one of %d runs watched through a stream", st, n)
	}
	if evStreams < 1 {
		t.Fatalf("%.1f streams per run reached the edge, want at least 1", evStreams)
	}
	testenv.WaitFor(t, 30*time.Second, 50*time.Millisecond, "the watches to end with their runs", func() (bool, string) {
		st := s.dep.WatchStats()
		return st.Open == 0, "open streams: " + itoaE(st.Open)
	})
	pollLat, pollReads, pollStreams, _ := runStateLatency(t, -1, n, sleep)
	if pollStreams != 0 {
		t.Fatalf("polling opened %.1f streams per run", pollStreams)
	}
	t.Logf("sleep %s, %d runs each: events: latency %v, %.1f instance reads and %.1f streams per run; polling: latency %v, %.1f instance reads per run",
		sleep, n, evLat, evReads, evStreams, pollLat, pollReads)
}

func itoaE(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
