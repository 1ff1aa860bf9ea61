package api

import (
	"bufio"
	"fmt"
	"math"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Metrics in the Prometheus text format at GET /metrics (docs/operations.md):
// requests by route and status, their latency, requests in flight, and the
// process's goroutines, heap and resident memory. Routes are the route
// table's patterns (a bounded set); Studio's files and client routes count
// under route "studio", other requests no route matches under route
// "unmatched". Recording a request is a few atomic adds.

// latencyBuckets are the upper bounds (seconds) of the latency histogram.
var latencyBuckets = [...]float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// routeMetrics are one route's counters.
type routeMetrics struct {
	method, route string

	mu    sync.RWMutex
	codes map[int]*atomic.Uint64

	buckets [len(latencyBuckets)]atomic.Uint64 // counts per bucket (not cumulative)
	count   atomic.Uint64
	sumNano atomic.Uint64
}

func (m *routeMetrics) observe(status int, d time.Duration) {
	m.mu.RLock()
	c := m.codes[status]
	m.mu.RUnlock()
	if c == nil {
		m.mu.Lock()
		if c = m.codes[status]; c == nil {
			c = new(atomic.Uint64)
			m.codes[status] = c
		}
		m.mu.Unlock()
	}
	c.Add(1)
	sec := d.Seconds()
	for i, le := range latencyBuckets {
		if sec <= le {
			m.buckets[i].Add(1)
			break
		}
	}
	m.count.Add(1)
	m.sumNano.Add(uint64(max(d, 0)))
}

// metrics are the server's.
type metrics struct {
	start    time.Time
	inFlight atomic.Int64
	// streamsRefused counts the streams refused at a limit (streamlimit.go).
	streamsRefused atomic.Uint64
	routes         map[string]*routeMetrics // by "METHOD pattern"
	unmatched      *routeMetrics
	order          []*routeMetrics
}

func newMetrics(routes []Route) *metrics {
	m := &metrics{start: time.Now(), routes: make(map[string]*routeMetrics, len(routes))}
	for _, rt := range routes {
		rm := &routeMetrics{method: rt.Method, route: rt.Pattern, codes: map[int]*atomic.Uint64{}}
		m.routes[rt.Method+" "+rt.Pattern] = rm
		m.order = append(m.order, rm)
	}
	m.unmatched = &routeMetrics{route: "unmatched", codes: map[int]*atomic.Uint64{}}
	m.order = append(m.order, m.unmatched)
	// Studio's files and client routes (studio.go) count under route "studio".
	studio := &routeMetrics{route: studioMetricsRoute, codes: map[int]*atomic.Uint64{}}
	m.routes[studioMetricsRoute] = studio
	m.order = append(m.order, studio)
	sort.SliceStable(m.order, func(i, j int) bool {
		if m.order[i].route != m.order[j].route {
			return m.order[i].route < m.order[j].route
		}
		return m.order[i].method < m.order[j].method
	})
	return m
}

// observe records a request answered with status after d; pattern is the
// mux pattern that matched ("" for none).
func (m *metrics) observe(pattern string, status int, d time.Duration) {
	rm := m.routes[pattern]
	if rm == nil {
		rm = m.unmatched
	}
	rm.observe(status, d)
}

// handleMetrics writes the metrics in the Prometheus text format 0.0.4.
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	b := bufio.NewWriter(w)
	defer b.Flush()
	m := s.metrics

	help(b, "edgeflow_http_requests_total", "counter", "HTTP requests answered, by method, route pattern and status code.")
	for _, rm := range m.order {
		rm.mu.RLock()
		codes := make([]int, 0, len(rm.codes))
		for c := range rm.codes {
			codes = append(codes, c)
		}
		rm.mu.RUnlock()
		sort.Ints(codes)
		for _, c := range codes {
			rm.mu.RLock()
			n := rm.codes[c].Load()
			rm.mu.RUnlock()
			fmt.Fprintf(b, "edgeflow_http_requests_total{%s,code=\"%d\"} %d\n", rm.labels(), c, n)
		}
	}
	help(b, "edgeflow_http_request_duration_seconds", "histogram", "Time to answer HTTP requests, by method and route pattern.")
	for _, rm := range m.order {
		count := rm.count.Load()
		if count == 0 {
			continue
		}
		var cum uint64
		for i, le := range latencyBuckets {
			cum += rm.buckets[i].Load()
			fmt.Fprintf(b, "edgeflow_http_request_duration_seconds_bucket{%s,le=\"%s\"} %d\n", rm.labels(), formatFloat(le), cum)
		}
		fmt.Fprintf(b, "edgeflow_http_request_duration_seconds_bucket{%s,le=\"+Inf\"} %d\n", rm.labels(), count)
		fmt.Fprintf(b, "edgeflow_http_request_duration_seconds_sum{%s} %s\n", rm.labels(), formatFloat(float64(rm.sumNano.Load())/1e9))
		fmt.Fprintf(b, "edgeflow_http_request_duration_seconds_count{%s} %d\n", rm.labels(), count)
	}
	help(b, "edgeflow_http_requests_in_flight", "gauge", "HTTP requests being answered.")
	fmt.Fprintf(b, "edgeflow_http_requests_in_flight %d\n", m.inFlight.Load())
	help(b, "edgeflow_local_edge_up", "gauge", "1 when the server has a local edge (its own, or a shared one by --edge-url), else 0.")
	up := 0
	if s.LocalEdge != nil {
		up = 1
	}
	fmt.Fprintf(b, "edgeflow_local_edge_up %d\n", up)
	help(b, "edgeflow_local_edge_errors_total", "counter", "Errors of the local edge's workerd and miniflare, by kind (docs/operations.md, \"Errors of the local edge\").")
	for _, c := range edgeErrorCounts(s.LocalEdge) {
		fmt.Fprintf(b, "edgeflow_local_edge_errors_total{kind=%q} %d\n", c.kind, c.n)
	}
	help(b, "edgeflow_streams_open", "gauge", "Server-Sent Events streams open in this process.")
	fmt.Fprintf(b, "edgeflow_streams_open %d\n", s.streamsOpen())
	help(b, "edgeflow_streams_limit", "gauge", "The most streams this process keeps open at once.")
	fmt.Fprintf(b, "edgeflow_streams_limit %d\n", s.Streams.Total)
	help(b, "edgeflow_streams_refused_total", "counter", "Streams refused because a limit was reached (per user, API key, address or process).")
	fmt.Fprintf(b, "edgeflow_streams_refused_total %d\n", m.streamsRefused.Load())

	if s.MoreMetrics != nil {
		s.MoreMetrics(b)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	help(b, "go_goroutines", "gauge", "Goroutines that currently exist.")
	fmt.Fprintf(b, "go_goroutines %d\n", runtime.NumGoroutine())
	help(b, "go_memstats_heap_alloc_bytes", "gauge", "Bytes of allocated heap objects.")
	fmt.Fprintf(b, "go_memstats_heap_alloc_bytes %d\n", ms.HeapAlloc)
	help(b, "go_gc_cycles_total", "counter", "Completed garbage collection cycles.")
	fmt.Fprintf(b, "go_gc_cycles_total %d\n", ms.NumGC)
	if rss, ok := residentBytes(); ok {
		help(b, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.")
		fmt.Fprintf(b, "process_resident_memory_bytes %d\n", rss)
	}
	help(b, "process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch, in seconds.")
	fmt.Fprintf(b, "process_start_time_seconds %s\n", formatFloat(float64(m.start.UnixNano())/1e9))
	return nil
}

func (rm *routeMetrics) labels() string {
	return `method="` + rm.method + `",route="` + rm.route + `"`
}

func help(b *bufio.Writer, name, typ, text string) {
	fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", name, text, name, typ)
}

func formatFloat(f float64) string {
	if math.IsInf(f, 1) {
		return "+Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// residentBytes reads the resident set size from /proc (Linux only).
func residentBytes() (int64, bool) {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(data), &size, &resident); err != nil {
		return 0, false
	}
	return resident * int64(os.Getpagesize()), true
}

// edgeErrorKinds are the kinds of the local edge's errors, shown at 0 before
// the first (edge/src/health.mjs).
var edgeErrorKinds = []string{"fatal", "fd_limit", "miniflare", "runtime", "sqlite_cantopen", "sqlite_nomem"}

type kindCount struct {
	kind string
	n    uint64
}

// edgeErrorCounts are the error counts of the server's own edge by kind
// (every known kind, and any other it reported), sorted; none for an edge
// it does not run (a shared one's errors are counted by its own process).
func edgeErrorCounts(e any) []kindCount {
	ec, ok := e.(interface{ ErrorCounts() map[string]uint64 })
	if !ok {
		return nil
	}
	got := ec.ErrorCounts()
	for _, k := range edgeErrorKinds {
		if _, ok := got[k]; !ok {
			got[k] = 0
		}
	}
	out := make([]kindCount, 0, len(got))
	for k, n := range got {
		out = append(out, kindCount{k, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].kind < out[j].kind })
	return out
}
