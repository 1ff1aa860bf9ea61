package e2e_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/google/go-cmp/cmp"
)

// sseFrame is one Server-Sent Events frame.
type sseFrame struct {
	event string
	data  string
}

// deployStream posts to deploy-stream and reads every frame; after is
// called with each frame as it arrives and may cancel the request by
// returning false.
func (s *server) deployStream(workflowID string, body map[string]any, after func(sseFrame) bool) (int, []sseFrame) {
	s.t.Helper()
	raw, _ := json.Marshal(body)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", s.url+"/api/workflows/"+workflowID+"/deploy-stream", strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.key)
	res, err := s.http.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return res.StatusCode, nil
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		s.t.Fatalf("Content-Type = %q", ct)
	}
	var frames []sseFrame
	var cur sseFrame
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.event != "" {
				frames = append(frames, cur)
				if after != nil && !after(cur) {
					cancel()
					return 200, frames
				}
			}
			cur = sseFrame{}
		case strings.HasPrefix(line, "event: "):
			cur.event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		}
	}
	return 200, frames
}

// TestDeployTriggerComplete: create → version → deploy-stream (every stage
// in order, then one result with the url) → trigger → poll to complete with
// the expected output; the run lists show it; redeploying the same version
// is idempotent.
func TestDeployTriggerComplete(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, ver := s.workflow("Doubler", "workflow", chain("Doubler",
		step("read", "return { n: event.payload.n };"),
		step("double", "return { doubled: {{read.n}} * 2, greeting: env.GREETING };"),
	))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []map[string]any{
		{"name": "GREETING", "value": "hello", "isSecret": false},
	}})

	status, frames := s.deployStream(wf, map[string]any{"connectionId": s.conn}, nil)
	if status != 200 {
		t.Fatalf("deploy-stream status %d", status)
	}
	var stages []string
	var result deployment
	results := 0
	if len(frames) == 0 || frames[0].event != "plan" {
		t.Fatalf("the first frame is not the deploy plan: %+v", frames)
	}
	for i, f := range frames[1:] {
		i++
		switch f.event {
		case "progress":
			var p deploy.Progress
			if err := json.Unmarshal([]byte(f.data), &p); err != nil {
				t.Fatalf("progress frame %q: %v", f.data, err)
			}
			if p.Message == "" || p.Progress <= 0 || p.Progress > 100 {
				t.Errorf("progress frame %d: %+v", i, p)
			}
			stages = append(stages, p.Stage)
		case "result":
			results++
			if i != len(frames)-1 {
				t.Errorf("result is frame %d of %d", i, len(frames))
			}
			json.Unmarshal([]byte(f.data), &result)
		default:
			t.Fatalf("unexpected frame %s: %s", f.event, f.data)
		}
	}
	if diff := cmp.Diff(deploy.Stages, stages); diff != "" {
		t.Fatalf("stages (-want +got):\n%s", diff)
	}
	if results != 1 || result.URL == "" || result.VersionID != ver || !result.Success {
		t.Fatalf("result = %+v (%d result frames)", result, results)
	}

	full := s.must(200, "GET", "/api/workflows/"+wf+"/full", nil).obj()
	active, _ := full["activeDeployment"].(map[string]any)
	if active == nil || active["url"] != result.URL || active["id"] != result.ID {
		t.Fatalf("full.activeDeployment = %v, want the deployment %s", full["activeDeployment"], result.ID)
	}
	if got := full["workflow"].(map[string]any)["activeVersionId"]; got != ver {
		t.Fatalf("activeVersionId = %v, want %s", got, ver)
	}

	runID := s.trigger(wf, map[string]any{"n": 21})
	r := s.waitStatus(wf, runID, "complete", 60*time.Second)
	jsonEqual(t, r.Output, `{"doubled":42,"greeting":"hello"}`)
	if r.InstanceID != runID || r.StartedAt == nil || r.EndedAt == nil || r.EndedAt.Before(*r.StartedAt) {
		t.Fatalf("run = %+v", r)
	}

	var list struct {
		Data []run `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/runs?status=complete", nil).into(&list)
	if len(list.Data) != 1 || list.Data[0].ID != runID {
		t.Fatalf("complete runs = %+v", list.Data)
	}
	s.must(200, "GET", "/api/runs?status=running", nil).into(&list)
	if len(list.Data) != 0 {
		t.Fatalf("running runs = %+v", list.Data)
	}

	again := s.deploy(wf)
	if again.ID != result.ID || again.URL != result.URL {
		t.Fatalf("redeploy of the same version = %+v, want deployment %s", again, result.ID)
	}
	var deps struct {
		Data []deployment `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/deployments", nil).into(&deps)
	if len(deps.Data) != 1 {
		t.Fatalf("deployments after redeploy = %+v", deps.Data)
	}
}
