package api_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestMetrics: GET /metrics is public Prometheus text that counts requests by
// route pattern and status (unmatched paths under "unmatched"), with their
// latency histogram, and reports the process's memory.
func TestMetrics(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	before := scrape(t, w) // the world's fixtures went through the API too
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Measured"}`, a.keyAll).str(t, "id")
	w.must(201, "POST", "/api/workflows/"+wf+"/versions", `{"ir":`+minimalIR+`}`, a.keyAll)
	w.must(201, "POST", "/api/workflows/"+wf+"/versions", `{"ir":`+minimalIR+`}`, a.keyAll)
	w.do("POST", "/api/workflows/"+wf+"/versions", `{"ir":{}}`, a.keyAll) // 400
	w.do("GET", "/api/workflows", "", cred{})                             // 401
	w.do("GET", "/api/no-such-thing", "", cred{})                         // 404
	after := scrape(t, w)

	submit := `method="POST",route="/api/workflows/{workflowId}/versions"`
	for name, want := range map[string]float64{
		`edgeflow_http_requests_total{method="POST",route="/api/workflows",code="201"}`: 1,
		`edgeflow_http_requests_total{` + submit + `,code="201"}`:                       2,
		`edgeflow_http_requests_total{` + submit + `,code="400"}`:                       1,
		`edgeflow_http_requests_total{method="GET",route="/api/workflows",code="401"}`:  1,
		`edgeflow_http_requests_total{method="",route="unmatched",code="404"}`:          1,
		`edgeflow_http_request_duration_seconds_count{` + submit + `}`:                  3,
		`edgeflow_http_request_duration_seconds_bucket{` + submit + `,le="+Inf"}`:       3,
		`edgeflow_http_requests_total{method="GET",route="/metrics",code="200"}`:        1, // the first scrape
	} {
		if got := after[name] - before[name]; got != want {
			t.Errorf("%s grew by %v, want %v", name, got, want)
		}
	}
	if after["edgeflow_http_requests_in_flight"] != 1 { // the scrape itself
		t.Errorf("in flight = %v, want 1", after["edgeflow_http_requests_in_flight"])
	}
	for _, name := range []string{"go_goroutines", "go_memstats_heap_alloc_bytes", "process_resident_memory_bytes", "process_start_time_seconds"} {
		if after[name] <= 0 {
			t.Errorf("%s = %v, want a positive value", name, after[name])
		}
	}
}

// scrape reads /metrics (public: no credentials) into samples by name and
// labels, checking every line is a comment or a sample.
func scrape(t *testing.T, w *world) map[string]float64 {
	t.Helper()
	r := w.do("GET", "/metrics", "", cred{})
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("metrics = %d %q", r.status, r.header.Get("Content-Type"))
	}
	if strings.Contains(string(r.body), w.a.keyAll.key) {
		t.Fatal("metrics carry an API key")
	}
	samples := map[string]float64{}
	line := regexp.MustCompile(`^([a-z_]+)(\{(?:[a-z_]+="[^"]*",?)*\})? (\S+)$`)
	for _, l := range strings.Split(strings.TrimSpace(string(r.body)), "\n") {
		if strings.HasPrefix(l, "# HELP ") || strings.HasPrefix(l, "# TYPE ") {
			continue
		}
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a sample line: %q", l)
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("sample %q: %v", l, err)
		}
		samples[m[1]+m[2]] = v
	}
	return samples
}
