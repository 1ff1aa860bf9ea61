package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// MaxParamsBytes is the largest serialized trigger params (100 KB; docs/api.md).
const MaxParamsBytes = 100 * 1024

// TriggerRequest starts a run of a deployed workflow or delivers an event.
type TriggerRequest struct {
	// ConnectionID is the connection of the tenant's organization (or of its project) the workflow runs on.
	ConnectionID string
	// Params is the JSON object that becomes event.payload; nil means {}.
	Params json.RawMessage
	// Queue holds the run (queued, statusDetail held) when the workflow's
	// flow control refuses it now, instead of answering 429.
	Queue bool
}

// TriggerResult is the answer of a trigger (edgeflow.TriggerResult).
type TriggerResult = edgeflow.TriggerResult

// Trigger starts a run of the tenant's workflow (read once, by ReadWorkflow) on its active deployment on the
// connection:
// the instance is created with the run id as its instance id, then the run
// is recorded as queued. When params hold instanceId, eventType and payload,
// the event is delivered instead to that waiting run through the deployed
// worker's fetch handler (docs/deploy.md), and the result names that run.
//
// Errors: function → bad_request (400); params over 100 KB →
// payload_too_large; params not an object → validation_failed; not deployed
// there → conflict; unknown instance → not_found; finished run → conflict;
// an event of the reserved admission type → validation_failed;
// provider failures → provider_unavailable / provider_error, with no run
// recorded.
func (s *Service) Trigger(ctx context.Context, tw *TenantWorkflow, req TriggerRequest) (*TriggerResult, error) {
	wf, t := tw.Workflow(), tw.Tenant()
	w := &wf
	if w.Kind == edgeflow.KindScript {
		return nil, edgeflow.Errorf(edgeflow.EBadRequest,
			"a function has no runs: invoke it with an HTTP POST to its url (GET /workflows/%s/full shows it) or with POST /api/workflows/%s/invoke", w.ID, w.ID)
	}
	params, err := runParams(req.Params, "/params")
	if err != nil {
		return nil, err
	}
	if hasTraceKey(params) {
		return nil, edgeflow.Invalid("/params/"+codegen.TraceKey, "this key is reserved for the run's trace context")
	}
	if ev, ok := eventOf(params); ok {
		if ir.ReservedEventType(ev.EventType) {
			return nil, edgeflow.Invalid("/params/eventType", reservedEventMessage)
		}
		_, d, err := s.activeDeployment(ctx, t, w, req.ConnectionID)
		if err != nil {
			return nil, err
		}
		return s.deliverEvent(ctx, w, d, ev, params)
	}
	return s.trigger(ctx, tw, req.ConnectionID, params, "", req.Queue)
}

// trigger starts a run with the checked params of the tenant's workflow on
// its active deployment on the connection, under the workflow's flow
// control; its instance id is instanceID, or the run id when "".
func (s *Service) trigger(ctx context.Context, tw *TenantWorkflow, connectionID string, params []byte, instanceID string, queue bool) (*TriggerResult, error) {
	wf, t := tw.Workflow(), tw.Tenant()
	w := &wf
	c, d, err := s.activeDeployment(ctx, t, w, connectionID)
	if err != nil {
		return nil, err
	}
	if err := s.notDraining(w, c); err != nil {
		return nil, err
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, err
	}
	id := edgeflow.NewID(edgeflow.PrefixRun)
	if instanceID == "" {
		instanceID = id
	}
	trace := s.tracing.NewRunTrace(ctx, w.Name)
	instanceParams, err := withTraceEnvelope(params, trace)
	if err != nil {
		return nil, err
	}
	if fc, ok := flowOf(w); ok {
		return s.triggerLimited(ctx, w, c, d, prov, fc, s.newRun(w, c, d, id, instanceID, params, trace), instanceParams, queue)
	}
	if err := s.createInstance(ctx, c, d, prov, instanceID, instanceParams); err != nil {
		return nil, err
	}
	run, err := s.recordRun(ctx, w, c, d, prov, id, instanceID, params, trace)
	if err != nil {
		return nil, err
	}
	return &TriggerResult{ID: run.ID, InstanceID: run.InstanceID, Status: run.Status}, nil
}

// activeDeployment is the connection (of the tenant's project) a trigger
// names and the workflow's active deployment on it; 409 when none is.
func (s *Service) activeDeployment(ctx context.Context, t Tenant, w *edgeflow.Workflow, connectionID string) (*edgeflow.Connection, *edgeflow.Deployment, error) {
	c, err := s.connection(ctx, t.OrganizationID, t.ProjectID, connectionID)
	if err != nil {
		return nil, nil, err
	}
	d, err := s.store.FindActiveDeployment(ctx, w.ID, c.ID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow is not deployed on this connection")
		}
		return nil, nil, err
	}
	return c, d, nil
}

// notDraining refuses new runs (409 draining) while a deploy of the
// workflow on the connection waits for the runs in flight of earlier
// versions to finish.
func (s *Service) notDraining(w *edgeflow.Workflow, c *edgeflow.Connection) error {
	if s.drains.held(w.ID, c.ID) {
		return edgeflow.Errorf(edgeflow.EDraining,
			"a deploy is waiting for the runs in flight of earlier versions to finish (inFlight \"drain\"); trigger again once it completes")
	}
	return nil
}

// recordRun records the run id of the instance just created as queued, with
// its trace context (nil: untraced), and starts watching it (unless its
// provider reads instances together: then the refresher watches it once it
// is WatchAfter old); when it cannot be recorded, the instance is
// terminated, so that none runs untracked.
func (s *Service) recordRun(ctx context.Context, w *edgeflow.Workflow, c *edgeflow.Connection, d *edgeflow.Deployment, prov Provider, id, instanceID string, params []byte, trace *edgeflow.RunTrace) (*edgeflow.Run, error) {
	now := s.now().UTC()
	run := s.newRun(w, c, d, id, instanceID, params, trace)
	startWatch, releaseWatch, watched := s.reserveWatch(ctx, run, prov)
	if watched {
		// Its events bring its changes: polled only as a fallback.
		next := now.Add(WatchedRefresh)
		run.NextRefreshAt = &next
	}
	if err := s.store.CreateRun(context.WithoutCancel(ctx), run); err != nil {
		releaseWatch()
		// Do not leave an instance nobody tracks.
		if terr := prov.ChangeInstanceStatus(context.WithoutCancel(ctx), d.WorkflowName, instanceID, "terminate"); terr != nil {
			s.log.Error("trigger: run not recorded and its instance not terminated", "workflow", w.ID, "instance", instanceID, "err", terr)
		}
		return nil, err
	}
	startWatch()
	return run, nil
}

// newRun is the record of a new queued run of w on d, its refresh due
// soon (not stored).
func (s *Service) newRun(w *edgeflow.Workflow, c *edgeflow.Connection, d *edgeflow.Deployment, id, instanceID string, params []byte, trace *edgeflow.RunTrace) *edgeflow.Run {
	next := s.now().UTC().Add(refreshDelay(0))
	return &edgeflow.Run{
		ID:            id,
		WorkflowID:    w.ID,
		ProjectID:     w.ProjectID,
		VersionID:     d.VersionID,
		ConnectionID:  c.ID,
		DeploymentID:  d.ID,
		Environment:   d.Environment,
		WorkflowName:  d.WorkflowName,
		InstanceID:    instanceID,
		Status:        edgeflow.RunQueued,
		Params:        json.RawMessage(params),
		NextRefreshAt: &next,
		Trace:         trace,
	}
}

// runParams checks the params of a new run (at path): {} for none, at most
// MaxParamsBytes, a JSON object without the reserved replay key.
func runParams(raw json.RawMessage, path string) ([]byte, error) {
	params := bytes.TrimSpace(raw)
	if len(params) == 0 || string(params) == "null" {
		params = []byte("{}")
	}
	if len(params) > MaxParamsBytes {
		return nil, &edgeflow.Error{Code: edgeflow.EPayloadTooLarge, Message: fmt.Sprintf("params must be at most 100 KB when serialized (got %d bytes)", len(params)),
			Details: []edgeflow.FieldError{{Path: path, Message: "over 100 KB"}}}
	}
	if params[0] != '{' {
		return nil, edgeflow.Invalid(path, "params must be a JSON object")
	}
	if hasReplayKey(params) {
		return nil, edgeflow.Invalid(path+"/"+codegen.ReplayKey, "this key is reserved for restarted runs (POST …/runs/:runId/restart)")
	}
	return params, nil
}

// createInstance creates the run's instance. On the local edge it goes
// through the deployed worker's own create path (codegen.CreatePath) with the
// deployment's token, batched with the creates beside it (createLocal),
// which keeps bursts free of the stalls the edge's REST create meets
// (docs/edge.md, "Bursts beside raw miniflare"; decisions 200 and 306);
// elsewhere, and for a deployment without a token or a URL, through the
// provider's REST API. Either way the instance id is the run id.
func (s *Service) createInstance(ctx context.Context, c *edgeflow.Connection, d *edgeflow.Deployment, prov Provider, id string, params []byte) error {
	const what = "create the workflow instance"
	if c.Provider != edgeflow.ProviderLocal || d.URL == "" {
		return providerError(what, prov.CreateInstance(ctx, d.WorkflowName, id, params))
	}
	ws, ok, err := s.openWorkerSecrets(d)
	if err != nil {
		return err
	}
	if !ok {
		return providerError(what, prov.CreateInstance(ctx, d.WorkflowName, id, params))
	}
	return s.createLocal(d, ws.token, id, params)
}

type event struct {
	InstanceID string          `json:"instanceId"`
	EventType  string          `json:"eventType"`
	Payload    json.RawMessage `json:"payload"`
}

// eventOf reports whether params address a waiting instance: instanceId and
// eventType non-empty strings and payload present.
func eventOf(params []byte) (event, bool) {
	var probe map[string]json.RawMessage
	if json.Unmarshal(params, &probe) != nil {
		return event{}, false
	}
	if _, ok := probe["payload"]; !ok {
		return event{}, false
	}
	var ev event
	if json.Unmarshal(probe["instanceId"], &ev.InstanceID) != nil || json.Unmarshal(probe["eventType"], &ev.EventType) != nil {
		return event{}, false
	}
	ev.Payload = probe["payload"]
	return ev, ev.InstanceID != "" && ev.EventType != ""
}

// deliverEvent posts the event to the deployed worker, whose fetch handler
// sends it to the instance.
func (s *Service) deliverEvent(ctx context.Context, w *edgeflow.Workflow, d *edgeflow.Deployment, ev event, params []byte) (*TriggerResult, error) {
	run, err := s.store.FindRunByInstanceID(ctx, w.ID, ev.InstanceID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, &edgeflow.Error{Code: edgeflow.ENotFound, Message: "no run of this workflow has instance " + ev.InstanceID,
				Details: []edgeflow.FieldError{{Path: "/params/instanceId", Message: "unknown instance"}}}
		}
		return nil, err
	}
	if edgeflow.RunIsFinal(run.Status) {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "run %s is %s and cannot receive events", run.ID, run.Status)
	}
	// The event goes to the worker of the run's own version (pinning,
	// releases.go), which may not be the active one.
	if run.ConnectionID == d.ConnectionID {
		if d, err = s.servingDeployment(ctx, run, d); err != nil {
			return nil, err
		}
	}
	if err := s.postEvent(ctx, run, d, params); err != nil {
		return nil, err
	}
	return &TriggerResult{ID: run.ID, InstanceID: run.InstanceID, Status: run.Status, EventType: ev.EventType}, nil
}

// postEvent posts params ({instanceId, eventType, payload}) to the worker of
// deployment d, whose fetch handler sends the event to the run's instance.
// Errors: no URL, or the worker refused it as unknown or finished →
// conflict; the worker unreachable → provider_unavailable; another refusal
// → provider_error.
func (s *Service) postEvent(ctx context.Context, run *edgeflow.Run, d *edgeflow.Deployment, params []byte) error {
	if d.URL == "" {
		return edgeflow.Errorf(edgeflow.EConflict, "the deployment has no URL to deliver the event to")
	}
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(rctx, http.MethodPost, d.URL, bytes.NewReader(params))
	if err != nil {
		return &edgeflow.Error{Code: edgeflow.EInternal, Message: "the deployment URL is invalid", Err: err}
	}
	hreq.Header.Set("Content-Type", "application/json")
	if err := s.authorizeWorkerRequest(hreq, d); err != nil {
		return err
	}
	res, err := s.http.Do(hreq)
	if err != nil {
		return &edgeflow.Error{Code: edgeflow.EProviderUnavailable,
			Message: "deliver the event: the deployed worker could not be reached", Err: err}
	}
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4096))
	res.Body.Close()
	if res.StatusCode >= 300 {
		msg := workerMessage(body)
		if res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusConflict {
			return &edgeflow.Error{Code: edgeflow.EConflict,
				Message: fmt.Sprintf("run %s could not take the event: %s", run.ID, msg)}
		}
		return &edgeflow.Error{Code: edgeflow.EProviderError,
			Message: fmt.Sprintf("deliver the event: the worker answered %d: %s", res.StatusCode, msg)}
	}
	return nil
}

// workerMessage extracts {"message"} or {"error"} of a worker's error body.
func workerMessage(body []byte) string {
	var m struct {
		Message string `json:"message"`
		Error   any    `json:"error"`
	}
	if json.Unmarshal(body, &m) == nil {
		if m.Message != "" {
			return m.Message
		}
		if s, ok := m.Error.(string); ok && s != "" {
			return s
		}
	}
	if len(body) > 0 && len(body) < 300 && bytes.IndexFunc(body, func(r rune) bool { return r < 0x20 && r != '\n' }) < 0 {
		return string(body)
	}
	return http.StatusText(http.StatusBadGateway)
}

// GetRun returns a run of the workflow with its steps described
// (DescribeSteps); a non-final run is refreshed from the provider first (provider failures are provider_unavailable /
// provider_error, and the stored record is unchanged).
func (s *Service) GetRun(ctx context.Context, projectID, workflowID, runID string) (*edgeflow.Run, error) {
	if _, err := s.store.FindWorkflowByID(ctx, projectID, workflowID); err != nil {
		return nil, err
	}
	r, err := s.store.FindRunByID(ctx, workflowID, runID)
	if err != nil {
		return nil, err
	}
	if !edgeflow.RunIsFinal(r.Status) {
		if r, err = s.refresh(ctx, r, true); err != nil {
			return nil, err
		}
	}
	return s.withSteps(ctx, r)
}

// GetProjectRun returns a run of the project found by its id alone: while
// its workflow exists, as GetRun does; a run kept after its workflow was
// deleted (DeletedWorkflow set) as stored, with its steps described — the
// provider no longer runs it.
func (s *Service) GetProjectRun(ctx context.Context, projectID, runID string) (*edgeflow.Run, error) {
	r, err := s.store.FindRunInProject(ctx, projectID, runID)
	if err != nil {
		return nil, err
	}
	if r.DeletedWorkflow == nil {
		got, err := s.GetRun(ctx, projectID, r.WorkflowID, runID)
		if !edgeflow.IsNotFound(err) {
			return got, err
		}
		// The workflow was deleted since: answer what was kept, if anything.
		if r, err = s.store.FindRunInProject(ctx, projectID, runID); err != nil {
			return nil, err
		}
	}
	return s.withSteps(ctx, r)
}

// ListRuns lists runs newest first (a project's, or one workflow's when
// f.WorkflowID is set, filtered by f.Status). A status outside the six run
// states is validation_failed. The first list of a project in this process
// also makes cron discovery look at the project's active deployments.
func (s *Service) ListRuns(ctx context.Context, f edgeflow.RunFilter, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) {
	if f.Status != "" && !validStatus(f.Status) {
		return edgeflow.Page[edgeflow.Run]{}, edgeflow.Invalid("/status",
			"status must be one of queued, running, paused, complete, errored, terminated")
	}
	if f.WorkflowID != "" {
		if _, err := s.store.FindWorkflowByID(ctx, f.ProjectID, f.WorkflowID); err != nil {
			// The runs of a workflow deleted with its runs kept stay listed.
			if !edgeflow.IsNotFound(err) {
				return edgeflow.Page[edgeflow.Run]{}, err
			}
			if _, derr := s.store.FindDeletedWorkflow(ctx, f.ProjectID, f.WorkflowID); derr != nil {
				return edgeflow.Page[edgeflow.Run]{}, err
			}
		}
	}
	return s.store.ListRuns(ctx, f, opts)
}

func validStatus(st string) bool {
	switch st {
	case edgeflow.RunQueued, edgeflow.RunRunning, edgeflow.RunPaused, edgeflow.RunComplete, edgeflow.RunErrored, edgeflow.RunTerminated:
		return true
	}
	return false
}

// Run control actions.
const (
	ActionPause     = "pause"
	ActionResume    = "resume"
	ActionTerminate = "terminate"
)

// ControlRun pauses, resumes or terminates a run after refreshing it:
// pause only a running run, resume only a manually paused one, terminate a
// running or paused one (queued counts as running: the instance exists).
// Anything else is conflict (409).
func (s *Service) ControlRun(ctx context.Context, t Tenant, workflowID, runID, action string) (*edgeflow.Run, error) {
	if _, err := s.ReadWorkflow(ctx, t, workflowID); err != nil {
		return nil, err
	}
	r, err := s.store.FindRunByID(ctx, workflowID, runID)
	if err != nil {
		return nil, err
	}
	if !edgeflow.RunIsFinal(r.Status) {
		if r, err = s.refresh(ctx, r, true); err != nil {
			return nil, err
		}
	}
	unlock := s.lockRun(r.ID)
	defer unlock()
	if cur, err := s.store.FindRunByID(ctx, workflowID, runID); err == nil {
		r = cur
	}
	if r.StatusDetail == edgeflow.RunDetailHeld {
		return s.controlHeld(ctx, r, action)
	}
	running := r.Status == edgeflow.RunRunning || r.Status == edgeflow.RunQueued
	switch action {
	case ActionPause:
		if !running {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "only a running run can be paused; run %s is %s", r.ID, describe(r))
		}
	case ActionResume:
		if r.Status != edgeflow.RunPaused || r.StatusDetail != DetailPaused {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "only a manually paused run can be resumed; run %s is %s", r.ID, describe(r))
		}
	case ActionTerminate:
		if !running && r.Status != edgeflow.RunPaused {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "only a running or paused run can be terminated; run %s is %s", r.ID, describe(r))
		}
	default:
		return nil, edgeflow.Errorf(edgeflow.ENotFound, "unknown run action %q", action)
	}
	c, err := s.store.FindConnectionByID(ctx, t.OrganizationID, r.ConnectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's connection no longer exists")
		}
		return nil, err
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := prov.ChangeInstanceStatus(ctx, r.WorkflowName, r.InstanceID, action); err != nil {
		if ae := providerError(action+" the instance", err); isProviderConflict(err) {
			return nil, &edgeflow.Error{Code: edgeflow.EConflict, Message: "the provider refused to " + action + " run " + r.ID + ": " + providerReason(err)}
		} else {
			return nil, ae
		}
	}
	prevSteps, prevStatus := r.Steps, r.Status
	now := s.now().UTC()
	switch action {
	case ActionPause:
		r.Status, r.StatusDetail = edgeflow.RunPaused, DetailPaused
	case ActionResume:
		r.Status, r.StatusDetail = edgeflow.RunRunning, ""
	case ActionTerminate:
		r.Status, r.StatusDetail = edgeflow.RunTerminated, ""
		r.EndedAt = &now
		r.NextRefreshAt = nil
	}
	if !edgeflow.RunIsFinal(r.Status) {
		next := now.Add(refreshDelay(0))
		r.NextRefreshAt = &next
	}
	r.RefreshFailures = 0
	if err := s.store.UpdateRun(context.WithoutCancel(ctx), r); err != nil {
		return nil, err
	}
	s.traceRunChange(ctx, r, prevSteps, prevStatus)
	return s.withSteps(ctx, r)
}

func describe(r *edgeflow.Run) string {
	if r.StatusDetail != "" && r.StatusDetail != r.Status {
		return r.Status + " (" + r.StatusDetail + ")"
	}
	return r.Status
}

// Status details kept in Run.StatusDetail (docs/api.md, run statuses;
// decision 117).
const (
	DetailWaiting  = "waiting"  // paused: waiting for an event
	DetailPaused   = "paused"   // paused: paused by a user
	DetailPausing  = "pausing"  // running: pause requested, the current step still running
	DetailSleeping = "sleeping" // running: in a sleep or sleep_until
	DetailRetrying = "retrying" // running: waiting before the next attempt of a failed step
)

// MapStatus maps a provider instance status onto a run status and detail.
// steps are the instance's steps as the provider reports them (nil when
// unknown); they tell what a "waiting" instance waits for. previous is the
// run's last known status, kept for a status it does not know.
func MapStatus(provider string, steps json.RawMessage, previous string) (status, detail string) {
	switch provider {
	case "queued":
		return edgeflow.RunQueued, ""
	case "running":
		return edgeflow.RunRunning, ""
	case "paused":
		return edgeflow.RunPaused, DetailPaused
	case "waiting":
		switch waitingFor(steps) {
		case waitEvent:
			return edgeflow.RunPaused, DetailWaiting
		case waitSleep:
			return edgeflow.RunRunning, DetailSleeping
		case waitRetry:
			return edgeflow.RunRunning, DetailRetrying
		}
		// The steps do not say: the run is not known to wait for an event.
		return edgeflow.RunRunning, ""
	case "waitingForPause":
		return edgeflow.RunRunning, DetailPausing
	case "complete":
		return edgeflow.RunComplete, ""
	case "errored":
		return edgeflow.RunErrored, ""
	case "terminated":
		return edgeflow.RunTerminated, ""
	}
	if previous == "" {
		previous = edgeflow.RunQueued
	}
	return previous, provider
}

type waitKind int

const (
	waitUnknown waitKind = iota
	waitRetry
	waitSleep
	waitEvent
)

// waitingFor tells from an instance's steps (Cloudflare's shape, which the
// local edge reports too) what a waiting instance waits for: an unfinished
// waitForEvent step; else an unfinished sleep; else a step not yet
// successful whose last attempt failed (the back-off before a retry).
// Parallel branches can wait for several at once; an event wins, then a
// sleep.
func waitingFor(steps json.RawMessage) waitKind {
	var list []struct {
		Type     string `json:"type"`
		Finished *bool  `json:"finished"`
		Success  *bool  `json:"success"`
		Attempts []struct {
			Success *bool `json:"success"`
		} `json:"attempts"`
	}
	if len(steps) == 0 || json.Unmarshal(steps, &list) != nil {
		return waitUnknown
	}
	kind := waitUnknown
	for _, s := range list {
		unfinished := s.Finished == nil || !*s.Finished
		switch {
		case s.Type == "waitForEvent" && unfinished:
			return waitEvent
		case s.Type == "sleep" && unfinished:
			kind = waitSleep
		case s.Type == "step" && kind == waitUnknown && (s.Success == nil || !*s.Success) && len(s.Attempts) > 0:
			if last := s.Attempts[len(s.Attempts)-1].Success; last != nil && !*last {
				kind = waitRetry
			}
		}
	}
	return kind
}

// refresh reads the run's instance from the provider and stores what
// changed. When strict, provider failures are returned; otherwise they are
// counted for back-off. The returned run is the stored one. The write is a
// compare-and-set on the run's state version: when another write (a
// refresh by another replica, a pause or resume) came between the read of
// the run and the write, nothing is written and the stored run is returned,
// so that what was read from the provider before that write never
// overwrites it.
func (s *Service) refresh(ctx context.Context, r *edgeflow.Run, strict bool) (*edgeflow.Run, error) {
	return s.refreshFrom(ctx, r, strict, nil)
}

// instanceRead is a run's instance as a read of several answered it
// (readTogether): the instance, or the error of its read.
type instanceRead struct {
	inst *Instance
	err  error
}

// refreshFrom is refresh with the instance read already when pre is not
// nil: read with others after r was taken from the store, so that it is
// used only if nobody wrote the run since (a write since may hold a newer
// state than that read).
func (s *Service) refreshFrom(ctx context.Context, r *edgeflow.Run, strict bool, pre *instanceRead) (*edgeflow.Run, error) {
	unlock := s.lockRun(r.ID)
	defer unlock()
	taken := r.StateVersion
	if cur, err := s.store.FindRunByID(ctx, r.WorkflowID, r.ID); err == nil {
		r = cur
	}
	if edgeflow.RunIsFinal(r.Status) || r.StatusDetail == edgeflow.RunDetailHeld {
		return r, nil // a held run has no instance yet (flowcontrol.go)
	}
	var inst *Instance
	var err error
	if pre != nil {
		if r.StateVersion != taken {
			return r, nil
		}
		inst, err = pre.inst, pre.err
	} else {
		inst, err = s.readInstance(ctx, r)
	}
	now := s.now().UTC()
	if err != nil {
		r.RefreshFailures++
		next := now.Add(failureDelay(r.RefreshFailures))
		r.NextRefreshAt = &next
		prevSteps, prevStatus := r.Steps, r.Status
		if s.applyStuck(ctx, r, r.StatusDetail, now); edgeflow.RunIsFinal(r.Status) {
			r.NextRefreshAt = nil
		}
		if ok, uerr := s.store.UpdateRunIfUnchanged(context.WithoutCancel(ctx), r); uerr != nil {
			s.log.Warn("runs: record refresh failure", "run", r.ID, "err", uerr)
		} else if ok {
			s.traceRunChange(ctx, r, prevSteps, prevStatus) // a run the stuck rule failed ends here
		}
		if strict {
			return nil, err
		}
		return r, nil
	}
	before, detail := runState(r), r.StatusDetail
	prevSteps, prevStatus := r.Steps, r.Status
	applyInstance(r, inst, now)
	s.applyStuck(ctx, r, detail, now)
	s.readmitStranded(ctx, r, inst, now)
	if strict && runState(r) == before && r.RefreshFailures == 0 && r.NextRefreshAt != nil && r.NextRefreshAt.After(now) {
		// A reader polling an unchanged run: nothing to write, and the
		// refresher's schedule stands.
		return r, nil
	}
	r.RefreshFailures = 0
	if edgeflow.RunIsFinal(r.Status) {
		r.NextRefreshAt = nil
	} else {
		next := now.Add(s.nextRefresh(r, now))
		r.NextRefreshAt = &next
	}
	ok, err := s.store.UpdateRunIfUnchanged(context.WithoutCancel(ctx), r)
	if err != nil {
		return nil, err
	}
	if !ok {
		// Written meanwhile: what is stored is newer than what was read.
		cur, err := s.store.FindRunByID(context.WithoutCancel(ctx), r.WorkflowID, r.ID)
		if err != nil {
			return nil, err
		}
		return cur, nil
	}
	s.traceRunChange(ctx, r, prevSteps, prevStatus)
	if edgeflow.RunIsFinal(r.Status) && (inst.LogLines == nil || *inst.LogLines > 0) {
		// (An edge that holds no line of the run has nothing to keep: no
		// request for its lines, no read of the kept ones.)
		s.keepRunLogs(context.WithoutCancel(ctx), r)
	}
	return r, nil
}

func (s *Service) readInstance(ctx context.Context, r *edgeflow.Run) (*Instance, error) {
	prov, err := s.runProvider(ctx, r)
	if err != nil {
		return nil, err
	}
	inst, err := prov.GetInstance(ctx, r.WorkflowName, r.InstanceID)
	if err != nil {
		return nil, providerError("read the run's status", err)
	}
	return inst, nil
}

// runProvider is the provider of the run's connection.
func (s *Service) runProvider(ctx context.Context, r *edgeflow.Run) (Provider, error) {
	w, err := s.store.FindWorkflowByID(ctx, r.ProjectID, r.WorkflowID)
	if err != nil {
		return nil, err
	}
	c, err := s.store.FindConnectionByID(ctx, w.OrganizationID, r.ConnectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's connection no longer exists")
		}
		return nil, err
	}
	return s.providerFor(ctx, c)
}

// readTogether reads the instances of runs that share a workflow and a
// connection whose provider reads many at once (InstancesReader) in one
// request per 100, for the refresher (decision 308). Runs it does not read
// (alone in their group, another provider, a failed request) are absent
// from the answer and read one by one as before.
func (s *Service) readTogether(ctx context.Context, runs []edgeflow.Run, concurrency int) map[string]*instanceRead {
	type key struct{ workflowID, connectionID, workflowName string }
	groups := map[key][]*edgeflow.Run{}
	for i := range runs {
		r := &runs[i]
		k := key{r.WorkflowID, r.ConnectionID, r.WorkflowName}
		groups[k] = append(groups[k], r)
	}
	out := map[string]*instanceRead{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(concurrency, 1))
	for k, rs := range groups {
		if len(rs) < 2 {
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			prov, err := s.runProvider(ctx, rs[0])
			if err != nil {
				return // each run's own read reports it
			}
			reader, ok := prov.(InstancesReader)
			if !ok {
				return
			}
			ids := make([]string, len(rs))
			for i, r := range rs {
				ids[i] = r.InstanceID
			}
			got, err := reader.GetInstances(ctx, k.workflowName, ids)
			if err != nil || len(got) != len(rs) {
				if ctx.Err() == nil {
					s.log.Info("runs: a read of several instances failed; reading them one by one", "workflow", k.workflowID, "runs", len(rs), "err", err)
				}
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for i, g := range got {
				read := &instanceRead{inst: g.Instance}
				if g.Err != nil {
					read = &instanceRead{err: providerError("read the run's status", g.Err)}
				}
				out[rs[i].ID] = read
			}
		}()
	}
	wg.Wait()
	return out
}

// runState is what a refresh can change of a run, for comparison.
func runState(r *edgeflow.Run) string {
	t := func(p *time.Time) string {
		if p == nil {
			return ""
		}
		return p.Format(time.RFC3339Nano)
	}
	return r.Status + "\x00" + r.StatusDetail + "\x00" + string(r.Output) + "\x00" + r.Error + "\x00" +
		string(r.Steps) + "\x00" + t(r.StartedAt) + "\x00" + t(r.EndedAt)
}

// applyInstance copies what the provider reports into the run.
func applyInstance(r *edgeflow.Run, inst *Instance, now time.Time) {
	r.Status, r.StatusDetail = MapStatus(inst.Status, inst.Steps, r.Status)
	if out := rawOrNil(inst.Output); out != nil {
		r.Output = out
	}
	if inst.Error != "" {
		r.Error = inst.Error
	}
	if steps := rawOrNil(inst.Steps); steps != nil {
		r.Steps = steps
		r.Usage = AgentUsage(steps)
	}
	if inst.Start != nil {
		t := inst.Start.UTC()
		r.StartedAt = &t
	} else if r.StartedAt == nil && r.Status != edgeflow.RunQueued {
		r.StartedAt = &now
	}
	if edgeflow.RunIsFinal(r.Status) {
		if inst.End != nil {
			t := inst.End.UTC()
			r.EndedAt = &t
		} else if r.EndedAt == nil {
			r.EndedAt = &now
		}
		if r.Status == edgeflow.RunErrored && r.Error == "" {
			r.Error = "the run failed"
		}
	}
}

// refreshDelay is how long after a successful refresh a non-final run is
// read again: soon for young runs, up to 30 seconds for old ones.
func refreshDelay(age time.Duration) time.Duration {
	d := age / 8
	return min(max(d, 500*time.Millisecond), 30*time.Second)
}

// failureDelay is the back-off after failures consecutive refresh failures:
// 1 s, 2 s, 4 s, ... up to 5 minutes.
func failureDelay(failures int) time.Duration {
	if failures > 9 {
		return 5 * time.Minute
	}
	return min(time.Second<<max(failures-1, 0), 5*time.Minute)
}

func isProviderConflict(err error) bool {
	var e *edgeflow.Error
	if errors.As(err, &e) {
		return e.Code == edgeflow.EConflict
	}
	return providerStatus(err) == http.StatusConflict
}
