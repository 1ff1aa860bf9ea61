package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// lockedBuffer collects a logger's output from the edge's reader goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// records answers the JSON log records written so far.
func (l *lockedBuffer) records() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(l.b.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// blockingKinds are the edge-error kinds that stop a group running
// instances (docs/edge.md, "Errors of workerd").
var blockingKinds = []string{"sqlite_nomem", "sqlite_cantopen", "fd_limit", "fatal"}

// faultFileLimit is the file limit of TestEdgeFaultInstanceOpens's workerds.
const faultFileLimit = 320

// TestEdgeFaultInstanceOpens is issue 39's fault test: a workerd made to fail
// its instance opens (its file limit lowered through DATA/workerd.nofile,
// with archiving and cycling off so that nothing releases descriptors) gives
// ERROR lines with kind, group and account in edgeflow's log, counts on
// /metrics and a /readyz that is not ok; no run is left queued unreported
// (the runtime refuses the creates it cannot open: the trigger answers 502
// and makes no run); after the limit is lifted and the group restarted
// (POST /__edge/groups/<id>/restart) every accepted run has completed, each
// run's step ran exactly once (counted by a server the step calls), new
// runs complete, and both /readyz are ok again.
func TestEdgeFaultInstanceOpens(t *testing.T) {
	requireEdge(t)
	script, why := edgeScript()
	if why != "" {
		testenv.Missing(t, "%s", why)
	}
	t.Setenv("EDGEFLOW_EDGE_ARCHIVE", "off")
	t.Setenv("EDGEFLOW_EDGE_CYCLE", "off")

	// The server each run's step calls once: hits[n] counts the calls of run n.
	var mu sync.Mutex
	hits := map[int]int{}
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil {
			http.Error(w, "n", 400)
			return
		}
		mu.Lock()
		hits[n]++
		mu.Unlock()
		io.WriteString(w, "ok")
	})}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })

	dataDir, err := os.MkdirTemp(shared.dataDir, "faultedge-")
	if err != nil {
		t.Fatal(err)
	}
	nofile := filepath.Join(dataDir, "workerd.nofile")
	if err := os.WriteFile(nofile, []byte(strconv.Itoa(faultFileLimit)), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	allow, err := netguard.ParseAllowList(allowedHost)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	edge, err := localedge.Start(ctx, localedge.Options{Script: script, DataDir: dataDir,
		Logger: slog.New(slog.NewJSONHandler(logs, nil)), AllowHosts: allow, SecretKey: testSecretKey})
	if err != nil {
		t.Fatalf("start the edge: %v", err)
	}
	t.Cleanup(func() { edge.Close() })

	s := newServer(t, serverOptions{localEdge: edge, refresherInterval: 500 * time.Millisecond,
		stuckAfter: 5 * time.Second, stuckFailAfter: time.Hour})
	wf, _ := s.workflow("Counted", "workflow", chain("Counted",
		step("call", fmt.Sprintf(`const res = await fetch("http://%s/hit?n=" + event.payload.n); return { n: event.payload.n, said: await res.text() };`, ln.Addr())),
	))
	s.deploy(wf)

	blocking := func() uint64 {
		var n uint64
		counts := edge.ErrorCounts()
		for _, k := range blockingKinds {
			n += counts[k]
		}
		return n
	}
	// Push runs until the edge reports a blocking error, then a few more
	// that the failing workerd cannot start. A trigger the edge refuses
	// (its create failed in workerd) answers 502 and makes no run.
	runs := map[int]string{}
	refused := 0
	trigger := func(n int) {
		r := s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": map[string]any{"n": n}})
		switch r.status {
		case 201:
			runs[n] = r.str("id")
		case 502:
			refused++
			wantError(t, r, 502, "provider_error")
		default:
			t.Fatalf("trigger %d = %d %s", n, r.status, r.body)
		}
	}
	// The runs are paced, at most a few not yet at their step at once: a
	// run in flight when the descriptors run out cannot go on (its step's
	// call needs one), so on a slow machine an unpaced burst would leave
	// hundreds of runs waiting on a workerd that cannot serve them.
	stepped := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(hits)
	}
	n := 0
	for ; blocking() == 0; n++ {
		if n >= 1500 {
			t.Fatalf("no blocking edge error after %d runs under a file limit of %d (errors %v)", n, faultFileLimit, edge.ErrorCounts())
		}
		testenv.WaitFor(t, 2*time.Minute, 20*time.Millisecond, "the runs in flight at their step", func() (bool, string) {
			return len(runs)-stepped() <= 8 || blocking() > 0, fmt.Sprintf("%d accepted, %d at their step", len(runs), stepped())
		})
		if blocking() > 0 {
			break
		}
		trigger(n)
	}
	failedAt := n
	for ; n < failedAt+10; n++ {
		trigger(n)
	}
	t.Logf("first blocking error after %d triggers; %d refused; errors %v", failedAt, refused, edge.ErrorCounts())

	// No accepted run is left queued unreported: on this runtime a create
	// that workerd cannot open is refused (the trigger answers 502 and makes
	// no run), and every run it accepted before runs to its end. (The
	// stuck-queued rule for a create a provider accepts and never starts is
	// TestStuckQueuedRule in internal/deploy.)
	if len(runs) < 100 {
		if listed := len(s.runs(wf)); listed != len(runs) {
			t.Fatalf("%d runs listed, want the %d accepted", listed, len(runs))
		}
	}
	// A read of a run whose workerd is out of descriptors answers 502
	// provider_error (the workerd cannot take the read's connection): a
	// clear answer that the edge cannot serve the run, not a run left
	// silently queued. A run in flight when the descriptors ran out answers
	// so until the group restarts below; on a loaded machine some are.
	settle := func(id string) {
		testenv.WaitFor(t, 2*time.Minute, 100*time.Millisecond, "run "+id+": ended, reported stuck or refused by the failing edge", func() (bool, string) {
			r := s.do("GET", "/api/workflows/"+wf+"/runs/"+id, nil)
			if r.status == 502 {
				wantError(t, r, 502, "provider_error")
				return true, ""
			}
			if r.status != 200 {
				t.Fatalf("GET run %s = %d %s", id, r.status, r.body)
			}
			var got run
			r.into(&got)
			return got.Status != "queued" && got.Status != "running" || got.StatusDetail == "stuck", got.Status + " " + got.StatusDetail
		})
	}
	for _, id := range runs {
		settle(id)
	}

	// Once every accepted run has ended, a trigger is refused with a new
	// blocking error, which no instance ending can follow: /readyz below
	// cannot have turned ok through an instance that was still running.
	// The runs' ends may have given the workerd back a descriptor or two
	// (their connections close), so a trigger may still be accepted: it
	// takes its instance's files for good (archiving is off), and once it
	// has ended the next one is tried. How many are accepted depends on how
	// many descriptors the ended runs gave back: with two shards on a loaded
	// machine, 20 and more. Each accepted instance keeps at least one of its
	// workerd's descriptors, so no more than the file limit of every shard's
	// workerd can be accepted before one is refused.
	maxTries := faultFileLimit * edgeShardMax()
	for tries := 0; ; tries++ {
		if tries == maxTries {
			t.Fatalf("%d triggers with every accepted run ended, none refused (errors %v)", tries, edge.ErrorCounts())
		}
		refusedBefore := refused
		k := n
		trigger(n)
		n++
		if refused == refusedBefore+1 {
			break
		}
		settle(runs[k])
	}
	// The refused create usually logs a blocking error of its own, but a
	// workerd already out of descriptors may refuse it without a new line:
	// the test does not wait for one, and /readyz below must say the edge
	// is down either way (no accepted run is left to end).

	// edgeflow's log has the error at ERROR with its kind, group and account.
	var group string
	for _, r := range logs.records() {
		if r["level"] == "ERROR" && r["msg"] == "local edge: workerd error" {
			if r["kind"] == "" || r["group"] == "" || r["account"] == "" || r["message"] == "" {
				t.Fatalf("an edge error logged without kind, group, account or message: %v", r)
			}
			group, _ = r["group"].(string)
			break
		}
	}
	if group == "" {
		t.Fatal("no ERROR line of the edge's error in edgeflow's log")
	}
	// /metrics counts it by kind.
	_, metrics := post(t, "GET", s.url+"/metrics", "")
	counted := regexp.MustCompile(`(?m)^edgeflow_local_edge_errors_total\{kind="(sqlite_nomem|sqlite_cantopen|fd_limit|fatal)"\} ([1-9][0-9]*)$`)
	if !counted.Match(metrics) {
		t.Fatalf("/metrics does not count a blocking edge error:\n%s", grepLines(metrics, "edgeflow_local_edge_errors_total"))
	}
	// /readyz is not ok, naming the edge; the edge's own /readyz names the group.
	if code, body := post(t, "GET", s.url+"/readyz", ""); code != 503 || !strings.Contains(string(body), `"edge":"down"`) {
		t.Fatalf("edgeflow /readyz with a failing group = %d %s", code, body)
	}
	// The edge's /readyz names the group or one of its shards (a shard's id
	// is the group's with "~k"): with two shards, the one whose error was
	// logged first may have had an instance end since (its error is then
	// cleared) while the other still fails.
	edgeBase := strings.TrimSuffix(edge.APIBaseURL(), "/client/v4")
	whole, _, _ := strings.Cut(group, "~")
	code, body := post(t, "GET", edgeBase+"/readyz", "")
	if code != 503 || !regexp.MustCompile(`"group":"`+regexp.QuoteMeta(whole)+`(~[0-9]+)?"`).Match(body) {
		t.Fatalf("edge /readyz with group %s failing = %d %s", whole, code, body)
	}
	// Lift the limit and restart the group with its shards, which ran under
	// the same limit.
	if err := os.Remove(nofile); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", edgeBase+"/__edge/groups/"+whole+"/restart", nil)
	req.Header.Set("Authorization", "Bearer "+edge.Token())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("restart group %s = %d %s", whole, res.StatusCode, raw)
	}

	// Every run completes, and each run's step ran once.
	for n, id := range runs {
		r := s.waitStatus(wf, id, "complete", 3*time.Minute)
		jsonEqual(t, r.Output, fmt.Sprintf(`{"n":%d,"said":"ok"}`, n))
	}
	mu.Lock()
	for n, id := range runs {
		if hits[n] != 1 {
			t.Errorf("run %d (%s): its step called the server %d times, want 1", n, id, hits[n])
		}
	}
	for n, c := range hits {
		if _, ok := runs[n]; !ok {
			t.Errorf("the step of trigger %d, which the edge refused, called the server %d times", n, c)
		}
	}
	mu.Unlock()
	// The restarted group's revive sweep found nothing left to run, so both
	// /readyz are ok again (decision 479), and new runs are accepted and run
	// once.
	waitReady(t, edgeBase, 200, 60*time.Second)
	waitReady(t, s.url, 200, 60*time.Second)
	for n := len(runs) + refused; n < len(runs)+refused+5; n++ {
		id := s.trigger(wf, map[string]any{"n": n})
		r := s.waitStatus(wf, id, "complete", 2*time.Minute)
		jsonEqual(t, r.Output, fmt.Sprintf(`{"n":%d,"said":"ok"}`, n))
		mu.Lock()
		if hits[n] != 1 {
			t.Errorf("run %d after the restart: its step called the server %d times, want 1", n, hits[n])
		}
		mu.Unlock()
	}
}

// grepLines answers the lines of b that contain sub.
func grepLines(b []byte, sub string) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// edgeShardMax is the most shards a Workflow of the tests' edges may run in:
// EDGEFLOW_EDGE_SHARDS when set, or else the number of CPUs (docs/edge.md,
// "Shards").
func edgeShardMax() int {
	if n, err := strconv.Atoi(os.Getenv("EDGEFLOW_EDGE_SHARDS")); err == nil && n > 0 {
		return n
	}
	return max(1, runtime.NumCPU())
}
