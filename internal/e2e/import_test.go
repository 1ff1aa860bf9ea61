package e2e_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// n8nCorpusDir is the importer's corpus of public n8n workflows
// (internal/importer/n8n/corpus_test.go says what each file holds).
var n8nCorpusDir = filepath.Join("..", "importer", "n8n", "testdata", "corpus")

// n8nExpected is what n8n output for one corpus workflow
// (NAME.expected.json, made by n8n-expected.mjs): per node, per run of the
// node, per output, the items' json.
type n8nExpected struct {
	Status   string                           `json:"status"`
	Nodes    map[string][][][]json.RawMessage `json:"nodes"`
	Requests []stubRequest                    `json:"requests"`
	// TimeDependent names nodes whose values are the time of the run
	// (a Schedule Trigger's fields): only their field names are compared.
	TimeDependent []string `json:"timeDependent"`
}

// n8nInput is NAME.input.json: the webhook request's body, and for a
// workflow that calls outside services the stub both n8n and the edge call
// (n8n-expected.mjs's header describes the fields).
type n8nInput struct {
	Body       map[string]any            `json:"body"`
	Stub       *stubSpec                 `json:"stub"`
	Env        map[string]string         `json:"env"`
	Parameters map[string]map[string]any `json:"parameters"`
}

// stubSpec is the outside services a corpus workflow calls, served locally.
type stubSpec struct {
	Origins []string `json:"origins"`
	Routes  []struct {
		Method      string          `json:"method"`
		Path        string          `json:"path"`
		Status      int             `json:"status"`
		JSON        json.RawMessage `json:"json"`
		Text        string          `json:"text"`
		ContentType string          `json:"contentType"`
	} `json:"routes"`
	Headers []string `json:"headers"`
	// Approximated names body fields n8n sends that the converted node
	// does not, each listed in the import's report as approximated.
	Approximated []string `json:"approximated"`
}

// stubRequest is one request the stub received, as n8n-expected.mjs
// records them.
type stubRequest struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers"`
	Body    any               `json:"body"`
}

// importResult is the part of an import's answer the tests read.
type importResult struct {
	Report struct {
		Converted []struct {
			N8nNode string   `json:"n8nNode"`
			NodeIDs []string `json:"nodeIds"`
		} `json:"converted"`
	} `json:"report"`
	Workflow struct {
		ID string `json:"id"`
	} `json:"workflow"`
}

// importAnswer is the answer of an import without ?create: the IR and
// the report.
type importAnswer struct {
	IR     map[string]any `json:"ir"`
	Report struct {
		Converted []struct {
			N8nNode string   `json:"n8nNode"`
			NodeIDs []string `json:"nodeIds"`
		} `json:"converted"`
		Approximated []struct {
			N8nNode string `json:"n8nNode"`
			What    string `json:"what"`
		} `json:"approximated"`
		Marketplace []string `json:"marketplace"`
	} `json:"report"`
}

// TestImportN8nCorpus is the import's faithfulness check: every corpus
// workflow for which n8n's own outputs are recorded is imported through the
// API (?create=true), deployed to the local edge and run on the recorded
// input; each n8n node's converted step must output the items n8n output
// (their json, item for item, output for output), and a node n8n did not run
// must not run either.
func TestImportN8nCorpus(t *testing.T) {
	// Not parallel: the stub counts the requests each step makes, and a step
	// in progress when the shared edge restarts a workerd (a deploy of
	// another test placed in the same group) runs again. Tests that are not
	// parallel run before the parallel ones start deploying.
	requireEdge(t)
	files, err := filepath.Glob(filepath.Join(n8nCorpusDir, "*.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 14 {
		t.Fatalf("the corpus holds n8n's outputs for %d workflows; it held 14 when this test was last extended", len(files))
	}
	s := newServer(t, serverOptions{})
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".expected.json")
		t.Run(name, func(t *testing.T) {
			s := *s
			s.t = t
			var want n8nExpected
			readFile(t, f, &want)
			if want.Status != "success" {
				t.Fatalf("n8n's run of %s ended %q; only successful runs are compared", name, want.Status)
			}
			raw, err := os.ReadFile(filepath.Join(n8nCorpusDir, name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			// The input is the webhook request's body, the run's payload.
			params := map[string]any{}
			var in n8nInput
			if f := filepath.Join(n8nCorpusDir, name+".input.json"); fileExists(f) {
				readFile(t, f, &in)
				if in.Body != nil {
					params = in.Body
				}
			}
			var res importResult
			// A marketplace node's output is the fields of its outputs table,
			// not the service's answer (approximated): only its requests are
			// compared.
			requestsOnly := map[string]bool{}
			passThrough := map[string]bool{}
			var stub *corpusStub
			if in.Stub == nil && len(in.Env) == 0 && len(in.Parameters) == 0 {
				s.must(201, "POST", "/api/import/n8n?create=true", map[string]any{"workflow": json.RawMessage(raw), "name": name}).into(&res)
			} else {
				// The same workflow n8n ran: its outside services' origins
				// replaced by the stub's, the changed parameters set; the
				// marketplace nodes (whose base URL n8n takes from the
				// credential) call the stub too, and the env vars are set.
				if in.Stub != nil {
					stub = newCorpusStub(t, in.Stub)
					for _, o := range in.Stub.Origins {
						raw = []byte(strings.ReplaceAll(string(raw), o, stub.url))
					}
				}
				raw = withParameters(t, raw, in.Parameters)
				var ans importAnswer
				s.must(200, "POST", "/api/import/n8n", map[string]any{"workflow": json.RawMessage(raw), "name": name}).into(&ans)
				market := map[string]bool{}
				for _, m := range ans.Report.Marketplace {
					typ := strings.Split(m, "@")[0]
					market[typ] = true
					// Installed once for the organization (another subtest may have done it).
					if r := s.do("POST", "/api/marketplace/install", map[string]any{"nodeId": typ}); r.status != 201 && r.status != 409 {
						t.Fatalf("install %s: %d %s", typ, r.status, r.body)
					}
				}
				nodes, _ := ans.IR["nodes"].([]any)
				for _, n := range nodes {
					node, _ := n.(map[string]any)
					if typ, _ := node["type"].(string); typ == "sleep" || typ == "sleep_until" {
						// A Wait's items are its input's (later nodes read them
						// there); the sleep itself has no value to compare.
						id, _ := node["id"].(string)
						passThrough[id] = true
					}
					if typ, _ := node["type"].(string); market[typ] && stub != nil {
						data, _ := node["data"].(map[string]any)
						data["baseUrl"] = stub.url
					}
				}
				for _, a := range ans.Report.Approximated {
					if strings.Contains(a.What, "the value of the marketplace node") {
						requestsOnly[a.N8nNode] = true
					}
				}
				// A cron trigger would also start runs on its schedule (every
				// five minutes for z-cron-wait-telegram), whose requests would
				// reach the stub beside the run under test: the comparison runs
				// the workflow once, by hand.
				if tr, _ := ans.IR["trigger"].(map[string]any); tr["type"] == "cron" {
					ans.IR["trigger"] = map[string]any{"type": "manual"}
				}
				kind, _ := ans.IR["kind"].(string)
				if kind == "" {
					kind = "workflow"
				}
				res.Workflow.ID, _ = s.workflow(name, kind, ans.IR)
				for _, c := range ans.Report.Converted {
					res.Report.Converted = append(res.Report.Converted, struct {
						N8nNode string   `json:"n8nNode"`
						NodeIDs []string `json:"nodeIds"`
					}{c.N8nNode, c.NodeIDs})
				}
				if len(in.Env) > 0 {
					var list []map[string]any
					for k, v := range in.Env {
						list = append(list, map[string]any{"name": k, "value": v, "isSecret": false})
					}
					s.must(200, "PATCH", "/api/workflows/"+res.Workflow.ID, map[string]any{"envVars": list})
				}
			}
			s.deploy(res.Workflow.ID)
			r := s.runExample(res.Workflow.ID, params)
			if stub != nil {
				stub.compare(t, want.Requests)
			}
			steps := map[string]runStep{}
			for _, st := range r.Steps {
				steps[st.NodeID] = st
			}
			for _, c := range res.Report.Converted {
				runs, ran := want.Nodes[c.N8nNode]
				var got *runStep
				for _, id := range c.NodeIDs {
					if st, ok := steps[id]; ok && st.State == "complete" {
						got = &st
						break
					}
				}
				switch {
				case !ran || len(runs) == 0:
					if got != nil {
						t.Errorf("node %q: n8n did not run it; step %s ran and output %s", c.N8nNode, got.NodeID, got.Output)
					}
					continue
				case len(runs) != 1:
					t.Errorf("node %q: n8n ran it %d times; the test compares nodes that ran once", c.N8nNode, len(runs))
					continue
				case got == nil:
					t.Errorf("node %q: n8n ran it; none of its steps %v completed", c.N8nNode, c.NodeIDs)
					continue
				}
				if got.OutputTruncated {
					t.Errorf("node %q: step %s's output is truncated", c.N8nNode, got.NodeID)
					continue
				}
				switch {
				case requestsOnly[c.N8nNode], passThrough[got.NodeID]:
				case slices.Contains(want.TimeDependent, c.N8nNode):
					compareN8nFieldNames(t, c.N8nNode, got, runs[0])
				default:
					compareN8nOutputs(t, c.N8nNode, got, runs[0])
				}
			}
			for n8nName := range want.Nodes {
				found := false
				for _, c := range res.Report.Converted {
					found = found || c.N8nNode == n8nName
				}
				if !found && !strings.HasPrefix(n8nName, "__edgeflow") {
					t.Errorf("n8n ran node %q, which the import did not convert", n8nName)
				}
			}
		})
	}
}

// compareN8nOutputs checks a step's output (a list of items, or for a node
// of several outputs a list of item lists) against n8n's outputs of one run.
func compareN8nOutputs(t *testing.T, n8nName string, st *runStep, want [][]json.RawMessage) {
	t.Helper()
	type item struct {
		JSON json.RawMessage `json:"json"`
	}
	var outputs [][]item
	var single []item
	if err := json.Unmarshal(st.Output, &single); err == nil {
		outputs = [][]item{single}
	} else if err := json.Unmarshal(st.Output, &outputs); err != nil {
		t.Errorf("node %q: step %s's output is not a list of items: %s", n8nName, st.NodeID, st.Output)
		return
	}
	for o := 0; o < max(len(outputs), len(want)); o++ {
		var got, exp []json.RawMessage
		if o < len(outputs) {
			for _, it := range outputs[o] {
				got = append(got, it.JSON)
			}
		}
		if o < len(want) {
			exp = want[o]
		}
		if !sameJSON(got, exp) {
			gotText, _ := json.Marshal(got)
			expText, _ := json.Marshal(exp)
			t.Errorf("node %q (step %s), output %d:\n got  %s\n want %s (n8n)", n8nName, st.NodeID, o, gotText, expText)
		}
	}
}

// compareN8nFieldNames checks that a step's single output has the items
// n8n output with the same field names (their values are the time of the
// run).
func compareN8nFieldNames(t *testing.T, n8nName string, st *runStep, want [][]json.RawMessage) {
	t.Helper()
	var got []struct {
		JSON map[string]json.RawMessage `json:"json"`
	}
	if err := json.Unmarshal(st.Output, &got); err != nil || len(want) != 1 || len(got) != len(want[0]) {
		t.Errorf("node %q (step %s): output %s, want %d items like n8n's %s", n8nName, st.NodeID, st.Output, len(want), jsonText(want))
		return
	}
	for i, raw := range want[0] {
		var w map[string]json.RawMessage
		_ = json.Unmarshal(raw, &w)
		gk, wk := slices.Sorted(maps.Keys(got[i].JSON)), slices.Sorted(maps.Keys(w))
		if !slices.Equal(gk, wk) {
			t.Errorf("node %q (step %s), item %d: fields %v, want %v (n8n)", n8nName, st.NodeID, i, gk, wk)
		}
	}
}

// sameJSON reports whether a and b hold the same JSON values (numbers by
// value, keys in any order).
func sameJSON(a, b any) bool {
	norm := func(v any) any {
		raw, _ := json.Marshal(v)
		var out any
		_ = json.Unmarshal(raw, &out)
		if out == nil {
			return []any{}
		}
		return out
	}
	ja, _ := json.Marshal(norm(a))
	jb, _ := json.Marshal(norm(b))
	return string(ja) == string(jb)
}

func readFile(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// awaitStepDir holds AwaitStep's example IRs, as its repository has them.
var awaitStepDir = filepath.Join("..", "importer", "awaitstep", "testdata", "examples")

// TestImportAwaitStepExamples imports AwaitStep's example IRs that call no
// outside service through the API (?create=true), deploys each to the local
// edge and runs it to completion, sending the events it waits for.
func TestImportAwaitStepExamples(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	cases := []struct {
		name   string
		params map[string]any
		event  string         // the event type the run waits for, if any
		send   map[string]any // the event's payload
		step   string         // the step whose value is checked (the run's output when empty)
		check  func(t *testing.T, out map[string]any)
	}{
		{name: "fixture-expression-workflow", check: func(t *testing.T, out map[string]any) {
			wantFields(t, out, map[string]any{"processed": 42.0})
		}},
		{name: "template-hello-world", params: map[string]any{"name": "Ada"}, check: func(t *testing.T, out map[string]any) {
			wantFields(t, out, map[string]any{"status": "completed", "greeting": "Hello, Ada!"})
		}},
		{name: "fixture-event-workflow", event: "user-approval", send: map[string]any{"ok": true}, check: func(t *testing.T, out map[string]any) {
			wantFields(t, out, map[string]any{"processed": true})
		}},
		{name: "template-approval-workflow", params: map[string]any{"id": "req-1"}, event: "approval", step: "process_approved",
			send: map[string]any{"approved": true, "approvedBy": "Grace"}, check: func(t *testing.T, out map[string]any) {
				wantFields(t, out, map[string]any{"status": "approved", "approver": "Grace", "requestId": "req-1"})
			}},
		{name: "template-approval-workflow", params: map[string]any{"id": "req-2"}, event: "approval", step: "handle_rejected",
			send: map[string]any{"approved": false, "reason": "too dear"}, check: func(t *testing.T, out map[string]any) {
				wantFields(t, out, map[string]any{"status": "rejected", "reason": "too dear", "requestId": "req-2"})
			}},
	}
	deployed := map[string]string{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := *s
			s.t = t
			wf, ok := deployed[c.name]
			if !ok {
				raw, err := os.ReadFile(filepath.Join(awaitStepDir, c.name+".json"))
				if err != nil {
					t.Fatal(err)
				}
				var res importResult
				s.must(201, "POST", "/api/import/awaitstep?create=true", map[string]any{"ir": json.RawMessage(raw), "name": c.name}).into(&res)
				wf = res.Workflow.ID
				s.deploy(wf)
				deployed[c.name] = wf
			}
			params := c.params
			if params == nil {
				params = map[string]any{}
			}
			id := s.trigger(wf, params)
			if c.event != "" {
				s.waitRun(wf, id, 60*time.Second, "waiting for "+c.event, func(r run) bool {
					return r.Status == "paused" || r.StatusDetail != ""
				})
				s.must(202, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
					"params": map[string]any{"instanceId": id, "eventType": c.event, "payload": c.send}})
			}
			r := s.waitStatus(wf, id, "complete", 120*time.Second)
			// The run's output is its last node's value; after a branch,
			// the value of the arm's step is read from the run's steps.
			output := r.Output
			if c.step != "" {
				output = nil
				for _, st := range r.Steps {
					if st.NodeID == c.step && st.State == "complete" {
						output = st.Output
					}
				}
			}
			var out map[string]any
			if err := json.Unmarshal(output, &out); err != nil {
				t.Fatalf("output %s (steps %+v): %v", output, r.Steps, err)
			}
			c.check(t, out)
		})
	}
}

// wantFields checks that out holds each field of want with its value.
func wantFields(t *testing.T, out map[string]any, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if !sameJSON(out[k], v) {
			t.Errorf("output %v: %s = %v, want %v", out, k, out[k], v)
		}
	}
}
