package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestRunLogsAfterSubrequests: every console line and the error of a run
// are kept whatever its steps do between them: a D1 query, KV and R2 calls,
// an http_request to a function's URL on the local edge (whose own worker
// logs keep its line), a fetch outside that the outbound guard refuses, a
// sub_workflow, a sleep and a wait for an event. Each workflow is a → middle
// → b, b logs and throws with no retries; the run's logs must hold every
// line in order and the error last. Lines written after a subrequest used to
// be lost: the tail worker sent the spans of subrequests too, whose BigInt
// attributes JSON could not write, and lost every event held with them
// (decision 321). It runs alone (not parallel): its eleven deploys restart
// groups of the shared edge, and a restart loses the lines that runs of
// other tests in those groups had not yet delivered (docs/edge.md, "Logs and
// wrangler tail"); its own runs start after its last deploy.
func TestRunLogsAfterSubrequests(t *testing.T) {
	s := newServer(t, serverOptions{})

	fnStep := step("greet", "console.log('function got ' + event.payload.tag); return { hello: event.payload.tag };")
	fnStep["name"] = "EXPORT_greet"
	fn, _ := s.workflow("Greeter", "script", script("Greeter", fnStep))
	fnDep := s.deploy(fn)
	child, _ := s.workflow("Child", "workflow", chain("Child", noRetry(step("inner", "console.log('child says ' + event.payload.n); return event.payload.n * 2;"))))
	s.deploy(child)

	before := noRetry(step("a", "console.log('a says ' + event.payload.tag); return 1;"))
	after := func(line string) map[string]any {
		return noRetry(step("b", "console.log('b before'); "+line+" console.log('b after'); throw new Error('b failed ' + event.payload.tag);"))
	}
	cases := []struct {
		name  string
		quiet bool // a logs nothing: the run's only line is b's error
		nodes []map[string]any
		event bool     // the run waits for an event of type go
		want  []string // the lines between a's and b's
	}{
		{name: "d1", nodes: []map[string]any{after("const row = await env.DB_LOGS.prepare('SELECT 41 + 1 AS n').first(); console.log('d1 answered ' + row.n);")},
			want: []string{"log b before", "log d1 answered 42", "log b after"}},
		// The shape first reported: a → b, b reads D1 and throws, nothing logged; its logs were empty.
		{name: "d1-quiet", quiet: true, nodes: []map[string]any{noRetry(step("b", "await env.DB_LOGS.prepare('SELECT 1').first(); throw new Error('b failed ' + event.payload.tag);"))}},
		{name: "kv", nodes: []map[string]any{after("await env.KV_LOGS.put('k', 'v1'); console.log('kv answered ' + await env.KV_LOGS.get('k'));")},
			want: []string{"log b before", "log kv answered v1", "log b after"}},
		{name: "r2", nodes: []map[string]any{after("await env.BUCKET_LOGS.put('o.txt', 'body'); const o = await env.BUCKET_LOGS.get('o.txt'); console.log('r2 answered ' + await o.text());")},
			want: []string{"log b before", "log r2 answered body", "log b after"}},
		{name: "outside", nodes: []map[string]any{after("try { await fetch('http://10.255.255.1/'); console.log('fetched'); } catch (err) { console.warn('fetch failed'); }")},
			want: []string{"log b before", "warn fetch failed", "log b after"}},
		{name: "function", nodes: []map[string]any{
			node("call", "http_request", "call", map[string]any{"url": fnDep.URL, "method": "POST", "body": `{"tag": "from-run"}`}),
			after("console.log('function answered ' + {{call.body.greet.hello}});"),
		}, want: []string{"log b before", "log function answered from-run", "log b after"}},
		{name: "sub_workflow", nodes: []map[string]any{
			node("sub", "sub_workflow", "sub", map[string]any{"workflowId": child, "input": `{"n": 21}`, "waitForCompletion": true, "timeout": "1 minute"}),
			after("console.log('child answered ' + {{sub.output}});"),
		}, want: []string{"log b before", "log child answered 42", "log b after"}},
		{name: "sleep", nodes: []map[string]any{
			node("nap", "sleep", "nap", map[string]any{"duration": "1 second"}),
			after(""),
		}, want: []string{"log b before", "log b after"}},
		{name: "event", event: true, nodes: []map[string]any{
			node("go", "wait_for_event", "go", map[string]any{"eventType": "go", "timeout": "1 hour"}),
			after("console.log('event said ' + {{go.say}});"),
		}, want: []string{"log b before", "log event said hi", "log b after"}},
	}
	// Every workflow is deployed before any run starts: a deploy restarts the organization's workers, and a run
	// interrupted in a step runs that step again (its lines twice).
	wfs := make([]string, len(cases))
	for i, c := range cases {
		first := before
		if c.quiet {
			first = noRetry(step("a", "return 1;"))
		}
		wfs[i], _ = s.workflow("Logs "+c.name, "workflow", chain("Logs "+c.name, append([]map[string]any{first}, c.nodes...)...))
		s.deploy(wfs[i])
	}
	t.Run("runs", func(t *testing.T) {
		for i, c := range cases {
			wf := wfs[i]
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				id := s.trigger(wf, map[string]any{"tag": c.name})
				if c.event {
					s.waitRun(wf, id, time.Minute, "waiting for the event", func(r run) bool { return r.StatusDetail == "waiting" })
					s.must(202, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
						"params": map[string]any{"instanceId": id, "eventType": "go", "payload": map[string]any{"say": "hi"}}})
				}
				s.waitStatus(wf, id, "errored", 2*time.Minute)
				want := append(append([]string{"log a says " + c.name}, c.want...), "error Error: b failed "+c.name)
				if c.quiet {
					want = []string{"error Error: b failed " + c.name}
				}
				got := s.waitRunLogs(t, wf, id, len(want))
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Fatalf("logs of the run:\n got %q\nwant %q", got, want)
				}
			})
		}
	})

	// The function's own worker logs keep the line of the run's call.
	testenv.WaitFor(t, 20*time.Second, 300*time.Millisecond, "the function's worker logs to hold the run's call", func() (bool, string) {
		var lines []string
		for _, l := range s.edgeWorkerLogs(t, fnDep.ScriptName) {
			lines = append(lines, l.Level+" "+l.Message)
		}
		return strings.Contains(strings.Join(lines, "|"), "log function got from-run"), fmt.Sprintf("%q", lines)
	})
}

// waitRunLogs reads a finished run's logs until it holds n lines (the edge
// gets a run's last lines shortly after the run ends; the test fails after
// 20 seconds) and answers them as "level message".
func (s *server) waitRunLogs(t *testing.T, wf, id string, n int) []string {
	t.Helper()
	var got []string
	testenv.WaitFor(t, 20*time.Second, 300*time.Millisecond, fmt.Sprintf("%d log lines of run %s", n, id), func() (bool, string) {
		var l runLogs
		s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+id+"/logs", nil).into(&l)
		got = got[:0]
		for _, x := range l.Data {
			got = append(got, x.Level+" "+x.Message)
		}
		return len(got) >= n, fmt.Sprintf("%q", got)
	})
	return got
}

// edgeWorkerLogs reads what the local edge keeps of worker script of the
// server's organization, with the account credentials sealed into its
// local connection (functions have no runs, so no route of edgeflow's API
// shows their worker's lines).
func (s *server) edgeWorkerLogs(t *testing.T, script string) []cloudflare.LogLine {
	t.Helper()
	ctx := context.Background()
	c, err := s.store.FindConnectionByID(ctx, s.orgID, s.conn)
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := secret.New(testSecretKey)
	if err != nil {
		t.Fatal(err)
	}
	creds, err := deploy.SealerSecrets(sealer).OpenConnection(c)
	if err != nil {
		t.Fatal(err)
	}
	client, err := cloudflare.New(cloudflare.Options{BaseURL: shared.edge.APIBaseURL(), APIToken: creds["apiToken"], AccountID: creds["accountId"]})
	if err != nil {
		t.Fatal(err)
	}
	lines, _, err := client.WorkerLogs(ctx, script, cloudflare.WorkerLogsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}
