package deploy_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

// TestTrigger: a trigger creates one instance named by the new run's id with the params (an absent or null params
// as {}) and records the run queued; every refusal comes before the provider is called and records nothing.
func TestTrigger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		setup      func(t *testing.T, w *runWorld) // changes the world before the trigger
		connection string                          // "" means the deployment's
		params     string
		code       string // the error's code; "" for a run
		inMessage  string
		wantParams string // the created instance's params
	}{
		{name: "a run", params: `{"orderId":"A-1"}`, wantParams: `{"orderId":"A-1"}`},
		{name: "no params", params: ``, wantParams: `{}`},
		{name: "null params", params: `null`, wantParams: `{}`},
		{name: "a function", setup: func(t *testing.T, w *runWorld) {
			fn := &edgeflow.Workflow{ProjectID: w.tenant.ProjectID, Name: "fn", Kind: edgeflow.KindScript}
			must(t, w.st.CreateWorkflow(context.Background(), fn))
			w.wf = fn
		}, params: `{}`, code: edgeflow.EBadRequest, inMessage: "a function has no runs"},
		{name: "params over 100 KB", params: `{"x":"` + strings.Repeat("x", deploy.MaxParamsBytes) + `"}`,
			code: edgeflow.EPayloadTooLarge, inMessage: "100 KB"},
		{name: "params not an object", params: `[1]`, code: edgeflow.EInvalid, inMessage: "params must be a JSON object"},
		{name: "the replay key", params: `{"__edgeflowReplay":{}}`, code: edgeflow.EInvalid, inMessage: "reserved"},
		{name: "the trace key", params: `{"__edgeflowTrace":{"traceparent":"00-x"}}`, code: edgeflow.EInvalid, inMessage: "reserved"},
		{name: "no connection", connection: " ", params: `{}`, code: edgeflow.EInvalid, inMessage: "connectionId is required"},
		{name: "unknown connection", connection: "con_missing", params: `{}`, code: edgeflow.ENotFound, inMessage: "connection"},
		{name: "not deployed there", setup: func(t *testing.T, w *runWorld) {
			_, err := w.st.RemoveDeployment(context.Background(), w.wf.ID, w.conn.ID, w.dep.CreatedAt)
			must(t, err)
		}, params: `{}`, code: edgeflow.EConflict, inMessage: "not deployed on this connection"},
		{name: "event for an unknown instance", params: `{"instanceId":"nope","eventType":"approval","payload":{}}`,
			code: edgeflow.ENotFound, inMessage: "no run of this workflow has instance nope"},
		{name: "the provider refuses", setup: func(t *testing.T, w *runWorld) {
			w.prov.createErr = errors.New("quota exceeded")
		}, params: `{}`, code: edgeflow.EProviderError, inMessage: "create the workflow instance", wantParams: `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newRunWorld(t)
			if tc.setup != nil {
				tc.setup(t, w)
			}
			conn := w.conn.ID
			if tc.connection != "" {
				conn = tc.connection
			}
			res, err := w.svc.Trigger(context.Background(), w.read(t), deploy.TriggerRequest{ConnectionID: conn, Params: json.RawMessage(tc.params)})
			calls := w.prov.take()
			if tc.code != "" {
				wantErrorCode(t, err, tc.code, tc.inMessage)
				var want []string
				if tc.wantParams != "" { // refused by the provider: its one call, for a new run id
					id := "?"
					if len(calls) > 0 && len(strings.Fields(calls[0])) > 2 {
						id = strings.Fields(calls[0])[2]
					}
					want = []string{"create wf-orders " + id + " " + tc.wantParams}
				}
				if diff := cmp.Diff(want, calls); diff != "" {
					t.Errorf("provider calls of a refused trigger (-want +got):\n%s", diff)
				}
				if n := w.runCount(t); n != 0 {
					t.Errorf("a refused trigger recorded %d runs", n)
				}
				return
			}
			must(t, err)
			if diff := cmp.Diff([]string{"create wf-orders " + res.ID + " " + tc.wantParams}, calls); diff != "" {
				t.Errorf("provider calls (-want +got):\n%s", diff)
			}
			if res.InstanceID != res.ID || res.Status != edgeflow.RunQueued || res.EventType != "" {
				t.Errorf("result = %+v, want the new run queued, its instance named by its id", res)
			}
			r, err := w.st.FindRunByID(context.Background(), w.wf.ID, res.ID)
			must(t, err)
			got := []string{r.Status, r.VersionID, r.ConnectionID, r.DeploymentID, r.WorkflowName, string(r.Params)}
			want := []string{edgeflow.RunQueued, w.v1.ID, w.conn.ID, w.dep.ID, "wf-orders", tc.wantParams}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("recorded run (-want +got):\n%s", diff)
			}
			if r.NextRefreshAt == nil {
				t.Error("the run is not due for a refresh")
			}
		})
	}
}

// TestControlRun: each action reads the instance first (the run's status as the provider has it), then, when the
// run is in a state the action applies to, sends it and records the new status; any other state is a conflict
// with no change sent.
func TestControlRun(t *testing.T) {
	t.Parallel()
	const waiting = `[{"type":"waitForEvent","name":"approval","start":"2026-01-01T00:00:00Z","finished":false}]`
	tests := []struct {
		name                   string
		status, detail, remote string // the run as stored, and its instance's status on the provider
		steps                  string
		action                 string
		changeErr              error
		code, inMessage        string // the refusal; "" for a change
		wantStatus, wantDetail string
		wantChange             bool // the action was sent
	}{
		{name: "pause a running run", status: "running", remote: "running", action: deploy.ActionPause,
			wantStatus: edgeflow.RunPaused, wantDetail: deploy.DetailPaused, wantChange: true},
		{name: "pause a queued run", status: "queued", remote: "queued", action: deploy.ActionPause,
			wantStatus: edgeflow.RunPaused, wantDetail: deploy.DetailPaused, wantChange: true},
		{name: "pause a paused run", status: "paused", detail: deploy.DetailPaused, remote: "paused", action: deploy.ActionPause,
			code: edgeflow.EConflict, inMessage: "only a running run can be paused"},
		{name: "resume a paused run", status: "paused", detail: deploy.DetailPaused, remote: "paused", action: deploy.ActionResume,
			wantStatus: edgeflow.RunRunning, wantChange: true},
		{name: "resume a run waiting for an event", status: "paused", detail: deploy.DetailWaiting, remote: "waiting", steps: waiting,
			action: deploy.ActionResume, code: edgeflow.EConflict, inMessage: "only a manually paused run can be resumed"},
		{name: "resume a running run", status: "running", remote: "running", action: deploy.ActionResume,
			code: edgeflow.EConflict, inMessage: "only a manually paused run can be resumed"},
		{name: "terminate a running run", status: "running", remote: "running", action: deploy.ActionTerminate,
			wantStatus: edgeflow.RunTerminated, wantChange: true},
		{name: "terminate a run waiting for an event", status: "paused", detail: deploy.DetailWaiting, remote: "waiting", steps: waiting,
			action: deploy.ActionTerminate, wantStatus: edgeflow.RunTerminated, wantChange: true},
		{name: "terminate a run that completed meanwhile", status: "running", remote: "complete", action: deploy.ActionTerminate,
			code: edgeflow.EConflict, inMessage: "is complete"},
		{name: "an unknown action", status: "running", remote: "running", action: "restart",
			code: edgeflow.ENotFound, inMessage: `unknown run action "restart"`},
		{name: "the provider refuses", status: "running", remote: "running", action: deploy.ActionPause,
			changeErr: &edgeflow.Error{Code: edgeflow.EConflict, Message: "the instance is not running"},
			code:      edgeflow.EConflict, inMessage: "the provider refused to pause run", wantChange: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newRunWorld(t)
			r := w.run(t, tc.status, tc.detail, tc.remote, json.RawMessage(tc.steps))
			w.prov.changeErr = tc.changeErr
			got, err := w.svc.ControlRun(context.Background(), w.tenant, w.wf.ID, r.ID, tc.action)
			want := []string{"get wf-orders " + r.ID}
			if tc.wantChange {
				want = append(want, tc.action+" wf-orders "+r.ID)
			}
			if diff := cmp.Diff(want, w.prov.take()); diff != "" {
				t.Errorf("provider calls (-want +got):\n%s", diff)
			}
			if tc.code != "" {
				wantErrorCode(t, err, tc.code, tc.inMessage)
				return
			}
			must(t, err)
			stored, err := w.st.FindRunByID(context.Background(), w.wf.ID, r.ID)
			must(t, err)
			for _, run := range []*edgeflow.Run{got, stored} {
				if run.Status != tc.wantStatus || run.StatusDetail != tc.wantDetail {
					t.Errorf("run after %s: %s (%s), want %s (%s)", tc.action, run.Status, run.StatusDetail, tc.wantStatus, tc.wantDetail)
				}
			}
			if final := edgeflow.RunIsFinal(stored.Status); final != (stored.NextRefreshAt == nil) || final != (stored.EndedAt != nil) {
				t.Errorf("run %s: next refresh %v, ended %v", stored.Status, stored.NextRefreshAt, stored.EndedAt)
			}
		})
	}
	t.Run("another tenant's workflow", func(t *testing.T) {
		t.Parallel()
		w := newRunWorld(t)
		r := w.run(t, "running", "", "running", nil)
		other := deploy.Tenant{OrganizationID: w.tenant.OrganizationID, ProjectID: "prj_other"}
		_, err := w.svc.ControlRun(context.Background(), other, w.wf.ID, r.ID, deploy.ActionTerminate)
		wantErrorCode(t, err, edgeflow.ENotFound, "")
		if calls := w.prov.take(); len(calls) != 0 {
			t.Errorf("another tenant's control sent %v", calls)
		}
	})
}

// TestRestart: a restart reads the original run's instance when it is not final, then creates one instance whose
// params carry the outputs of the steps before fromStep (by step name) and records the new run; refusals send
// nothing after the read and record nothing.
func TestRestart(t *testing.T) {
	t.Parallel()
	const steps = `[
		{"type":"step","name":"Load order","success":true,"output":{"id":"A-1"},"attempts":[{"success":true}]},
		{"type":"step","name":"Charge","success":true,"output":"ch_1","attempts":[{"success":true}]},
		{"type":"step","name":"Ship","success":false,"output":null,"attempts":[{"success":false,"error":{"name":"Error","message":"declined"}}]}]`
	tests := []struct {
		name            string
		status, remote  string // the original run's stored status and its instance's on the provider
		setup           func(t *testing.T, w *runWorld)
		from, version   string
		code, inMessage string
		wantParams      string // of the created instance
		wantReplayed    int
	}{
		{name: "from the start", status: "errored", remote: "errored", wantParams: `{"orderId":"A-1"}`},
		{name: "from a step", status: "errored", remote: "errored", from: "ship",
			wantParams: `{"__edgeflowReplay":{"Charge":"ch_1","Load order":{"id":"A-1"}},"orderId":"A-1"}`, wantReplayed: 2},
		{name: "a run still running, from a step", status: "running", remote: "running", from: "charge",
			wantParams: `{"__edgeflowReplay":{"Load order":{"id":"A-1"}},"orderId":"A-1"}`, wantReplayed: 1},
		{name: "a step before fromStep failed", status: "errored", remote: "errored", from: "notify",
			code: edgeflow.EConflict, inMessage: "did not complete"},
		{name: "an unknown step", status: "errored", remote: "errored", from: "nope", code: edgeflow.EInvalid, inMessage: "unknown step"},
		{name: "an unknown version word", status: "errored", remote: "errored", version: "older", code: edgeflow.EInvalid, inMessage: "version"},
		{name: "no longer deployed", status: "errored", remote: "errored", setup: func(t *testing.T, w *runWorld) {
			_, err := w.st.RemoveDeployment(context.Background(), w.wf.ID, w.conn.ID, w.dep.CreatedAt)
			must(t, err)
		}, code: edgeflow.EConflict, inMessage: "no longer deployed"},
		{name: "the provider refuses", status: "errored", remote: "errored", setup: func(t *testing.T, w *runWorld) {
			w.prov.createErr = errors.New("quota exceeded")
		}, code: edgeflow.EProviderError, inMessage: "quota exceeded", wantParams: `{"orderId":"A-1"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newRunWorld(t)
			orig := w.run(t, tc.status, "", tc.remote, json.RawMessage(steps))
			if tc.setup != nil {
				tc.setup(t, w)
			}
			before := w.runCount(t)
			got, err := w.svc.Restart(context.Background(), w.read(t), deploy.RestartRequest{RunID: orig.ID, FromStep: tc.from, Version: tc.version})
			calls := w.prov.take()
			var want []string
			if !edgeflow.RunIsFinal(tc.status) {
				want = append(want, "get wf-orders "+orig.ID)
			}
			if tc.wantParams != "" {
				id := "?"
				if got != nil {
					id = got.ID
				} else if n := len(calls); n > 0 {
					id = strings.Fields(calls[n-1])[2]
				}
				want = append(want, "create wf-orders "+id+" "+tc.wantParams)
			}
			if diff := cmp.Diff(want, calls); diff != "" {
				t.Errorf("provider calls (-want +got):\n%s", diff)
			}
			if tc.code != "" {
				wantErrorCode(t, err, tc.code, tc.inMessage)
				if n := w.runCount(t); n != before {
					t.Errorf("a refused restart recorded runs: %d, then %d", before, n)
				}
				return
			}
			must(t, err)
			if got.RestartOf != orig.ID || got.FromStep != tc.from || got.Status != edgeflow.RunQueued || got.InstanceID != got.ID ||
				string(got.Params) != `{"orderId":"A-1"}` || len(got.Replayed) != tc.wantReplayed {
				t.Errorf("restarted run = %+v", got)
			}
			if n := w.runCount(t); n != before+1 {
				t.Errorf("runs: %d, then %d; want one more", before, n)
			}
		})
	}
}

// TestRefresherBackOff: the refresher reads a due run on its ticks (every 500 ms); while the provider fails, each
// failure puts the next read 1 s, 2 s, 4 s, ... later, and the first read that succeeds ends the back-off (the next
// read comes as for a young run, an eighth of its age later). It runs in a synctest bubble on the real SQLite
// store: the service's clock is the bubble's, whose seconds pass at once, so the schedule is exact.
func TestRefresherBackOff(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		w := newRunWorld(t)
		start := time.Now()
		r := &edgeflow.Run{ID: edgeflow.NewID(edgeflow.PrefixRun), WorkflowID: w.wf.ID, VersionID: w.v1.ID, ConnectionID: w.conn.ID,
			DeploymentID: w.dep.ID, WorkflowName: w.dep.WorkflowName, Status: edgeflow.RunRunning, NextRefreshAt: &start}
		r.InstanceID = r.ID
		must(t, w.st.CreateRun(ctx, r))
		w.prov.set(r.ID, "running", nil)
		w.prov.failReads(errors.New("the account cannot be reached"))

		loop, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			w.svc.RunRefresher(loop, deploy.RefresherOptions{})
		}()
		time.Sleep(7 * time.Second) // three failed reads, the next one due at 7.5 s
		synctest.Wait()
		stored, err := w.st.FindRunByID(ctx, w.wf.ID, r.ID)
		must(t, err)
		if stored.RefreshFailures != 3 || stored.NextRefreshAt == nil || !stored.NextRefreshAt.Equal(start.Add(7500*time.Millisecond)) ||
			stored.Status != edgeflow.RunRunning {
			t.Errorf("after three failed reads: %s, %d failures, next read at %v; want running, 3, %v", stored.Status,
				stored.RefreshFailures, stored.NextRefreshAt, start.Add(7500*time.Millisecond))
		}
		w.prov.failReads(nil)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		stop()
		<-done

		var reads []time.Duration
		for _, at := range w.prov.takeTimes() {
			reads = append(reads, at.Sub(start))
		}
		want := []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond, 3500 * time.Millisecond, 7500 * time.Millisecond,
			8500 * time.Millisecond}
		if diff := cmp.Diff(want, reads); diff != "" {
			t.Errorf("reads of the instance, after the start (-want +got):\n%s", diff)
		}
		stored, err = w.st.FindRunByID(ctx, w.wf.ID, r.ID)
		must(t, err)
		if stored.RefreshFailures != 0 {
			t.Errorf("after a read that succeeded: %d failures, want 0", stored.RefreshFailures)
		}
	})
}
