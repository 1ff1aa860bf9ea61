package cloudflare

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cloudflare/cloudflare-go/v6/option"
)

// The 2026 Workflows instance calls: delete (one and a batch), restart from a step, a step's full output and the
// instance event stream (docs/edge.md, "Workflows: the 2026 surface"). All are raw requests: the SDK has none of
// them.

// DeleteInstance deletes an instance and its stored state (DELETE …/instances/{id}); a running one stops. A
// missing one is an *APIError 404. Retried: idempotent.
func (c *Client) DeleteInstance(ctx context.Context, workflow, id string) error {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return err
	}
	if err := checkInstanceID(id); err != nil {
		return err
	}
	_, err = c.do(ctx, request{method: http.MethodDelete, path: p + "/instances/" + url.PathEscape(id), idempotent: true})
	return err
}

// MaxInstancesDelete is the most instances DeleteInstances deletes in one request (Cloudflare's limit).
const MaxInstancesDelete = 100

// InstanceDeleteError is one id a batch delete did not delete: Code 10400 for an instance that does not exist.
type InstanceDeleteError struct {
	ID      string `json:"id"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// InstancesDeleted is the answer of DeleteInstances.
type InstancesDeleted struct {
	Deleted []string
	Errors  []InstanceDeleteError
}

// DeleteInstances deletes 1 to MaxInstancesDelete instances in one request (POST …/instances/batch/delete
// {"instances": [ids]}): each id is deleted or listed in Errors. Retried: deleting again is harmless.
func (c *Client) DeleteInstances(ctx context.Context, workflow string, ids []string) (InstancesDeleted, error) {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return InstancesDeleted{}, err
	}
	if len(ids) == 0 || len(ids) > MaxInstancesDelete {
		return InstancesDeleted{}, argErr("ids", "must hold 1 to %d instance ids, not %d", MaxInstancesDelete, len(ids))
	}
	for _, id := range ids {
		if err := checkInstanceID(id); err != nil {
			return InstancesDeleted{}, err
		}
	}
	var got struct {
		Deleted []struct {
			ID string `json:"id"`
		} `json:"deleted"`
		Errors []InstanceDeleteError `json:"errors"`
	}
	if _, err := c.do(ctx, request{method: http.MethodPost, path: p + "/instances/batch/delete",
		body: map[string]any{"instances": ids}, idempotent: true, result: &got}); err != nil {
		return InstancesDeleted{}, err
	}
	out := InstancesDeleted{Deleted: make([]string, 0, len(got.Deleted)), Errors: got.Errors}
	for _, d := range got.Deleted {
		out.Deleted = append(out.Deleted, d.ID)
	}
	return out, nil
}

// StepRef names one step of an instance as Cloudflare's restart and step lookups do: its name, the occurrence of
// that name (from 1; 0 leaves it out) and its type ("do", "sleep" or "waitForEvent"; "" leaves it out).
type StepRef struct {
	Name  string `json:"name"`
	Count int    `json:"count,omitempty"`
	Type  string `json:"type,omitempty"`
}

func (r StepRef) check(field string) error {
	if r.Name == "" || len(r.Name) > 256 {
		return argErr(field+".name", "must be 1-256 characters")
	}
	if r.Count < 0 {
		return argErr(field+".count", "must be 1 or more")
	}
	switch r.Type {
	case "", "do", "sleep", "waitForEvent":
	default:
		return argErr(field+".type", "must be do, sleep or waitForEvent, not %q", r.Type)
	}
	return nil
}

// RestartInstanceFrom restarts an instance from a step (PATCH …/instances/{id}/status {"status": "restart",
// "from": {name, count?, type?}}): the steps before it keep their results, it and the rest run again. Not
// retried.
func (c *Client) RestartInstanceFrom(ctx context.Context, workflow, id string, from StepRef) error {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return err
	}
	if err := checkInstanceID(id); err != nil {
		return err
	}
	if err := from.check("from"); err != nil {
		return err
	}
	_, err = c.do(ctx, request{method: http.MethodPatch, path: p + "/instances/" + url.PathEscape(id) + "/status",
		body: map[string]any{"status": "restart", "from": from}})
	return err
}

// StepOutputQuery names the step whose output GetStepOutput reads: Name, and the occurrence of that name (Count,
// 0 for none), its type ("step" or "waitForEvent"; "" means step) and one attempt of a step.do (Attempt, 0 for
// the step as a whole).
type StepOutputQuery struct {
	Name    string
	Type    string
	Count   int
	Attempt int
}

// StepOutput is a step's full output (GET …/instances/{id}/step). Status is running, waiting, complete or
// errored. Output is the JSON value when the step returned one; Stream holds the bytes of a step that returned a
// ReadableStream (Output nil then). A sensitive step's output is the JSON string "[REDACTED]".
type StepOutput struct {
	Status    string          `json:"status"`
	Error     *InstanceError  `json:"error,omitempty"`
	Output    json.RawMessage `json:"output"`
	EventType string          `json:"event_type,omitempty"`
	Stream    []byte          `json:"-"`
}

// MaxStepOutputRead is the largest step output GetStepOutput reads: the client's bound of any answer body.
const MaxStepOutputRead = maxBody

// GetStepOutput reads one step's full output. A step or attempt the instance does not have is an *APIError 404;
// an output over MaxStepOutputRead bytes is a *TooLargeError. Retried: a read.
func (c *Client) GetStepOutput(ctx context.Context, workflow, id string, q StepOutputQuery) (StepOutput, error) {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return StepOutput{}, err
	}
	if err := checkInstanceID(id); err != nil {
		return StepOutput{}, err
	}
	if q.Name == "" || len(q.Name) > 256 {
		return StepOutput{}, argErr("name", "must be 1-256 characters")
	}
	v := url.Values{"name": {q.Name}}
	switch q.Type {
	case "", "step", "waitForEvent":
		if q.Type != "" {
			v.Set("type", q.Type)
		}
	default:
		return StepOutput{}, argErr("type", "must be step or waitForEvent, not %q", q.Type)
	}
	if q.Count < 0 || q.Attempt < 0 {
		return StepOutput{}, argErr("count", "count and attempt must not be negative")
	}
	if q.Count > 0 {
		v.Set("count", strconv.Itoa(q.Count))
	}
	if q.Attempt > 0 {
		v.Set("attempt", strconv.Itoa(q.Attempt))
	}
	path := p + "/instances/" + url.PathEscape(id) + "/step"
	target := path + "?" + v.Encode()
	op := http.MethodGet + " " + path
	var out StepOutput
	err = c.runWithin(ctx, op, true, c.timeout, func(ctx context.Context, opts ...option.RequestOption) error {
		var res *http.Response
		if err := c.sdk.Execute(ctx, http.MethodGet, target, nil, &res, opts...); err != nil {
			return err
		}
		defer res.Body.Close()
		if res.ContentLength > maxBody {
			return &TooLargeError{Op: op, Limit: maxBody}
		}
		raw, err := io.ReadAll(io.LimitReader(res.Body, maxBody+1))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &UnreachableError{Op: op, Err: err}
		}
		if len(raw) > maxBody {
			return &TooLargeError{Op: op, Limit: maxBody}
		}
		if ct := res.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/octet-stream") {
			out = StepOutput{Status: "complete", Stream: raw}
			return nil
		}
		var env struct {
			Success *bool           `json:"success"`
			Errors  []ErrorDetail   `json:"errors"`
			Result  json.RawMessage `json:"result"`
		}
		if json.Unmarshal(raw, &env) != nil {
			return &MalformedResponseError{Op: op, Status: res.StatusCode, Reason: "body is not a JSON envelope"}
		}
		if env.Success != nil && !*env.Success {
			return &APIError{Op: op, Status: res.StatusCode, Errors: env.Errors}
		}
		if err := json.Unmarshal(env.Result, &out); err != nil || out.Status == "" {
			return &MalformedResponseError{Op: op, Status: res.StatusCode, Reason: "result is not a step output"}
		}
		if len(out.Output) == 0 {
			out.Output = json.RawMessage("null")
		}
		return nil
	})
	return out, err
}

// InstanceEvent is one event of an instance's event stream: EventID orders them (a cursor to resume after),
// Type is the event's type (workflow_queued … workflow_completed, step_started, attempt_errored, …) and Data the
// event as JSON.
type InstanceEvent struct {
	EventID string
	Type    string
	Data    json.RawMessage
}

// InstanceEvents is an open instance event stream (SubscribeInstance). Next blocks for the next event; Close ends
// the stream. It is safe to Close from another goroutine while Next waits.
type InstanceEvents struct {
	op     string
	body   io.ReadCloser
	cancel context.CancelFunc
	r      *bufio.Reader
	once   sync.Once
}

// maxEventLine bounds one line of the event stream (an event's data: a step's output is left out of its event
// when it is a stream, and a JSON output is at most Cloudflare's step output limit of 1 MiB).
const maxEventLine = 2 << 20

// Next returns the next event. io.EOF means the stream ended (the instance's final event was sent, or the
// provider closed it: reconnect with the last EventID).
func (s *InstanceEvents) Next() (InstanceEvent, error) {
	var ev InstanceEvent
	var data strings.Builder
	for {
		line, err := s.readLine()
		if err != nil {
			return InstanceEvent{}, err
		}
		switch {
		case line == "":
			if data.Len() == 0 && ev.Type == "" {
				continue // a comment block (keep-alive) or stray blank line
			}
			ev.Data = json.RawMessage(data.String())
			if ev.Type == "" {
				var probe struct {
					Type string `json:"type"`
				}
				_ = json.Unmarshal(ev.Data, &probe)
				ev.Type = probe.Type
			}
			return ev, nil
		case strings.HasPrefix(line, ":"):
			// a comment: keep-alive
		default:
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "id":
				ev.EventID = value
			case "event":
				ev.Type = value
			case "data":
				if data.Len() > 0 {
					data.WriteByte('\n')
				}
				data.WriteString(value)
			}
		}
	}
}

func (s *InstanceEvents) readLine() (string, error) {
	var b []byte
	for {
		chunk, more, err := s.r.ReadLine()
		if err != nil {
			if err == io.EOF {
				return "", io.EOF
			}
			return "", &UnreachableError{Op: s.op, Err: err}
		}
		b = append(b, chunk...)
		if len(b) > maxEventLine {
			return "", &MalformedResponseError{Op: s.op, Status: http.StatusOK, Reason: "an event line is longer than 2 MiB"}
		}
		if !more {
			return string(b), nil
		}
	}
}

// Close ends the stream.
func (s *InstanceEvents) Close() error {
	s.once.Do(func() {
		s.cancel()
		s.body.Close()
	})
	return nil
}

// SubscribeOptions configure SubscribeInstance.
type SubscribeOptions struct {
	// Cursor is the EventID after which events are sent; "" sends the instance's whole history first.
	Cursor string
	// Filter keeps only these event types; nil keeps all.
	Filter []string
}

// SubscribeInstance opens the instance's event stream (GET …/instances/{id}/subscribe?cursor=&filter=, server-sent
// events): its history after opts.Cursor, then each event as it happens, until its final event. The client's
// timeout bounds the wait for the answer's headers only; the stream lasts until ctx ends, Close, or the provider
// ends it. Not retried: the caller reconnects with its last EventID. A provider without the route answers an
// *APIError 404 or 405.
func (c *Client) SubscribeInstance(ctx context.Context, workflow, id string, opts SubscribeOptions) (*InstanceEvents, error) {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return nil, err
	}
	if err := checkInstanceID(id); err != nil {
		return nil, err
	}
	v := url.Values{}
	if opts.Cursor != "" {
		if strings.ContainsAny(opts.Cursor, "\r\n") || len(opts.Cursor) > 100 {
			return nil, argErr("cursor", "must be an event id")
		}
		v.Set("cursor", opts.Cursor)
	}
	if len(opts.Filter) > 0 {
		v.Set("filter", strings.Join(opts.Filter, ","))
	}
	path := p + "/instances/" + url.PathEscape(id) + "/subscribe"
	target := path
	if len(v) > 0 {
		target += "?" + v.Encode()
	}
	op := http.MethodGet + " " + path
	sctx, cancel := context.WithCancel(ctx)
	headers := time.AfterFunc(c.timeout, cancel)
	var res *http.Response
	start := time.Now()
	err = c.sdk.Execute(sctx, http.MethodGet, target, nil, &res, option.WithHeader("Accept", "text/event-stream"))
	timedOut := !headers.Stop()
	status := 0
	if res != nil {
		status = res.StatusCode
	}
	c.logger.Debug("cloudflare request", "op", op, "status", status, "attempt", 1, "duration", time.Since(start).Round(time.Millisecond))
	if err != nil {
		defer cancel()
		if timedOut && ctx.Err() == nil {
			return nil, &UnreachableError{Op: op, Timeout: true, Err: context.DeadlineExceeded}
		}
		return nil, classify(ctx, sctx, op, res, err)
	}
	if res.StatusCode >= 400 {
		defer cancel()
		defer res.Body.Close()
		return nil, apiErrorFrom(op, res)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		cancel()
		res.Body.Close()
		return nil, &MalformedResponseError{Op: op, Status: res.StatusCode, Reason: fmt.Sprintf("content type %q is not text/event-stream", ct)}
	}
	return &InstanceEvents{op: op, body: res.Body, cancel: cancel, r: bufio.NewReaderSize(res.Body, 64<<10)}, nil
}

// MaxInstancesCreate is the most instances CreateInstances creates in one request (Cloudflare's limit).
const MaxInstancesCreate = 100

// NewInstance is one instance of a batch create: its id ("" lets the provider choose one) and params (nil for
// none).
type NewInstance struct {
	ID     string          `json:"instance_id,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
}

// InstanceCreateError is one entry of a batch create the provider refused: its index in the batch, its id, the
// code (10405 an id that exists, 10415 an id named twice) and the message.
type InstanceCreateError struct {
	Index   int    `json:"index"`
	ID      string `json:"id"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// InstancesCreated is the answer of CreateInstances: the instances created and the entries refused.
type InstancesCreated struct {
	Created []Instance            `json:"created"`
	Errors  []InstanceCreateError `json:"errors"`
}

// CreateInstances creates 1 to MaxInstancesCreate instances in one request, in the object form of the batch create
// (POST …/instances/batch {"instances": [{instance_id?, params?}]}): each entry is created or listed in Errors by
// its index. Not retried: a 429 or a 5xx is the caller's to retry, as a repeated batch finds its ids taken.
func (c *Client) CreateInstances(ctx context.Context, workflow string, instances []NewInstance) (InstancesCreated, error) {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return InstancesCreated{}, err
	}
	if len(instances) == 0 || len(instances) > MaxInstancesCreate {
		return InstancesCreated{}, argErr("instances", "must hold 1 to %d instances, not %d", MaxInstancesCreate, len(instances))
	}
	for i, in := range instances {
		if in.ID != "" {
			if err := checkInstanceID(in.ID); err != nil {
				return InstancesCreated{}, err
			}
		}
		if len(in.Params) > 0 && !json.Valid(in.Params) {
			return InstancesCreated{}, argErr("instances", "entry %d: params is not valid JSON", i)
		}
	}
	var got InstancesCreated
	if _, err := c.do(ctx, request{method: http.MethodPost, path: p + "/instances/batch",
		body: map[string]any{"instances": instances}, result: &got}); err != nil {
		return InstancesCreated{}, err
	}
	if got.Created == nil {
		got.Created = []Instance{}
	}
	return got, nil
}
