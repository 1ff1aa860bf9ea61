package cloudflare_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
)

// The 2026 instance calls against a stub of Cloudflare that checks each exact request.
func TestInstanceCalls2026(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	W := A + "/workflows/wf"
	tests := []struct {
		name string
		want []exchange
		call func(c *cloudflare.Client) (any, error)
		out  any
	}{
		{
			name: "DeleteInstance",
			want: []exchange{{method: "DELETE", path: W + "/instances/run_1", resp: ok(`{"success":true}`)}},
			call: func(c *cloudflare.Client) (any, error) { return nil, c.DeleteInstance(ctx, "wf", "run_1") },
		},
		{
			name: "DeleteInstances",
			want: []exchange{{method: "POST", path: W + "/instances/batch/delete", body: `{"instances":["a","b"]}`,
				resp: ok(`{"deleted":[{"id":"a"}],"errors":[{"id":"b","code":10400,"message":"workflows.api.error.instance.not_found"}]}`)}},
			call: func(c *cloudflare.Client) (any, error) { return c.DeleteInstances(ctx, "wf", []string{"a", "b"}) },
			out: cloudflare.InstancesDeleted{Deleted: []string{"a"},
				Errors: []cloudflare.InstanceDeleteError{{ID: "b", Code: 10400, Message: "workflows.api.error.instance.not_found"}}},
		},
		{
			name: "RestartInstanceFrom",
			want: []exchange{{method: "PATCH", path: W + "/instances/run_1/status",
				body: `{"status":"restart","from":{"name":"charge","count":2,"type":"do"}}`, resp: ok(`{"status":"running"}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return nil, c.RestartInstanceFrom(ctx, "wf", "run_1", cloudflare.StepRef{Name: "charge", Count: 2, Type: "do"})
			},
		},
		{
			name: "GetStepOutput JSON",
			want: []exchange{{method: "GET", path: W + "/instances/run_1/step", query: "name=charge&attempt=2",
				resp: ok(`{"status":"complete","error":null,"output":{"n":1}}`)}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.GetStepOutput(ctx, "wf", "run_1", cloudflare.StepOutputQuery{Name: "charge", Attempt: 2})
			},
			out: cloudflare.StepOutput{Status: "complete", Output: json.RawMessage(`{"n":1}`)},
		},
		{
			name: "GetStepOutput stream",
			want: []exchange{{method: "GET", path: W + "/instances/run_1/step", query: "name=file&type=step",
				respType: "application/octet-stream", resp: "\x00raw bytes"}},
			call: func(c *cloudflare.Client) (any, error) {
				return c.GetStepOutput(ctx, "wf", "run_1", cloudflare.StepOutputQuery{Name: "file", Type: "step"})
			},
			out: cloudflare.StepOutput{Status: "complete", Stream: []byte("\x00raw bytes")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStub(t, tt.want...)
			got, err := tt.call(newClient(t, s, nil))
			if err != nil {
				t.Fatal(err)
			}
			if tt.out != nil {
				if diff := cmp.Diff(tt.out, got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestGetStepOutputNotFound(t *testing.T) {
	t.Parallel()
	s := newStub(t, exchange{method: "GET", path: A + "/workflows/wf/instances/run_1/step", query: "name=nope",
		status: 404, resp: fail(10204, "instance 'run_1' has no step.do step 'nope'")})
	_, err := newClient(t, s, nil).GetStepOutput(context.Background(), "wf", "run_1", cloudflare.StepOutputQuery{Name: "nope"})
	if ae, ok := errors.AsType[*cloudflare.APIError](err); !ok || ae.Status != 404 {
		t.Fatalf("err = %v, want an APIError 404", err)
	}
}

func TestSubscribeInstance(t *testing.T) {
	t.Parallel()
	stream := ": keep-alive\n\n" +
		"id: 1\nevent: workflow_queued\ndata: {\"eventId\":1,\"type\":\"workflow_queued\"}\n\n" +
		"id: 2\nevent: step_completed\ndata: {\"eventId\":2,\n" + "data: \"type\":\"step_completed\"}\n\n" +
		"id: 3\nevent: workflow_completed\ndata: {\"eventId\":3,\"type\":\"workflow_completed\"}\n\n"
	s := newStub(t, exchange{method: "GET", path: A + "/workflows/wf/instances/run_1/subscribe", query: "cursor=0",
		respType: "text/event-stream", resp: stream})
	events, err := newClient(t, s, nil).SubscribeInstance(context.Background(), "wf", "run_1", cloudflare.SubscribeOptions{Cursor: "0"})
	if err != nil {
		t.Fatal(err)
	}
	defer events.Close()
	var got []cloudflare.InstanceEvent
	for {
		ev, err := events.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev)
	}
	want := []cloudflare.InstanceEvent{
		{EventID: "1", Type: "workflow_queued", Data: json.RawMessage(`{"eventId":1,"type":"workflow_queued"}`)},
		{EventID: "2", Type: "step_completed", Data: json.RawMessage("{\"eventId\":2,\n\"type\":\"step_completed\"}")},
		{EventID: "3", Type: "workflow_completed", Data: json.RawMessage(`{"eventId":3,"type":"workflow_completed"}`)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// A provider without the route answers an APIError the caller falls back on (polling).
func TestSubscribeInstanceMissingRoute(t *testing.T) {
	t.Parallel()
	s := newStub(t, exchange{method: "GET", path: A + "/workflows/wf/instances/run_1/subscribe",
		status: http.StatusNotFound, resp: fail(7003, "No route for that URI")})
	_, err := newClient(t, s, nil).SubscribeInstance(context.Background(), "wf", "run_1", cloudflare.SubscribeOptions{})
	if ae, ok := errors.AsType[*cloudflare.APIError](err); !ok || ae.Status != 404 || ae.Errors[0].Code != 7003 {
		t.Fatalf("err = %v, want an APIError 404 with code 7003", err)
	}
}
