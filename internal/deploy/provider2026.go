package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
)

// The 2026 Workflows instance calls a provider may offer beside Provider
// (docs/edge.md, "Workflows: the 2026 surface"). Cloudflare and the local
// edge offer them all (cfProvider); a provider that lacks one is used
// without it: runs are polled, deleted runs leave their instances to the
// provider's own retention, step outputs are read from the run's detail
// and restarts replay.

// InstanceSubscriber opens an instance's event stream.
type InstanceSubscriber interface {
	// SubscribeInstance answers the instance's events after cursor (an
	// event id; "" for its whole history), then each as it happens, until
	// its final event. A provider without the stream answers an error
	// lacksFeature recognises.
	SubscribeInstance(ctx context.Context, workflowName, id, cursor string) (InstanceEventStream, error)
}

// InstanceEventStream is an open event stream of one instance.
type InstanceEventStream interface {
	// Next blocks for the next event; io.EOF when the stream ended.
	Next() (InstanceEvent, error)
	// Close ends the stream; safe while Next waits.
	Close() error
}

// InstanceEvent is one event of an instance: its id (the cursor to resume
// after) and its type (workflow_completed, step_started, …).
type InstanceEvent struct {
	ID   string
	Type string
}

// InstanceDeleter deletes instances and their stored state.
type InstanceDeleter interface {
	// DeleteInstances deletes up to cloudflare.MaxInstancesDelete
	// instances of the Workflow; ids the provider does not know are not an
	// error. It answers how many it deleted.
	DeleteInstances(ctx context.Context, workflowName string, ids []string) (int, error)
}

// StepOutputReader reads one step's full output.
type StepOutputReader interface {
	// GetStepOutput reads the output of step name (of type "step" or
	// "waitForEvent"); attempt 0 is the step as a whole, else one attempt
	// of a step.do.
	GetStepOutput(ctx context.Context, workflowName, id, name, stepType string, attempt int) (*ProviderStepOutput, error)
}

// ProviderStepOutput is a step's output as the provider answers it: Status
// running, waiting, complete or errored; Output the JSON value, or Stream
// the bytes of a step that returned a stream.
type ProviderStepOutput struct {
	Status string
	Error  *stepErr
	Output json.RawMessage
	Stream []byte
}

// InstanceRestarter restarts an instance from one of its steps, keeping
// the results of the steps before it.
type InstanceRestarter interface {
	// RestartInstanceFrom restarts the instance from the count-th step
	// named name (count from 1) of type stepType ("do", "sleep" or
	// "waitForEvent").
	RestartInstanceFrom(ctx context.Context, workflowName, id, name string, count int, stepType string) error
}

var (
	_ InstanceSubscriber = (*cfProvider)(nil)
	_ InstanceDeleter    = (*cfProvider)(nil)
	_ StepOutputReader   = (*cfProvider)(nil)
	_ InstanceRestarter  = (*cfProvider)(nil)
)

func (p *cfProvider) SubscribeInstance(ctx context.Context, wf, id, cursor string) (InstanceEventStream, error) {
	s, err := p.c.SubscribeInstance(ctx, wf, id, cloudflare.SubscribeOptions{Cursor: cursor})
	if err != nil {
		return nil, err
	}
	return cfEvents{s}, nil
}

type cfEvents struct{ s *cloudflare.InstanceEvents }

func (e cfEvents) Next() (InstanceEvent, error) {
	ev, err := e.s.Next()
	return InstanceEvent{ID: ev.EventID, Type: ev.Type}, err
}

func (e cfEvents) Close() error { return e.s.Close() }

func (p *cfProvider) DeleteInstances(ctx context.Context, wf string, ids []string) (int, error) {
	got, err := p.c.DeleteInstances(ctx, wf, ids)
	if err != nil {
		return 0, err
	}
	for _, e := range got.Errors {
		if e.Code != 10400 { // not found: already gone
			return len(got.Deleted), &cloudflare.APIError{Op: "POST workflows/" + wf + "/instances/batch/delete",
				Status: http.StatusBadGateway, Errors: []cloudflare.ErrorDetail{{Code: e.Code, Message: e.ID + ": " + e.Message}}}
		}
	}
	return len(got.Deleted), nil
}

func (p *cfProvider) GetStepOutput(ctx context.Context, wf, id, name, stepType string, attempt int) (*ProviderStepOutput, error) {
	got, err := p.c.GetStepOutput(ctx, wf, id, cloudflare.StepOutputQuery{Name: name, Type: stepType, Attempt: attempt})
	if err != nil {
		return nil, err
	}
	out := &ProviderStepOutput{Status: got.Status, Output: got.Output, Stream: got.Stream}
	if got.Error != nil {
		out.Error = &stepErr{Name: got.Error.Name, Message: got.Error.Message}
	}
	return out, nil
}

func (p *cfProvider) RestartInstanceFrom(ctx context.Context, wf, id, name string, count int, stepType string) error {
	return p.c.RestartInstanceFrom(ctx, wf, id, cloudflare.StepRef{Name: name, Count: count, Type: stepType})
}

// lacksFeature reports whether err says the provider does not serve the
// route at all (an older edge, an account without the feature): 404 with
// Cloudflare's "no route" code 7003, 405 or 501.
func lacksFeature(err error) bool {
	ae, ok := errors.AsType[*cloudflare.APIError](err)
	if !ok {
		return false
	}
	switch ae.Status {
	case http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return true
	case http.StatusNotFound:
		for _, e := range ae.Errors {
			if e.Code == 7003 || e.Code == 7000 {
				return true
			}
		}
	}
	return false
}
