package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// BenchmarkDeploy50Nodes deploys a 50-node workflow to the local edge
// through the API, end to end (credentials check, compile, bundle, upload,
// Workflow, URL, record). Each iteration deploys a new version.
func BenchmarkDeploy50Nodes(b *testing.B) {
	s := newServer(b, serverOptions{})
	ir := func(i int) map[string]any {
		nodes := []map[string]any{step("n0", fmt.Sprintf("return { v: %d };", i))}
		for j := 1; j < 50; j++ {
			nodes = append(nodes, step(fmt.Sprintf("n%d", j), fmt.Sprintf("return { v: {{n%d.v}} + 1 };", j-1)))
		}
		return chain("Fifty", nodes...)
	}
	wf, _ := s.workflow("Fifty", "workflow", ir(0))
	s.deploy(wf)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s.version(wf, ir(i+1))
		b.StartTimer()
		s.deploy(wf)
	}
	b.StopTimer()
	id := s.trigger(wf, map[string]any{})
	jsonEqual(b, s.waitStatus(wf, id, "complete", 60*time.Second).Output, fmt.Sprintf(`{"v":%d}`, b.N+49))
}

func threeSteps() map[string]any {
	return chain("Three",
		step("a", "return { n: event.payload.n ?? 0 };"),
		step("b", "return { n: {{a.n}} + 1 };"),
		step("c", "return { n: {{b.n}} * 2 };"),
	)
}

// BenchmarkTrigger measures trigger → instanceId answers of a deployed
// 3-step workflow through the API; it reports the median.
func BenchmarkTrigger(b *testing.B) {
	s := newServer(b, serverOptions{})
	wf, _ := s.workflow("Three", "workflow", threeSteps())
	s.deploy(wf)
	for i := 0; i < 5; i++ { // warm up
		s.trigger(wf, map[string]any{"n": i})
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		s.trigger(wf, map[string]any{"n": i})
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "ms-p90")
}

// BenchmarkTriggerDirect is BenchmarkTrigger's baseline: instance
// creation straight on the local edge's REST API.
func BenchmarkTriggerDirect(b *testing.B) {
	s := newServer(b, serverOptions{})
	wf, _ := s.workflow("Three", "workflow", threeSteps())
	d := s.deploy(wf)
	cf, err := cloudflare.New(cloudflare.Options{BaseURL: shared.edge.APIBaseURL(), APIToken: shared.edge.Token(),
		AccountID: s.connectionAccount()}) // the root token administers the organization's account
	if err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := cf.CreateInstance(context.Background(), d.WorkflowName, fmt.Sprintf("direct-%d-%d", time.Now().UnixNano(), i),
			json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
}

const (
	burstRuns        = 200
	burstConcurrency = 20
)

// BenchmarkBurst200 triggers 200 runs of a 3-step workflow in a burst and
// waits until all are complete, through edgeflow (trigger, then GET of each
// run, which refreshes it live) and directly on the local edge (create
// instance, then GET of each instance) with the same concurrency and
// polling; it reports both times and their ratio (edgeflow's overhead).
func BenchmarkBurst200(b *testing.B) {
	s := newServer(b, serverOptions{})
	wf, _ := s.workflow("Burst", "workflow", threeSteps())
	d := s.deploy(wf)
	cf, err := cloudflare.New(cloudflare.Options{BaseURL: shared.edge.APIBaseURL(), APIToken: shared.edge.Token(),
		AccountID: s.connectionAccount(), HTTPClient: &http.Client{Timeout: time.Minute}})
	if err != nil {
		b.Fatal(err)
	}
	var viaAPI, direct time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		directBurst := func() time.Duration {
			return burst(b, func(n int) string {
				id := fmt.Sprintf("direct-%d-%d-%d", time.Now().UnixNano(), i, n)
				if _, err := cf.CreateInstance(context.Background(), d.WorkflowName, id, json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))); err != nil {
					b.Error(err)
				}
				return id
			}, func(id string) bool {
				st, err := cf.GetInstance(context.Background(), d.WorkflowName, id)
				if err != nil {
					b.Error(err)
					return true
				}
				if st.Status == "errored" || st.Status == "terminated" {
					b.Errorf("instance %s is %s", id, st.Status)
				}
				return edgeflow.RunIsFinal(st.Status)
			})
		}
		if i%2 == 0 {
			direct += directBurst()
		}
		viaAPI += burst(b, func(n int) string {
			return s.trigger(wf, map[string]any{"n": n})
		}, func(id string) bool {
			r := s.run(wf, id)
			if r.Status == "errored" || r.Status == "terminated" {
				b.Errorf("run %s is %s", id, r.Status)
			}
			return edgeflow.RunIsFinal(r.Status)
		})
		if i%2 == 1 {
			direct += directBurst()
		}
	}
	b.StopTimer()
	b.ReportMetric(viaAPI.Seconds()/float64(b.N), "s-edgeflow")
	b.ReportMetric(direct.Seconds()/float64(b.N), "s-direct")
	b.ReportMetric(viaAPI.Seconds()/direct.Seconds(), "overhead-x")
}

// burst starts burstRuns runs with start (burstConcurrency at a time) and
// polls each with done until it is final; it returns the time from the
// first start to the last completion.
func burst(b *testing.B, start func(n int) string, done func(id string) bool) time.Duration {
	b.Helper()
	t0 := time.Now()
	ids := make([]string, burstRuns)
	var wg sync.WaitGroup
	sem := make(chan struct{}, burstConcurrency)
	for n := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			ids[n] = start(n)
		}()
	}
	wg.Wait()
	pending := ids
	deadline := time.Now().Add(5 * time.Minute)
	for len(pending) > 0 {
		if time.Now().After(deadline) {
			b.Fatalf("%d runs not complete after 5 minutes", len(pending))
		}
		var mu sync.Mutex
		var still []string
		for _, id := range pending {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				if !done(id) {
					mu.Lock()
					still = append(still, id)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		pending = still
		if len(pending) > 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
	return time.Since(t0)
}
