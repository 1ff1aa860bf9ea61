package deploy

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// fakeWorker answers a workflow worker's create path as generated code does
// (saying it takes batches, unless old: then it takes a batch for a single
// create, as a worker generated before batches does), recording every
// instance it creates and every request; failBatches makes each batch
// create its instances and then answer 500.
type fakeWorker struct {
	t           *testing.T
	old         bool
	failBatches bool
	gate        chan struct{} // when set, a request waits for it to close before it is answered
	arrived     atomic.Int32  // requests received
	firstSize   atomic.Int32  // instances the first request asks for

	mu        sync.Mutex
	instances map[string]string // id -> params
	requests  int
	batches   []int // sizes
}

func (f *fakeWorker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if f.gate != nil && f.firstSize.Load() == 0 {
		f.arrived.Add(1)
		n := 1
		if r.Header.Get(codegen.BatchHeader) == "1" {
			n = strings.Count(string(body), `"id"`)
		}
		f.firstSize.Store(int32(n))
	} else {
		f.arrived.Add(1)
	}
	if f.gate != nil {
		<-f.gate
	}
	if r.URL.Path != codegen.CreatePath || r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer tok" {
		f.t.Errorf("unexpected request %s %s %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		http.Error(w, "no", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	if r.Header.Get(codegen.BatchHeader) == "1" && !f.old {
		var items []struct {
			ID     string          `json:"id"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(body, &items); err != nil {
			f.t.Errorf("batch body: %v", err)
		}
		ids := []string{}
		for _, it := range items {
			if _, dup := f.instances[it.ID]; dup {
				f.t.Errorf("instance %s created twice", it.ID)
			}
			f.instances[it.ID] = string(it.Params)
			ids = append(ids, it.ID)
		}
		f.batches = append(f.batches, len(items))
		if f.failBatches {
			http.Error(w, `{"message":"boom"}`, http.StatusInternalServerError)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"instanceIds": ids})
		return
	}
	id := r.Header.Get(codegen.InstanceIDHeader)
	if id == "" {
		f.t.Errorf("a request without an instance id reached a worker that does not take batches")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"message":"X-Edgeflow-Instance-Id must name the instance"}`)
		return
	}
	if _, dup := f.instances[id]; dup {
		w.WriteHeader(http.StatusConflict)
		fmt.Fprintf(w, `{"message":"instance '%s' already exists"}`, id)
		return
	}
	f.instances[id] = string(body)
	if !f.old {
		w.Header().Set(codegen.BatchesHeader, "1")
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"instanceId": id})
}

// handlerTransport answers a client's requests with a handler of the same
// process, without a socket: the batcher's tests run in a synctest bubble,
// where a goroutine waiting on a socket is never durably blocked.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

func batchService(f *fakeWorker) (*Service, *edgeflow.Deployment) {
	s := &Service{http: &http.Client{Transport: handlerTransport{f}}, timeout: 10 * time.Second, log: slog.New(slog.DiscardHandler)}
	return s, &edgeflow.Deployment{ID: "dep_1", URL: "http://worker.test/"}
}

// createMany creates n instances at once and returns their errors.
func createMany(s *Service, d *edgeflow.Deployment, prefix string, n int) []error {
	return createRange(s, d, prefix, 0, n)
}

// createRange creates instances from to to-1 at once and returns their
// errors.
func createRange(s *Service, d *edgeflow.Deployment, prefix string, from, to int) []error {
	errs := make([]error, to-from)
	var wg sync.WaitGroup
	for i := from; i < to; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i-from] = s.createLocal(d, "tok", fmt.Sprintf("%s%d", prefix, i), fmt.Appendf(nil, `{"n":%d}`, i))
		}()
	}
	wg.Wait()
	return errs
}

func checkCreated(t *testing.T, f *fakeWorker, prefix string, n int, errs []error) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, err := range errs {
		id := fmt.Sprintf("%s%d", prefix, i)
		if err != nil {
			t.Errorf("%s: %v", id, err)
		}
		if got, want := f.instances[id], fmt.Sprintf(`{"n":%d}`, i); got != want {
			t.Errorf("%s was created with params %q, want %q", id, got, want)
		}
	}
}

// TestCreatesBatched: once a single create's answer said the worker takes
// batches, creates that arrive while one is in flight go together in the
// next request; each gets its instance with its params.
func TestCreatesBatched(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeWorker{t: t, instances: map[string]string{}}
		s, d := batchService(f)
		// The first create goes alone and learns that the worker takes batches.
		checkCreated(t, f, "run_first", 1, createMany(s, d, "run_first", 1))
		f.gate = make(chan struct{})
		first, rest := make(chan []error), make(chan []error)
		go func() { first <- createRange(s, d, "run_a", 0, 1) }()
		synctest.Wait() // its request is held
		go func() { rest <- createRange(s, d, "run_a", 1, 40) }()
		// The next request is held until every other create is queued
		// behind it: until every goroutine of the bubble waits.
		synctest.Wait()
		b := s.batchers.of(d.ID)
		b.mu.Lock()
		queued := len(b.queue)
		b.mu.Unlock()
		if f.arrived.Load() != 2 || queued == 0 || int(f.firstSize.Load())+queued != 40 {
			t.Errorf("while the second request is held: %d requests arrived, %d creates in it, %d queued; want 2, and the other creates of 40 queued",
				f.arrived.Load(), f.firstSize.Load(), queued)
		}
		close(f.gate)
		errs := append(<-first, <-rest...)
		checkCreated(t, f, "run_a", 40, errs)
		if f.requests != 3 || len(f.batches) == 0 {
			t.Errorf("%d requests (batches %v); want the first create, one more request and one batch of the creates queued behind it", f.requests, f.batches)
		}
	})
}

// TestCreatesOfAnOldWorker: a worker that never said it takes batches gets
// its creates one by one, however many arrive together.
func TestCreatesOfAnOldWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeWorker{t: t, old: true, instances: map[string]string{}}
		s, d := batchService(f)
		for round := range 3 {
			prefix := fmt.Sprintf("run_old%d_", round)
			checkCreated(t, f, prefix, 30, createMany(s, d, prefix, 30))
		}
		if len(f.batches) != 0 || f.requests != 90 {
			t.Errorf("%d requests, batches %v; want 90 single creates", f.requests, f.batches)
		}
	})
}

// TestCreatesAfterAFailedBatch: a batch that fails (here after creating its
// instances) is created again one by one, where the instances it created
// count as created; each create ends without an error.
func TestCreatesAfterAFailedBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeWorker{t: t, failBatches: true, instances: map[string]string{}}
		s, d := batchService(f)
		for round := range 3 {
			prefix := fmt.Sprintf("run_fail%d_", round)
			// The round's first request is held until the other creates
			// are queued behind it, as a burst finds one in flight.
			f.gate = make(chan struct{})
			done := make(chan []error)
			go func() { done <- createMany(s, d, prefix, 30) }()
			synctest.Wait()
			close(f.gate)
			checkCreated(t, f, prefix, 30, <-done)
		}
		if len(f.batches) == 0 {
			t.Error("no batch was tried")
		}
	})
}

// TestCreateRefused: a worker's refusal reaches the trigger as a provider
// error; a worker that cannot be reached as provider_unavailable.
func TestCreateRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message":"the engine is full"}`, http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	s := &Service{http: srv.Client(), timeout: 10 * time.Second, log: slog.New(slog.DiscardHandler)}
	err := s.createLocal(&edgeflow.Deployment{ID: "dep_2", URL: srv.URL}, "tok", "run_x", []byte(`{}`))
	if e, ok := err.(*edgeflow.Error); !ok || e.Code != edgeflow.EProviderError || e.Message != "create the workflow instance: the worker answered 503: the engine is full" {
		t.Errorf("refused create: %v", err)
	}
	srv.Close()
	err = s.createLocal(&edgeflow.Deployment{ID: "dep_2", URL: srv.URL}, "tok", "run_y", []byte(`{}`))
	if e, ok := err.(*edgeflow.Error); !ok || e.Code != edgeflow.EProviderUnavailable {
		t.Errorf("unreachable worker: %v", err)
	}
}
