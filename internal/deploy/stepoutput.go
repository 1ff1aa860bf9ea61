package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// StepOutputRequest names the step of a run whose full output is read
// (GET /api/workflows/:id/runs/:runId/steps/:nodeId/output).
type StepOutputRequest struct {
	RunID  string
	NodeID string
	// Iteration picks one run of a node inside loops ("2", or "1.3" in
	// nested loops: the suffix of its step name); "" when the node ran
	// once.
	Iteration string
	// Attempt is one attempt of the step, from 1; 0 is the step as a
	// whole (its last attempt).
	Attempt int
}

// StepOutput is one step's full output: Output the whole JSON value the
// step returned (or the event a wait received), not capped as in the run's
// detail. A step the provider marks sensitive answers "[REDACTED]"; a step
// that returned a stream has its bytes in Stream (the API answers them as
// application/octet-stream) and Output null.
type StepOutput struct {
	RunID  string `json:"runId"`
	NodeID string `json:"nodeId"`
	// Name is the step's name in the generated code.
	Name string `json:"name"`
	// Attempt is the attempt asked for (omitted for the step as a whole).
	Attempt int `json:"attempt,omitempty"`
	// State is running, retrying, waiting, complete, errored or replayed
	// (a restarted run's step taken from the original run).
	State  string              `json:"state"`
	Error  *edgeflow.StepError `json:"error,omitempty"`
	Output json.RawMessage     `json:"output" tstype:"unknown"`
	// Source says where the output was read: "provider" (the step
	// endpoint, in full) or "run" (what the run stored, for a provider
	// without the endpoint and for replayed steps).
	Source string `json:"source"`
	Stream []byte `json:"-"`
}

var iterationForm = regexp.MustCompile(`^\d{1,9}(\.\d{1,9}){0,7}$`)

// StepOutput reads the full output of a step of a run of the project's
// workflow from the provider's step endpoint (StepOutputReader), per
// attempt. A non-final run is refreshed first, so that a step that just
// ran is known.
//
// Errors: an iteration not of the form 2 or 1.3 is validation_failed
// (?iteration); an unknown workflow or run, a node the run has not reached,
// an iteration or attempt it does not have are not_found (with the field:
// /nodeId, ?iteration, ?attempt); a node that runs in loops asked without
// an iteration, a sleep (no output) and an attempt of a provider that
// cannot read attempts are conflict; provider failures are
// provider_unavailable / provider_error.
func (s *Service) StepOutput(ctx context.Context, projectID, workflowID string, req StepOutputRequest) (*StepOutput, error) {
	if req.Iteration != "" && !iterationForm.MatchString(req.Iteration) {
		return nil, edgeflow.Invalid("?iteration", "iteration is the loop iteration of the step, such as 2 or 1.3 (nested loops)")
	}
	r, err := s.GetRun(ctx, projectID, workflowID, req.RunID)
	if err != nil {
		return nil, err
	}
	notFound := func(path, format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		return &edgeflow.Error{Code: edgeflow.ENotFound, Message: msg, Details: []edgeflow.FieldError{{Path: path, Message: msg}}}
	}
	suffix := ""
	if req.Iteration != "" {
		suffix = " #" + req.Iteration
	}
	out := &StepOutput{RunID: r.ID, NodeID: req.NodeID, Attempt: req.Attempt}
	// A replayed step: its output came from the original run.
	for _, rp := range r.Replayed {
		if rp.NodeID == req.NodeID && (suffix == "" || trimSuffix(rp.Name)+suffix == rp.Name) {
			if req.Attempt > 1 {
				return nil, notFound("?attempt", "step %q was replayed from run %s: it has no attempt %d here", rp.Name, r.RestartOf, req.Attempt)
			}
			out.Name, out.State, out.Source = rp.Name, edgeflow.StepReplayed, "run"
			out.Output = orNull(rp.Output)
			return out, nil
		}
	}
	var found []RunStepRef
	for _, st := range r.StepDetail {
		if st.NodeID == req.NodeID && st.State != edgeflow.StepReplayed {
			found = append(found, RunStepRef{Name: st.Name, Type: st.Type, State: st.State, Attempts: st.Attempts, Error: st.Error,
				Sensitive: st.Sensitive})
		}
	}
	if len(found) == 0 {
		return nil, notFound("/nodeId", "run %s has no step of node %s (it may not have reached it, or the node runs no step of its own)", r.ID, req.NodeID)
	}
	var step *RunStepRef
	for i := range found {
		if (suffix == "" && len(found) == 1) || (suffix != "" && found[i].Name == trimSuffix(found[i].Name)+suffix) {
			step = &found[i]
			break
		}
	}
	if step == nil {
		if suffix == "" {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "node %s ran %d times in loops; name one with ?iteration= (the suffix of its step name, such as %q)",
				req.NodeID, len(found), trimLeadingHash(found[0].Name))
		}
		return nil, notFound("?iteration", "node %s has no step of iteration %s in run %s", req.NodeID, req.Iteration, r.ID)
	}
	out.Name = step.Name
	if step.Type == "sleep" {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "step %q is a sleep, which has no output", step.Name)
	}
	if req.Attempt > 0 && (step.Type != "step" || req.Attempt > max(step.Attempts, 1)) {
		n := step.Attempts
		if step.Type != "step" {
			n = 1
		}
		return nil, notFound("?attempt", "step %q has %d attempt(s); there is no attempt %d", step.Name, n, req.Attempt)
	}
	if step.Sensitive {
		// Never read: the provider answers "[REDACTED]" too, and a
		// stream output's bytes would carry the value.
		out.Source, out.State, out.Error, out.Output = "run", step.State, step.Error, redactedJSON
		return out, nil
	}
	prov, err := s.runProvider(ctx, r)
	if err != nil {
		return nil, err
	}
	reader, ok := prov.(StepOutputReader)
	if ok {
		got, err := reader.GetStepOutput(ctx, r.WorkflowName, r.InstanceID, step.Name, step.Type, req.Attempt)
		switch {
		case err == nil:
			out.Source, out.Output, out.Stream = "provider", orNull(got.Output), got.Stream
			if got.Stream != nil {
				out.Output = json.RawMessage("null")
			}
			out.State = providerStepState(got.Status, got.Error, step.State)
			if got.Error != nil {
				out.Error = &edgeflow.StepError{Name: got.Error.Name, Message: got.Error.Message}
			}
			return out, nil
		case lacksFeature(err):
			// An older provider: what the run stored, below.
		case providerStatus(err) == 404:
			return nil, notFound("/nodeId", "the provider has no output of step %q of run %s: %s", step.Name, r.ID, providerReason(err))
		default:
			return nil, providerError("read the step's output", err)
		}
	}
	if req.Attempt > 0 && req.Attempt != step.Attempts {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's provider cannot read one attempt of a step; only the last (%d) is known", step.Attempts)
	}
	out.Source, out.State, out.Error = "run", step.State, step.Error
	out.Output = storedStepOutput(r.Steps, step.Name)
	return out, nil
}

// RunStepRef is what StepOutput needs of one step of a run's detail.
type RunStepRef struct {
	Name, Type, State string
	Attempts          int
	Error             *edgeflow.StepError
	// Sensitive: the step's output is never shown ("[REDACTED]").
	Sensitive bool
}

// providerStepState maps the step endpoint's status onto a step state of
// the run's detail.
func providerStepState(status string, err *stepErr, current string) string {
	switch status {
	case "complete":
		return edgeflow.StepComplete
	case "errored":
		return edgeflow.StepErrored
	case "waiting":
		return edgeflow.StepWaiting
	case "running":
		if err != nil {
			return edgeflow.StepRetrying
		}
		return edgeflow.StepRunning
	}
	return current
}

// storedStepOutput is the output of step name as the run stored it
// (uncapped), null when absent.
func storedStepOutput(steps json.RawMessage, name string) json.RawMessage {
	for _, p := range parseSteps(steps) {
		if p.Name == name {
			return orNull(p.Output)
		}
	}
	return json.RawMessage("null")
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

func trimLeadingHash(name string) string {
	if loc := loopSuffix.FindStringIndex(name); loc != nil {
		return name[loc[0]+2:]
	}
	return name
}

// ParseAttempt reads the ?attempt= of a step output: "" is 0 (the step as
// a whole), else a whole number from 1.
func ParseAttempt(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1000 {
		return 0, edgeflow.Invalid("?attempt", "attempt is the number of one attempt of the step, from 1 (at most 1000)")
	}
	return n, nil
}
