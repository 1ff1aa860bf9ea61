package mcp

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxWait is the longest a tool waits for a run to end (trigger and
// restart_run's wait, in seconds).
const MaxWait = 300

// The intervals between two reads of a run being waited for: short at
// first, as most runs of the local edge end within a second, then every
// pollMax, so that a wait of MaxWait costs at most about a hundred requests
// of the caller's per-address budget (the API's reads count against it).
const (
	pollFirst = 200 * time.Millisecond
	pollMax   = 3 * time.Second
)

func runTools() []*tool {
	runResult := func(d *apiDoc, _ operation) map[string]any {
		return object(map[string]any{
			"run": d.component("Run"),
			"ended": map[string]any{"type": "boolean",
				"description": "Whether the run has ended (complete, errored or terminated); false when the wait ran out or the run waits for an event."},
		}, "run", "ended")
	}
	wait := map[string]any{"type": "integer", "minimum": 0, "maximum": MaxWait,
		"description": fmt.Sprintf("Seconds to wait for the run to end, at most %d (default 0: answer at once). The wait also ends when the run waits for an event (send it with send_event).", MaxWait)}
	return []*tool{
		{
			name: "trigger", title: "Trigger a run", destructive: true, openWorld: true,
			description: "Starts a run of a deployed workflow with params (the workflow reads them as event.payload) " +
				"and, with wait, waits for it to end: the answer is the run when it ended, or its state when the wait " +
				"ran out (read it later with get_run).",
			route: "POST /api/workflows/{workflowId}/trigger",
			input: func(_ *apiDoc, o operation) map[string]any {
				return object(map[string]any{
					"workflowId": str("The workflow's id (wf_…)."),
					"connectionId": described(o.bodyProperty("connectionId"),
						"The connection it is deployed on (con_…); default: the connection of its active deployment."),
					"params": described(o.bodyProperty("params"), "The run's params, a JSON object (at most 100 KB); event.payload in the workflow."),
					"wait":   wait,
				}, "workflowId")
			},
			output: runResult,
			run:    runTrigger,
		},
		{
			name: "get_run", title: "Get a run", readOnly: true,
			description: "Reads a run of the project: its status, params, output and error, every step with its " +
				"state, attempts, output and error, and the run's log lines (console output of its steps).",
			route: "GET /api/runs/{runId}",
			input: func(*apiDoc, operation) map[string]any {
				return object(map[string]any{"runId": str("The run's id (run_…).")}, "runId")
			},
			output: func(d *apiDoc, _ operation) map[string]any {
				return object(map[string]any{
					"run": d.component("Run"),
					"logs": map[string]any{"anyOf": []any{d.component("RunLogsView"), map[string]any{"type": "null"}},
						"description": "The run's log lines; null when its workflow was deleted."},
				}, "run", "logs")
			},
			run: runGetRun,
		},
		{
			name: "list_runs", title: "List runs", readOnly: true,
			description: "Searches the project's runs, newest first, with the run search's filters: status, " +
				"workflowId, versionId, a time range (from, to) and q (words of the params, output, error, step outputs or received event payloads).",
			route: "GET /api/runs",
			input: func(_ *apiDoc, o operation) map[string]any {
				props := page(o)
				for _, name := range []string{"status", "workflowId", "versionId", "from", "to", "q"} {
					props[name] = o.queryParameter(name)
				}
				return object(props)
			},
			output: reply,
			run: func(c *call) (*outcome, error) {
				q, err := c.query("cursor", "limit", "status", "workflowId", "versionId", "from", "to", "q")
				if err != nil {
					return nil, err
				}
				var raw json.RawMessage
				if err := c.do(http.MethodGet, "/api/runs", q, nil, &raw); err != nil {
					return nil, err
				}
				return &outcome{raw, count(raw, "runs")}, nil
			},
		},
		{
			name: "send_event", title: "Send an event to a run", destructive: true, openWorld: true,
			description: "Delivers an event to a run that waits for one (a wait_for_event node of that eventType): the " +
				"run goes on with payload as the node's value.",
			route: "POST /api/workflows/{workflowId}/trigger",
			input: func(*apiDoc, operation) map[string]any {
				return object(map[string]any{
					"runId":     str("The waiting run's id (run_…)."),
					"eventType": str("The event's type, as the wait_for_event node names it."),
					"payload":   map[string]any{"type": "object", "description": "The event's payload (default {})."},
				}, "runId", "eventType")
			},
			output: reply,
			run:    runSendEvent,
		},
		{
			name: "send_event_by_type", title: "Send an event by type", destructive: true, openWorld: true,
			description: "Sends an event to every run of the project (or of workflowId) paused on a wait_for_event " +
				"node of eventType: each goes on with payload as the node's value. The answer lists the runs it went to " +
				"and whether it reached each; the event is kept on the project's Events list.",
			route: "POST /api/events",
			input: func(*apiDoc, operation) map[string]any {
				return object(map[string]any{
					"eventType":  str("The event's type, as the wait_for_event nodes name it."),
					"payload":    map[string]any{"type": "object", "description": "The event's payload (default {})."},
					"workflowId": str("Only this workflow's waiting runs (default: every workflow of the project)."),
				}, "eventType")
			},
			output: reply,
			run:    runSendEventByType,
		},
		{
			name: "restart_run", title: "Restart a run", destructive: true, openWorld: true,
			description: "Starts a new run with the params of an existing one, from its start or from one of its steps " +
				"(fromStep: the steps before it are replayed with their recorded outputs), on the same version or the " +
				"workflow's current one; with wait, waits for it as trigger does.",
			route: "POST /api/workflows/{workflowId}/runs/{runId}/restart",
			input: func(_ *apiDoc, o operation) map[string]any {
				return object(map[string]any{
					"runId":    str("The run to restart (run_…)."),
					"fromStep": described(o.bodyProperty("fromStep"), "The node id to execute from; default: from the start."),
					"version":  described(o.bodyProperty("version"), "\"same\" (default: the run's version) or \"current\" (the active deployment's)."),
					"wait":     wait,
				}, "runId")
			},
			output: runResult,
			run:    runRestart,
		},
	}
}

// runRef is what the run tools read of a run to act on it.
type runRef struct {
	ID           string `json:"id"`
	WorkflowID   string `json:"workflowId"`
	InstanceID   string `json:"instanceId"`
	ConnectionID string `json:"connectionId"`
	Status       string `json:"status"`
	Error        string `json:"error"`
	Steps        []struct {
		NodeID string `json:"nodeId"`
		Type   string `json:"type"`
		State  string `json:"state"`
	} `json:"steps"`
	Output json.RawMessage `json:"output"`
}

// final reports whether the run has ended.
func (r *runRef) final() bool {
	return r.Status == "complete" || r.Status == "errored" || r.Status == "terminated"
}

// waitingForEvent reports whether the run waits for an event: one of its
// steps, of the provider's type waitForEvent, is waiting.
func (r *runRef) waitingForEvent() bool {
	for _, s := range r.Steps {
		if s.State == "waiting" && s.Type == "waitForEvent" {
			return true
		}
	}
	return false
}

// summary is the run's state in words.
func (r *runRef) summary() string {
	s := fmt.Sprintf("Run %s is %s", r.ID, r.Status)
	switch {
	case r.Status == "complete" && len(r.Output) > 0:
		out := string(r.Output)
		if len(out) > 200 {
			out = out[:200] + "…"
		}
		s += "; output: " + out
	case r.Error != "":
		s += ": " + r.Error
	case r.waitingForEvent():
		s += ", waiting for an event (send it with send_event)"
	case !r.final():
		s += "; read it again with get_run"
	}
	return s + "."
}

// readRun reads a run of the project by its id.
func (c *call) readRun(runID string) (json.RawMessage, *runRef, error) {
	var raw json.RawMessage
	if err := c.do(http.MethodGet, "/api/runs/"+runID, nil, nil, &raw); err != nil {
		return nil, nil, err
	}
	var r runRef
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, nil, err
	}
	return raw, &r, nil
}

// waitForRun reads the run until it ends, waits for an event, or wait
// seconds have passed; it answers {run, ended}. A rate-limited read waits
// as long as the API asks.
func (c *call) waitForRun(runID string, wait int) (*outcome, error) {
	deadline := time.Now().Add(time.Duration(wait) * time.Second)
	interval := pollFirst
	for {
		raw, r, err := c.readRun(runID)
		var ae *apiError
		switch {
		case errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests:
			interval = pollMax
		case err != nil:
			return nil, err
		case r.final() || r.waitingForEvent() || !time.Now().Before(deadline):
			return &outcome{map[string]any{"run": raw, "ended": r.final()}, r.summary()}, nil
		}
		sleep := min(interval, time.Until(deadline))
		if sleep <= 0 {
			sleep = pollFirst
		}
		t := time.NewTimer(sleep)
		select {
		case <-c.ctx.Done():
			t.Stop()
			return nil, c.ctx.Err()
		case <-t.C:
		}
		interval = min(interval*2, pollMax)
	}
}

func runTrigger(c *call) (*outcome, error) {
	wf, err := c.id("workflowId")
	if err != nil {
		return nil, err
	}
	wait, err := c.integer("wait", 0, MaxWait, 0)
	if err != nil {
		return nil, err
	}
	body := c.body("connectionId", "params")
	if _, ok := body["connectionId"]; !ok {
		var full struct {
			ActiveDeployment *struct {
				ConnectionID string `json:"connectionId"`
			} `json:"activeDeployment"`
		}
		if err := c.do(http.MethodGet, "/api/workflows/"+wf+"/full", nil, nil, &full); err != nil {
			return nil, err
		}
		if full.ActiveDeployment == nil {
			return nil, &argError{"connectionId", "the workflow is not deployed: deploy it first, or name the connection"}
		}
		body["connectionId"], _ = json.Marshal(full.ActiveDeployment.ConnectionID)
	}
	var started struct {
		ID string `json:"id"`
	}
	if err := c.do(http.MethodPost, "/api/workflows/"+wf+"/trigger", nil, body, &started); err != nil {
		return nil, err
	}
	return c.waitForRun(url.PathEscape(started.ID), wait)
}

func runGetRun(c *call) (*outcome, error) {
	id, err := c.id("runId")
	if err != nil {
		return nil, err
	}
	raw, r, err := c.readRun(id)
	if err != nil {
		return nil, err
	}
	var logs json.RawMessage
	err = c.do(http.MethodGet, "/api/workflows/"+url.PathEscape(r.WorkflowID)+"/runs/"+id+"/logs", nil, nil, &logs)
	var ae *apiError
	switch {
	case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
		logs = json.RawMessage("null") // a run kept after its workflow was deleted
	case err != nil:
		return nil, err
	}
	return &outcome{map[string]any{"run": raw, "logs": logs}, r.summary()}, nil
}

func runSendEvent(c *call) (*outcome, error) {
	id, err := c.id("runId")
	if err != nil {
		return nil, err
	}
	eventType, err := c.str("eventType")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(eventType) == "" {
		return nil, &argError{"eventType", "is required"}
	}
	payload := json.RawMessage("{}")
	if c.has("payload") {
		payload = c.args["payload"]
	}
	_, r, err := c.readRun(id)
	if err != nil {
		return nil, err
	}
	params, err := json.Marshal(map[string]any{"instanceId": r.InstanceID, "eventType": eventType, "payload": payload})
	if err != nil {
		return nil, err
	}
	body := map[string]any{"connectionId": r.ConnectionID, "params": json.RawMessage(params)}
	var raw json.RawMessage
	if err := c.do(http.MethodPost, "/api/workflows/"+url.PathEscape(r.WorkflowID)+"/trigger", nil, body, &raw); err != nil {
		return nil, err
	}
	return &outcome{raw, fmt.Sprintf("Delivered the event %q to run %s; read it with get_run.", eventType, r.ID)}, nil
}

func runSendEventByType(c *call) (*outcome, error) {
	eventType, err := c.str("eventType")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(eventType) == "" {
		return nil, &argError{"eventType", "is required"}
	}
	workflowID, err := c.str("workflowId")
	if err != nil {
		return nil, err
	}
	body := map[string]any{"type": eventType}
	if c.has("payload") {
		body["payload"] = c.args["payload"]
	}
	if workflowID != "" {
		body["workflowId"] = workflowID
	}
	var raw json.RawMessage
	if err := c.do(http.MethodPost, "/api/events", nil, body, &raw); err != nil {
		return nil, err
	}
	var sent struct {
		ID   string `json:"id"`
		Runs []struct {
			State string `json:"state"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &sent); err != nil {
		return nil, err
	}
	delivered := 0
	for _, r := range sent.Runs {
		if r.State == "delivered" {
			delivered++
		}
	}
	text := fmt.Sprintf("Sent the event %q (%s): no run was waiting for it.", eventType, sent.ID)
	if len(sent.Runs) > 0 {
		text = fmt.Sprintf("Sent the event %q (%s) to %d waiting runs; delivered to %d. Read them with get_run.",
			eventType, sent.ID, len(sent.Runs), delivered)
	}
	return &outcome{raw, text}, nil
}

func runRestart(c *call) (*outcome, error) {
	id, err := c.id("runId")
	if err != nil {
		return nil, err
	}
	wait, err := c.integer("wait", 0, MaxWait, 0)
	if err != nil {
		return nil, err
	}
	_, r, err := c.readRun(id)
	if err != nil {
		return nil, err
	}
	var started struct {
		ID string `json:"id"`
	}
	if err := c.do(http.MethodPost, "/api/workflows/"+url.PathEscape(r.WorkflowID)+"/runs/"+id+"/restart", nil,
		c.body("fromStep", "version"), &started); err != nil {
		return nil, err
	}
	return c.waitForRun(url.PathEscape(started.ID), wait)
}

// runDeploy deploys through the deploy stream, which tells the stages, and
// answers them with the deployment; a stage that fails is a tool error
// listing the stages passed.
func runDeploy(c *call) (*outcome, error) {
	wf, err := c.id("workflowId")
	if err != nil {
		return nil, err
	}
	resp, err := c.api.Do(c.ctx, Request{Method: http.MethodPost, Path: "/api/workflows/" + wf + "/deploy-stream",
		Body: c.body("connectionId", "versionId"), Accept: "text/event-stream"})
	if err != nil {
		return nil, err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, readAPIError(resp)
	}
	stages := []json.RawMessage{}
	var names []string
	var result json.RawMessage
	for _, e := range parseEvents(resp.Body) {
		switch e.name {
		case "progress":
			stages = append(stages, e.data)
			var p struct {
				Stage string `json:"stage"`
			}
			json.Unmarshal(e.data, &p)
			names = append(names, p.Stage)
		case "result":
			result = e.data
		case "error":
			ae := &apiError{}
			var st struct {
				Status int `json:"status"`
			}
			if json.Unmarshal(e.data, ae) != nil || ae.Code == "" {
				ae.Code, ae.Message = "deploy_failed", strings.TrimSpace(string(e.data))
			}
			json.Unmarshal(e.data, &st)
			ae.Status = cmp.Or(st.Status, http.StatusBadGateway)
			ae.Message = fmt.Sprintf("the deploy failed after the stages %s: %s", strings.Join(names, ", "), ae.Message)
			return nil, ae
		}
	}
	if result == nil {
		return nil, fmt.Errorf("the deploy stream ended without a result after the stages %s", strings.Join(names, ", "))
	}
	var d struct {
		URL string `json:"url"`
	}
	json.Unmarshal(result, &d)
	return &outcome{map[string]any{"stages": stages, "deployment": result},
		fmt.Sprintf("Deployed (%s) at %s. Start a run with trigger.", strings.Join(names, " → "), d.URL)}, nil
}

// event is one Server-Sent Event of a stream.
type event struct {
	name string
	data json.RawMessage
}

// parseEvents reads the events of a complete Server-Sent Events body.
func parseEvents(body []byte) []event {
	var out []event
	var cur event
	var data []string
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), MaxAnswer)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" || len(data) > 0 {
				cur.data = json.RawMessage(strings.Join(data, "\n"))
				if cur.name == "" {
					cur.name = "message"
				}
				out = append(out, cur)
			}
			cur, data = event{}, nil
		case strings.HasPrefix(line, "event:"):
			cur.name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	if cur.name != "" || len(data) > 0 {
		cur.data = json.RawMessage(strings.Join(data, "\n"))
		out = append(out, cur)
	}
	return out
}
