package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// examplesDir is the repository's examples/ directory.
var examplesDir = filepath.Join("..", "..", "examples")

// example is one IR of examples/ with its trigger params, as files hold them.
type example struct {
	name   string
	ir     map[string]any
	params json.RawMessage
}

func loadExample(t *testing.T, name string) example {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(examplesDir, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	ex := example{name: name}
	if err := json.Unmarshal(raw, &ex.ir); err != nil {
		t.Fatalf("examples/%s.json: %v", name, err)
	}
	params, err := os.ReadFile(filepath.Join(examplesDir, name+".params.json"))
	if err != nil {
		t.Fatalf("every example has its trigger params beside it: %v", err)
	}
	var obj map[string]any
	if err := json.Unmarshal(params, &obj); err != nil {
		t.Fatalf("examples/%s.params.json is not a JSON object: %v", name, err)
	}
	ex.params = params
	return ex
}

// paramsWith answers the example's params with the given keys replaced.
func (ex example) paramsWith(t *testing.T, changes map[string]any) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(ex.params, &p); err != nil {
		t.Fatal(err)
	}
	for k, v := range changes {
		p[k] = v
	}
	return p
}

// deployExample creates the workflow or function of ex, submits its IR exactly as the file holds it, optionally
// sets variables, and deploys it to the server's local connection.
func (s *server) deployExample(ex example, envVars map[string]string) (string, deployment) {
	s.t.Helper()
	kind, _ := ex.ir["kind"].(string)
	if kind == "" {
		kind = "workflow"
	}
	wf, _ := s.workflow(ex.name, kind, ex.ir)
	if len(envVars) > 0 {
		var list []map[string]any
		for name, value := range envVars {
			list = append(list, map[string]any{"name": name, "value": value, "isSecret": false})
		}
		s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": list})
	}
	return wf, s.deploy(wf)
}

// runExample triggers a run with params and answers it once complete.
func (s *server) runExample(wf string, params any) run {
	s.t.Helper()
	id := s.trigger(wf, params)
	return s.waitStatus(wf, id, "complete", 120*time.Second)
}

// exampleChecks holds, for every example of examples/, what running it must show.
var exampleChecks = map[string]func(t *testing.T, s *server, ex example){
	"hello": func(t *testing.T, s *server, ex example) {
		wf, _ := s.deployExample(ex, nil)
		jsonEqual(t, s.runExample(wf, ex.params).Output, `{"greeting":"Hello, Ada!","letters":3}`)
	},

	"approval": func(t *testing.T, s *server, ex example) {
		wf, _ := s.deployExample(ex, nil)
		answered := func(payload map[string]any, want string) {
			id := s.trigger(wf, ex.params)
			s.waitRun(wf, id, 60*time.Second, "waiting for the answer", func(r run) bool {
				return r.Status == "paused" || r.StatusDetail != ""
			})
			s.must(202, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn,
				"params": map[string]any{"instanceId": id, "eventType": "approval", "payload": payload}})
			jsonEqual(t, s.waitStatus(wf, id, "complete", 60*time.Second).Output, want)
		}
		answered(map[string]any{"approved": true, "by": "Grace", "comment": "fine"},
			`{"item":"laptop for Ada","amount":1200,"decision":"approved","by":"Grace","comment":"fine","arm":"approved"}`)
		answered(map[string]any{"approved": false, "by": "Linus"},
			`{"item":"laptop for Ada","amount":1200,"decision":"rejected","by":"Linus","comment":"","arm":"rejected"}`)
		// Nobody answers within a short deadline.
		out := s.runExample(wf, ex.paramsWith(t, map[string]any{"timeout": "2 seconds"})).Output
		jsonEqual(t, out, `{"item":"laptop for Ada","amount":1200,"decision":"timed out","by":null,"comment":"no answer within 2 seconds","arm":"timed_out"}`)
	},

	"fan-out": func(t *testing.T, s *server, ex example) {
		wf, _ := s.deployExample(ex, nil)
		jsonEqual(t, s.runExample(wf, ex.params).Output, `{"lines":[{"sku":"pen","total":6},{"sku":"paper","total":10},`+
			`{"sku":"ink","total":12}],"total":28,"shippable":true,"missing":[]}`)
	},

	"quote": func(t *testing.T, s *server, ex example) {
		_, d := s.deployExample(ex, nil)
		status, body := post(t, "POST", d.URL, string(ex.params))
		if status != 200 {
			t.Fatalf("POST %s = %d %s", d.URL, status, body)
		}
		jsonEqual(t, body, `{"subtotal":55.5,"total":66.6}`)
		status, body = post(t, "POST", d.URL, `{"items":[]}`)
		if status != 500 || !strings.Contains(string(body), "items must be a non-empty array") {
			t.Fatalf("POST without items = %d %s", status, body)
		}
	},

	"flaky": func(t *testing.T, s *server, ex example) {
		_, d := s.deployExample(ex, nil)
		for attempt := 1; attempt <= 2; attempt++ {
			status, body := post(t, "POST", d.URL, string(ex.params))
			if status != 500 || !strings.Contains(string(body), "fails on purpose") {
				t.Fatalf("call %d = %d %s, want 500 failing on purpose", attempt, status, body)
			}
		}
		status, body := post(t, "POST", d.URL, string(ex.params))
		if status != 200 {
			t.Fatalf("call 3 = %d %s", status, body)
		}
		jsonEqual(t, body, `{"attempt":3,"message":"succeeded at attempt 3"}`)
	},

	"http-retry": func(t *testing.T, s *server, ex example) {
		// The target is the flaky function's url on the local edge's workers gateway.
		_, flaky := s.deployExample(loadExample(t, "flaky"), nil)
		wf, _ := s.deployExample(ex, map[string]string{"FLAKY_URL": flaky.URL})
		var out struct {
			Status  int    `json:"status"`
			Attempt int    `json:"attempt"`
			Message string `json:"message"`
		}
		r := s.runExample(wf, ex.params)
		if err := json.Unmarshal(r.Output, &out); err != nil {
			t.Fatalf("output %s: %v", r.Output, err)
		}
		// The first two calls fail; a call cut short by a workerd restart (another test's deploy) counts as an
		// attempt too, so a later one may be the first to succeed.
		if out.Status != 200 || out.Attempt < 3 || out.Message != fmt.Sprintf("succeeded at attempt %d", out.Attempt) {
			t.Fatalf("output = %s, want status 200 after two failed attempts", r.Output)
		}
	},
}

// TestExamples submits every IR of examples/ exactly as it is, deploys it to the local edge, runs it with its
// params file (sending the events it waits for) and checks what it produces. An example without a check here
// fails the test.
func TestExamples(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	entries, err := os.ReadDir(examplesDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".json") || strings.HasSuffix(n, ".params.json") {
			continue
		}
		names = append(names, strings.TrimSuffix(n, ".json"))
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".params.json") && !slices.Contains(names, strings.TrimSuffix(n, ".params.json")) {
			t.Errorf("examples/%s has no IR beside it", n)
		}
	}
	for name := range exampleChecks {
		if !slices.Contains(names, name) {
			t.Errorf("a check for example %q, which examples/ does not hold", name)
		}
	}
	if len(names) == 0 {
		t.Fatal("examples/ holds no example")
	}
	s := newServer(t, serverOptions{})
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			check, ok := exampleChecks[name]
			if !ok {
				t.Fatalf("examples/%s.json has no check in exampleChecks: add one that runs it and checks its output", name)
			}
			ex := loadExample(t, name)
			st := *s
			st.t = t
			check(t, &st, ex)
		})
	}
}
