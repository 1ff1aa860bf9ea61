package cloudflare

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	cf "github.com/cloudflare/cloudflare-go/v6"
	"github.com/cloudflare/cloudflare-go/v6/option"
	"github.com/cloudflare/cloudflare-go/v6/workflows"
)

// WorkflowSpec is a Workflow to create or update: its name and the script and class that implement it.
type WorkflowSpec struct {
	Name       string
	ScriptName string
	ClassName  string
	// Schedules are the cron expressions that start instances. nil leaves
	// the field out of the request; an empty slice clears the schedules.
	Schedules []string
	// Limits are the Workflow's own limits ("limits"); nil leaves them out.
	Limits *WorkflowLimits
	// DefaultRetention is how long finished instances are kept
	// ("default_retention"); nil leaves it out.
	DefaultRetention *Retention
}

// WorkflowLimits are a Workflow's limits: steps per instance and CPU
// milliseconds per step; 0 leaves the account's default.
type WorkflowLimits struct {
	Steps int `json:"steps,omitempty"`
	CPUMs int `json:"cpu_ms,omitempty"`
}

// Retention is how long finished instances are kept, in milliseconds: 0
// leaves the default.
type Retention struct {
	SuccessMs int64 `json:"success_retention,omitempty"`
	ErrorMs   int64 `json:"error_retention,omitempty"`
}

// schedule is one entry of a Workflow's "schedules".
type schedule struct {
	Cron string `json:"cron"`
}

// Workflow is a Workflow of the account.
type Workflow struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	ScriptName string    `json:"script_name"`
	ClassName  string    `json:"class_name"`
	VersionID  string    `json:"version_id,omitempty"`
	CreatedOn  time.Time `json:"created_on"`
	ModifiedOn time.Time `json:"modified_on"`
}

// Instance is what CreateInstance answers.
type Instance struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	VersionID  string `json:"version_id"`
	WorkflowID string `json:"workflow_id"`
}

// InstanceError is the failure of an instance or a step.
type InstanceError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
}

// InstanceStep is one entry of an instance's steps. Type is "step", "sleep", "waitForEvent" or "termination".
type InstanceStep struct {
	Type     string          `json:"type"`
	Name     string          `json:"name,omitempty"`
	Start    *time.Time      `json:"start,omitempty"`
	End      *time.Time      `json:"end,omitempty"`
	Success  *bool           `json:"success,omitempty"`
	Finished *bool           `json:"finished,omitempty"`
	Output   json.RawMessage `json:"output,omitempty"`
	Error    *InstanceError  `json:"error,omitempty"`
	Attempts []StepAttempt   `json:"attempts,omitempty"`
	// Config is what the step's config says of its output: sensitive
	// "output" when the code marked it (the output is then "[REDACTED]").
	Config *StepConfig `json:"config,omitempty"`
}

// StepConfig is the part of a step's config (WorkflowStepConfig) that
// edgeflow reads: whether its output is sensitive.
type StepConfig struct {
	Sensitive string `json:"sensitive,omitempty"`
}

// SensitiveOutput reports whether the step's config marks its output
// sensitive.
func (s InstanceStep) SensitiveOutput() bool {
	return s.Config != nil && s.Config.Sensitive == "output"
}

// StepAttempt is one attempt of a step.
type StepAttempt struct {
	Start   *time.Time     `json:"start,omitempty"`
	End     *time.Time     `json:"end,omitempty"`
	Success *bool          `json:"success,omitempty"`
	Error   *InstanceError `json:"error,omitempty"`
}

// InstanceStatus is the state of one instance (GET …/instances/{id}). Status is one of queued, running, paused,
// errored, terminated, complete, waiting, waitingForPause (and unknown). Output and Params are the raw JSON
// (null when absent); Error is set when the instance failed.
type InstanceStatus struct {
	Status    string          `json:"status"`
	Params    json.RawMessage `json:"params,omitempty"`
	Output    json.RawMessage `json:"output,omitempty"`
	Error     *InstanceError  `json:"error,omitempty"`
	Success   *bool           `json:"success,omitempty"`
	VersionID string          `json:"versionId,omitempty"`
	Trigger   string          `json:"trigger,omitempty"`
	Queued    *time.Time      `json:"queued,omitempty"`
	Start     *time.Time      `json:"start,omitempty"`
	End       *time.Time      `json:"end,omitempty"`
	StepCount int             `json:"step_count,omitempty"`
	Steps     []InstanceStep  `json:"steps,omitempty"`
	// LogLines is how many log lines the local edge holds for the instance
	// (its addition; Cloudflare does not send it: nil).
	LogLines *int `json:"log_lines,omitempty"`
}

// Terminal reports whether the status is final (complete, errored, terminated).
func Terminal(status string) bool {
	return status == "complete" || status == "errored" || status == "terminated"
}

// InstanceSummary is one entry of ListInstances.
type InstanceSummary struct {
	ID         string     `json:"id"`
	Status     string     `json:"status"`
	VersionID  string     `json:"version_id"`
	WorkflowID string     `json:"workflow_id"`
	CreatedOn  *time.Time `json:"created_on,omitempty"`
	ModifiedOn *time.Time `json:"modified_on,omitempty"`
	StartedOn  *time.Time `json:"started_on,omitempty"`
	EndedOn    *time.Time `json:"ended_on,omitempty"`
}

// InstancesQuery filters ListInstances. Zero values are not sent (Cloudflare's defaults apply).
type InstancesQuery struct {
	Status  string
	Page    int
	PerPage int
}

func checkName(field, v string) error {
	if !validSegment(v) || len(v) > 255 {
		return argErr(field, "must be 1-255 characters without '/', '?', '#', '%%' or spaces")
	}
	return nil
}

func (c *Client) workflowPath(name string) (string, error) {
	acct, err := c.account()
	if err != nil {
		return "", err
	}
	if err := checkName("workflow", name); err != nil {
		return "", err
	}
	return acct + "/workflows/" + url.PathEscape(name), nil
}

// PutWorkflow creates or updates a Workflow (PUT accounts/{a}/workflows/{name} {"script_name","class_name"});
// the script must already be uploaded. Retried: idempotent.
func (c *Client) PutWorkflow(ctx context.Context, spec WorkflowSpec) (Workflow, error) {
	p, err := c.workflowPath(spec.Name)
	if err != nil {
		return Workflow{}, err
	}
	if err := checkScriptName(spec.ScriptName); err != nil {
		return Workflow{}, err
	}
	if spec.ClassName == "" {
		return Workflow{}, argErr("className", "is required")
	}
	var extra []option.RequestOption
	if spec.Schedules != nil {
		// The SDK's update parameters have no schedules field.
		list := make([]schedule, len(spec.Schedules))
		for i, cron := range spec.Schedules {
			list[i] = schedule{Cron: cron}
		}
		extra = append(extra, option.WithJSONSet("schedules", list))
	}
	if spec.Limits != nil {
		extra = append(extra, option.WithJSONSet("limits", *spec.Limits))
	}
	if spec.DefaultRetention != nil {
		extra = append(extra, option.WithJSONSet("default_retention", *spec.DefaultRetention))
	}
	var w Workflow
	err = c.run(ctx, "PUT "+p, true, func(ctx context.Context, opts ...option.RequestOption) error {
		opts = append(opts, extra...)
		r, err := c.sdk.Workflows.Update(ctx, spec.Name, workflows.WorkflowUpdateParams{
			AccountID: cf.F(c.accountID), ScriptName: cf.F(spec.ScriptName), ClassName: cf.F(spec.ClassName),
		}, opts...)
		if err != nil {
			return err
		}
		w = Workflow{ID: r.ID, Name: r.Name, ScriptName: r.ScriptName, ClassName: r.ClassName,
			VersionID: r.VersionID, CreatedOn: r.CreatedOn, ModifiedOn: r.ModifiedOn}
		return nil
	})
	return w, err
}

// GetWorkflow returns the Workflow; a missing one is an *APIError 404 (code 10200).
func (c *Client) GetWorkflow(ctx context.Context, name string) (Workflow, error) {
	p, err := c.workflowPath(name)
	if err != nil {
		return Workflow{}, err
	}
	var w Workflow
	_, err = c.do(ctx, request{method: http.MethodGet, path: p, idempotent: true, result: &w})
	return w, err
}

// ListWorkflows returns every Workflow of the account (all pages).
func (c *Client) ListWorkflows(ctx context.Context) ([]Workflow, error) {
	acct, err := c.account()
	if err != nil {
		return nil, err
	}
	out := []Workflow{}
	for page := 1; ; page++ {
		var items []Workflow
		q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {"100"}}
		info, err := c.do(ctx, request{method: http.MethodGet, path: acct + "/workflows", query: q, idempotent: true, result: &items})
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
		if !morePages(info, len(items), len(out), 100) {
			return out, nil
		}
	}
}

func morePages(info *resultInfo, got, total, perPage int) bool {
	if got == 0 {
		return false
	}
	if info != nil && info.TotalCount > 0 {
		return total < info.TotalCount
	}
	if info != nil && info.PerPage > 0 {
		perPage = info.PerPage
	}
	return got >= perPage
}

// DeleteWorkflow deletes the Workflow and its instances (not the script). Retried: idempotent.
func (c *Client) DeleteWorkflow(ctx context.Context, name string) error {
	p, err := c.workflowPath(name)
	if err != nil {
		return err
	}
	return c.run(ctx, "DELETE "+p, true, func(ctx context.Context, opts ...option.RequestOption) error {
		_, err := c.sdk.Workflows.Delete(ctx, name, workflows.WorkflowDeleteParams{AccountID: cf.F(c.accountID)}, opts...)
		return err
	})
}

func checkInstanceID(id string) error {
	if id == "" || len(id) > 100 || !validSegment(id) {
		return argErr("instanceId", "must be 1-100 characters without '/', '?', '#', '%%' or spaces")
	}
	return nil
}

// CreateInstance starts an instance of the Workflow: POST accounts/{a}/workflows/{w}/instances
// {"instance_id"?, "params"?}. An empty id lets Cloudflare choose one; empty params send none. Not retried (a
// lost answer would make the retry a duplicate); an id in use is an *APIError 409 (IsConflict).
func (c *Client) CreateInstance(ctx context.Context, workflow, id string, params json.RawMessage) (Instance, error) {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return Instance{}, err
	}
	body := workflows.InstanceNewParams{AccountID: cf.F(c.accountID)}
	if id != "" {
		if err := checkInstanceID(id); err != nil {
			return Instance{}, err
		}
		body.InstanceID = cf.F(id)
	}
	if len(params) > 0 {
		if !json.Valid(params) {
			return Instance{}, argErr("params", "is not valid JSON")
		}
		body.Params = cf.F[any](params)
	}
	var in Instance
	err = c.run(ctx, "POST "+p+"/instances", false, func(ctx context.Context, opts ...option.RequestOption) error {
		r, err := c.sdk.Workflows.Instances.New(ctx, workflow, body, opts...)
		if err != nil {
			return err
		}
		in = Instance{ID: r.ID, Status: string(r.Status), VersionID: r.VersionID, WorkflowID: r.WorkflowID}
		return nil
	})
	return in, err
}

// GetInstance returns the state of an instance; a missing one is an *APIError 404. Output is read from the raw
// JSON (the SDK types it as a string|number union).
func (c *Client) GetInstance(ctx context.Context, workflow, id string) (InstanceStatus, error) {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return InstanceStatus{}, err
	}
	if err := checkInstanceID(id); err != nil {
		return InstanceStatus{}, err
	}
	var raw rawInstance
	if _, err := c.do(ctx, request{method: http.MethodGet, path: p + "/instances/" + url.PathEscape(id), idempotent: true, result: &raw}); err != nil {
		return InstanceStatus{}, err
	}
	return raw.status(), nil
}

// rawInstance is an instance as the API answers it.
type rawInstance struct {
	InstanceStatus
	Trigger json.RawMessage `json:"trigger"`
}

func (raw rawInstance) status() InstanceStatus {
	st := raw.InstanceStatus
	var trig struct {
		Source string `json:"source"`
	}
	if json.Unmarshal(raw.Trigger, &trig) == nil {
		st.Trigger = trig.Source
	}
	if string(st.Output) == "null" {
		st.Output = nil
	}
	if string(st.Params) == "null" {
		st.Params = nil
	}
	return st
}

// MaxInstancesRead is the most instances ReadInstances reads in one request.
const MaxInstancesRead = 100

// InstanceRead is one instance of a ReadInstances answer: as GetInstance answers it, or Err, the error the API
// gave for it (Status 404 and code 10201 for an instance it does not know).
type InstanceRead struct {
	ID       string
	Instance InstanceStatus
	Err      *APIError
}

// ReadInstances reads up to MaxInstancesRead instances of the Workflow in one request: POST …/instances/read
// {"ids"}, an addition of edgeflow's local edge (docs/edge.md); Cloudflare has no such route. The answer holds
// one InstanceRead per id, in order.
func (c *Client) ReadInstances(ctx context.Context, workflow string, ids []string) ([]InstanceRead, error) {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 || len(ids) > MaxInstancesRead {
		return nil, fmt.Errorf("cloudflare: read %d instances: 1 to %d at a time", len(ids), MaxInstancesRead)
	}
	for _, id := range ids {
		if err := checkInstanceID(id); err != nil {
			return nil, err
		}
	}
	var got []struct {
		ID     string        `json:"id"`
		Result *rawInstance  `json:"result"`
		Errors []ErrorDetail `json:"errors"`
	}
	op := "POST " + strings.TrimPrefix(p, "/") + "/instances/read"
	if _, err := c.do(ctx, request{method: http.MethodPost, path: p + "/instances/read", body: map[string]any{"ids": ids},
		idempotent: true, result: &got}); err != nil {
		return nil, err
	}
	if len(got) != len(ids) {
		return nil, fmt.Errorf("cloudflare: %s: %d instances answered for %d ids", op, len(got), len(ids))
	}
	out := make([]InstanceRead, len(ids))
	for i, g := range got {
		if g.ID != ids[i] {
			return nil, fmt.Errorf("cloudflare: %s: instance %q answered in the place of %q", op, g.ID, ids[i])
		}
		out[i].ID = g.ID
		switch {
		case g.Result != nil:
			out[i].Instance = g.Result.status()
		default:
			status := http.StatusBadGateway
			for _, e := range g.Errors {
				if e.Code == 10201 {
					status = http.StatusNotFound
				}
			}
			out[i].Err = &APIError{Op: "GET " + strings.TrimPrefix(p, "/") + "/instances/" + url.PathEscape(g.ID), Status: status, Errors: g.Errors}
		}
	}
	return out, nil
}

// ListInstances returns one page of the Workflow's instances (GET …/instances?status=&page=&per_page=).
func (c *Client) ListInstances(ctx context.Context, workflow string, q InstancesQuery) ([]InstanceSummary, error) {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return nil, err
	}
	v := url.Values{}
	if q.Status != "" {
		v.Set("status", q.Status)
	}
	if q.Page < 0 || q.PerPage < 0 {
		return nil, argErr("page", "page and perPage must not be negative")
	}
	if q.Page > 0 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	if q.PerPage > 0 {
		v.Set("per_page", strconv.Itoa(q.PerPage))
	}
	out := []InstanceSummary{}
	_, err = c.do(ctx, request{method: http.MethodGet, path: p + "/instances", query: v, idempotent: true, result: &out})
	return out, err
}

// ChangeInstanceStatus pauses, resumes, terminates or restarts an instance: PATCH …/instances/{id}/status
// {"status": action}. Not retried. A change the instance's state forbids is an *APIError 409 on the local edge.
func (c *Client) ChangeInstanceStatus(ctx context.Context, workflow, id, action string) error {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return err
	}
	if err := checkInstanceID(id); err != nil {
		return err
	}
	switch action {
	case "pause", "resume", "terminate", "restart":
	default:
		return argErr("action", "must be pause, resume, terminate or restart, not %q", action)
	}
	return c.run(ctx, "PATCH "+p+"/instances/"+id+"/status", false, func(ctx context.Context, opts ...option.RequestOption) error {
		_, err := c.sdk.Workflows.Instances.Status.Edit(ctx, workflow, id, workflows.InstanceStatusEditParams{
			AccountID: cf.F(c.accountID), Status: cf.F(workflows.InstanceStatusEditParamsStatus(action)),
		}, opts...)
		return err
	})
}

// SendEvent delivers an event to an instance waiting for it: POST …/instances/{id}/events/{type} with the
// payload as the body (null when empty). Not retried.
func (c *Client) SendEvent(ctx context.Context, workflow, id, eventType string, payload json.RawMessage) error {
	p, err := c.workflowPath(workflow)
	if err != nil {
		return err
	}
	if err := checkInstanceID(id); err != nil {
		return err
	}
	if eventType == "" || len(eventType) > 100 || strings.ContainsAny(eventType, "/?#% \t\r\n") {
		return argErr("eventType", "must be 1-100 characters without '/', '?', '#', '%%' or spaces")
	}
	if len(payload) == 0 {
		payload = json.RawMessage("null")
	} else if !json.Valid(payload) {
		return argErr("payload", "is not valid JSON")
	}
	// A raw request: the SDK's event body is an interface{} its encoder cannot write raw JSON into.
	_, err = c.do(ctx, request{
		method: http.MethodPost, path: p + "/instances/" + url.PathEscape(id) + "/events/" + url.PathEscape(eventType),
		body: []byte(payload), contentType: "application/json",
	})
	return err
}
