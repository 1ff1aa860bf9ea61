package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Events sent by type to a project's waiting runs (docs/runs.md, "Events";
// decisions 690-692).

// MaxEventRuns is how many waiting runs one send delivers the event to;
// more waiting runs are left waiting and the event says it was truncated.
const MaxEventRuns = 100

// maxEventScan is how many paused runs of the project one send looks at
// (newest first) for the runs waiting for its type.
const maxEventScan = 1000

// eventDeliveries is how many deliveries of one send are in flight at once.
const eventDeliveries = 4

// SendEventRequest is an event to send by type.
type SendEventRequest struct {
	// Type is the event type the runs wait for.
	Type string
	// WorkflowID limits the send to that workflow's runs ("" for all).
	WorkflowID string
	// Payload is a JSON object (nil: {}) of at most MaxParamsBytes.
	Payload json.RawMessage
	// ReplayOf is the event this one replays ("" otherwise).
	ReplayOf string
}

// SendEvent sends an event to every run of the tenant's project (or of one
// of its workflows) paused on a wait_for_event node of the event's type,
// at most MaxEventRuns of them, and stores the event with the runs it went
// to and whether it reached each. Runs of another project, and so of
// another organization, are never looked at.
//
// Errors: type not 1 to 100 letters, digits, _ or -, or the reserved
// ir.AdmissionEventType, payload not an
// object, workflowId not a workflow of the project → validation_failed
// (paths /type, /payload, /workflowId); payload over 100 KB →
// payload_too_large. A run the event could not reach is listed as failed,
// with why; the send itself still succeeds.
func (s *Service) SendEvent(ctx context.Context, t Tenant, req SendEventRequest) (*edgeflow.SentEvent, error) {
	// Every problem of the request is reported at once.
	var problems []edgeflow.FieldError
	if !ir.ValidEventType(req.Type) {
		problems = append(problems, edgeflow.FieldError{Path: "/type", Message: "the event type must be 1 to 100 letters, digits, _ or -"})
	} else if ir.ReservedEventType(req.Type) {
		problems = append(problems, edgeflow.FieldError{Path: "/type", Message: reservedEventMessage})
	}
	payload, err := eventPayload(req.Payload)
	if err != nil {
		if edgeflow.ErrorCode(err) != edgeflow.EInvalid {
			return nil, err
		}
		problems = append(problems, edgeflow.FieldError{Path: "/payload", Message: "payload must be a JSON object"})
	}
	if req.WorkflowID != "" {
		if _, err := s.store.FindWorkflowByID(ctx, t.ProjectID, req.WorkflowID); err != nil {
			if !edgeflow.IsNotFound(err) {
				return nil, err
			}
			problems = append(problems, edgeflow.FieldError{Path: "/workflowId", Message: "the project has no workflow " + req.WorkflowID})
		}
	}
	if len(problems) > 0 {
		return nil, &edgeflow.Error{Code: edgeflow.EInvalid, Message: problems[0].Message, Details: problems}
	}
	runs, truncated, err := s.runsWaitingFor(ctx, t, req.WorkflowID, req.Type)
	if err != nil {
		return nil, err
	}
	e := &edgeflow.SentEvent{OrganizationID: t.OrganizationID, ProjectID: t.ProjectID, Type: req.Type,
		WorkflowID: req.WorkflowID, Payload: payload, Runs: s.deliverAll(ctx, runs, req.Type, payload),
		Truncated: truncated, ReplayOf: req.ReplayOf}
	if err := s.store.CreateSentEvent(context.WithoutCancel(ctx), e); err != nil {
		return nil, err
	}
	return e, nil
}

// ReplaySentEvent sends the tenant's stored event again, with its type,
// workflow and payload, to the runs waiting for it now.
//
// Errors: not_found for an event the project does not have.
func (s *Service) ReplaySentEvent(ctx context.Context, t Tenant, id string) (*edgeflow.SentEvent, error) {
	e, err := s.store.FindSentEvent(ctx, t.ProjectID, id)
	if err != nil {
		return nil, err
	}
	if e.WorkflowID != "" {
		if _, err := s.store.FindWorkflowByID(ctx, t.ProjectID, e.WorkflowID); edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the event's workflow %s was deleted", e.WorkflowID)
		}
	}
	return s.SendEvent(ctx, t, SendEventRequest{Type: e.Type, WorkflowID: e.WorkflowID, Payload: e.Payload, ReplayOf: e.ID})
}

// reservedEventMessage refuses an event of the reserved admission type:
// only edgeflow sends it, to the cron starts it admits (admission.go).
const reservedEventMessage = "the event type " + ir.AdmissionEventType + " is reserved: edgeflow sends it to admit a cron start of a workflow with flow control"

// eventPayload checks an event's payload: {} for none, a JSON object of at
// most MaxParamsBytes.
func eventPayload(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}"), nil
	}
	if len(raw) > MaxParamsBytes {
		return nil, &edgeflow.Error{Code: edgeflow.EPayloadTooLarge,
			Message: fmt.Sprintf("payload must be at most 100 KB when serialized (got %d bytes)", len(raw)),
			Details: []edgeflow.FieldError{{Path: "/payload", Message: "over 100 KB"}}}
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		return nil, edgeflow.Invalid("/payload", "payload must be a JSON object")
	}
	return raw, nil
}

// runsWaitingFor lists the project's paused runs (of workflowID when set)
// whose unfinished waitForEvent step belongs to a wait_for_event node of
// eventType, newest first: at most MaxEventRuns, looking at the newest
// maxEventScan paused runs; truncated says there may be more.
func (s *Service) runsWaitingFor(ctx context.Context, t Tenant, workflowID, eventType string) ([]edgeflow.Run, bool, error) {
	types := map[string]map[string]string{} // version id -> node id -> literal event type
	var out []edgeflow.Run
	scanned, cursor := 0, ""
	for {
		page, err := s.store.ListRuns(ctx, edgeflow.RunFilter{ProjectID: t.ProjectID, WorkflowID: workflowID, Status: edgeflow.RunPaused},
			edgeflow.ListOptions{Limit: 100, Cursor: cursor})
		if err != nil {
			return nil, false, err
		}
		for i := range page.Items {
			r := &page.Items[i]
			if r.DeletedWorkflow != nil {
				continue
			}
			ok, err := s.waitsFor(ctx, r, eventType, types)
			if err != nil {
				return nil, false, err
			}
			if !ok {
				continue
			}
			if len(out) == MaxEventRuns {
				return out, true, nil
			}
			out = append(out, *r)
		}
		scanned += len(page.Items)
		if cursor = page.NextCursor; cursor == "" {
			return out, false, nil
		}
		if scanned >= maxEventScan {
			return out, true, nil
		}
	}
}

// waitsFor reports whether the run's unfinished waitForEvent step is one
// of a wait_for_event node whose event type is eventType (types caches the
// event types of the versions read).
func (s *Service) waitsFor(ctx context.Context, r *edgeflow.Run, eventType string, types map[string]map[string]string) (bool, error) {
	var waiting []string
	for _, p := range parseSteps(r.Steps) {
		if p.Type == "waitForEvent" && (p.Finished == nil || !*p.Finished) {
			waiting = append(waiting, p.Name)
		}
	}
	if len(waiting) == 0 {
		return false, nil
	}
	names, err := s.versionStepNames(ctx, r.WorkflowID, r.VersionID)
	if err != nil {
		return false, err
	}
	byNode, ok := types[r.VersionID]
	if !ok {
		byNode = map[string]string{}
		v, err := s.store.FindVersionByID(ctx, r.WorkflowID, r.VersionID)
		if err != nil && !edgeflow.IsNotFound(err) {
			return false, err
		}
		if err == nil {
			byNode = waitEventTypes(v.IR)
		}
		types[r.VersionID] = byNode
	}
	for _, name := range waiting {
		if id, _ := nodeOfStep(names, name); id != "" && byNode[id] == eventType {
			return true, nil
		}
	}
	return false, nil
}

// waitEventTypes is node id -> event type of an IR's wait_for_event nodes
// whose type is a literal (a type set by an expression is known only to
// the run, and is left out).
func waitEventTypes(raw json.RawMessage) map[string]string {
	var a ir.ArtifactIR
	out := map[string]string{}
	if json.Unmarshal(raw, &a) != nil {
		return out
	}
	for _, n := range a.Nodes {
		if t, _ := n.Data["eventType"].(string); n.Type == ir.TypeWaitForEvent && ir.ValidEventType(t) {
			out[n.ID] = t
		}
	}
	return out
}

// deliverAll delivers the event to each run, eventDeliveries at a time,
// through the worker serving the run (as POST …/trigger with instanceId
// delivers one), and answers each run's outcome in the runs' order.
func (s *Service) deliverAll(ctx context.Context, runs []edgeflow.Run, eventType string, payload json.RawMessage) []edgeflow.SentEventRun {
	out := make([]edgeflow.SentEventRun, len(runs))
	sem := make(chan struct{}, eventDeliveries)
	var wg sync.WaitGroup
	for i := range runs {
		r := &runs[i]
		out[i] = edgeflow.SentEventRun{RunID: r.ID, WorkflowID: r.WorkflowID, State: edgeflow.SentEventDelivered}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := s.deliverTo(ctx, r, eventType, payload); err != nil {
				out[i].State, out[i].Error = edgeflow.SentEventFailed, deliveryError(err)
			}
		}()
	}
	wg.Wait()
	return out
}

// deliverTo posts the event to the worker serving the run's version.
func (s *Service) deliverTo(ctx context.Context, r *edgeflow.Run, eventType string, payload json.RawMessage) error {
	active, err := s.store.FindActiveDeployment(ctx, r.WorkflowID, r.ConnectionID)
	if err != nil && !edgeflow.IsNotFound(err) {
		return err
	}
	d, err := s.servingDeployment(ctx, r, active)
	if err != nil {
		return err
	}
	params, err := json.Marshal(event{InstanceID: r.InstanceID, EventType: eventType, Payload: payload})
	if err != nil {
		return err
	}
	return s.postEvent(ctx, r, d, params)
}

// deliveryError is what a failed delivery says: the message of an
// edgeflow.Error, never an internal error's text.
func deliveryError(err error) string {
	var e *edgeflow.Error
	if errors.As(err, &e) && e.Code != edgeflow.EInternal {
		return e.Message
	}
	return "the event could not be delivered"
}
