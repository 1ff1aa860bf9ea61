package deploy

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Test runs (POST /api/workflows/:id/versions/:versionId/test). A test runs
// one version once on the local edge, whatever connections the workflow
// has, under a temporary script and Workflow name ("ef-test-" and random
// letters), in the organization's own local edge account, so it reaches the
// same KV, D1 and R2 resources a local deployment of the workflow binds
// (created when missing, and kept). The worker and the Workflow are deleted
// when the run ends; no workflow, deployment or run record is written.

// DefaultTestTimeout is how long a test run may take before it is stopped;
// MaxTestTimeout the most a request may ask for.
const (
	DefaultTestTimeout = 2 * time.Minute
	MaxTestTimeout     = 10 * time.Minute
)

// StepMocked is the state of a step a test answered with its mock.
const StepMocked = "mocked"

// TestRequest runs a version of a workflow once.
type TestRequest struct {
	// VersionID is the version of the workflow to run.
	VersionID string
	// Draft, when set, is run instead of a stored version: an IR the
	// caller checked as a version submission but did not store (Number 0).
	Draft *edgeflow.Version
	// Pinned are the workflow's pinned outputs by node id: those of steps
	// the version has answer as mocks unless Mocks names the node; the
	// others are left out (a pin outlives the node it was set on).
	Pinned map[string]json.RawMessage
	Params json.RawMessage
	// Mocks are outputs by node id: those steps answer the mock instead of
	// running.
	Mocks map[string]json.RawMessage
	// Timeout bounds the run (0: DefaultTestTimeout).
	Timeout time.Duration
}

// TestResult is what a test run did (edgeflow.TestResult).
type TestResult = edgeflow.TestResult

// LogLine is one line of console output or an exception of a test run.
type LogLine = edgeflow.TestLogLine

// testAccounts keeps the local edge accounts of organizations that have no
// local connection, by organization id (their tokens live only here).
type testAccounts struct {
	mu    sync.Mutex
	creds map[string]localCreds
}

// Test runs req's version once on the local edge and answers how it went:
// 200 also for a run that errored. Refused before anything runs: a function
// (bad_request; invoke it instead), an unknown workflow or version
// (not_found), params that Trigger refuses, mocks naming no durable step of
// the version (validation_failed), unresolved variables or secrets
// (deploy_failed), no local edge (provider_unavailable).
func (s *Service) Test(ctx context.Context, tw *TenantWorkflow, req TestRequest) (*TestResult, error) {
	if s.compiler == nil {
		return nil, edgeflow.Errorf(edgeflow.EInternal, "no compiler is configured")
	}
	wf := tw.Workflow()
	w := &wf
	if w.Kind == edgeflow.KindScript {
		return nil, edgeflow.Errorf(edgeflow.EBadRequest, "a function is not tested with a run: deploy it and call it with POST /api/workflows/%s/invoke", w.ID)
	}
	v := req.Draft
	if v == nil {
		var err error
		if v, err = s.store.FindVersionByID(ctx, w.ID, req.VersionID); err != nil {
			return nil, err
		}
	}
	params, err := checkParams(req.Params)
	if err != nil {
		return nil, err
	}
	mocks, pinned := withPins(v, req.Mocks, req.Pinned)
	replay, mocked, err := mockReplay(v, mocks)
	if err != nil {
		return nil, err
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultTestTimeout
	}
	if timeout > MaxTestTimeout {
		return nil, edgeflow.Invalid("/timeoutSeconds", fmt.Sprintf("a test run may take at most %d seconds", int(MaxTestTimeout/time.Second)))
	}
	if len(replay) > 0 {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(params, &obj); err != nil || obj == nil {
			obj = map[string]json.RawMessage{}
		}
		b, err := json.Marshal(replay)
		if err != nil {
			return nil, err
		}
		obj[codegen.ReplayKey] = b
		if params, err = json.Marshal(obj); err != nil {
			return nil, err
		}
		if len(params) > MaxRestartParamsBytes {
			return nil, edgeflow.Invalid("/mocks", fmt.Sprintf("the params with the mocks are %d bytes, over the %d a run can take", len(params), MaxRestartParamsBytes))
		}
	}
	reqs, err := s.compiler.Analyze(ctx, w, v)
	if err != nil {
		return nil, err
	}
	if err := CheckSubWorkflows(ctx, s.store, w.ProjectID, reqs.SubWorkflows); err != nil {
		return nil, err
	}
	env, err := s.resolveEnv(ctx, w, "", reqs.EnvNames, reqs.Secrets)
	if err != nil {
		return nil, err
	}
	prov, err := s.testProvider(ctx, w.OrganizationID)
	if err != nil {
		return nil, err
	}
	compiled, err := s.compiler.Compile(ctx, w, v, env)
	if err != nil {
		return nil, err
	}
	// The compiler may cache its artifacts: change a copy.
	art := *compiled
	art.ScriptName = testScriptName()
	art.WorkflowName = art.ScriptName
	art.Crons = nil
	art.Bindings = append(append([]Binding(nil), compiled.Bindings...), workerSecrets{token: newSecret("efw_")}.bindings()...)
	bindings, err := s.bindings(ctx, prov, w, &art, env)
	if err != nil {
		return nil, err
	}
	// Whatever happens from here on, nothing stays behind.
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := prov.DeleteWorkflow(cctx, art.WorkflowName); err != nil {
			s.log.Error("test run: Workflow not deleted", "workflow", w.ID, "name", art.WorkflowName, "err", err)
		}
		if err := prov.DeleteWorker(cctx, art.ScriptName); err != nil {
			s.log.Error("test run: worker not deleted", "workflow", w.ID, "script", art.ScriptName, "err", err)
		}
	}()
	err = prov.UploadWorker(ctx, WorkerUpload{ScriptName: art.ScriptName, MainModule: art.MainModule, Modules: art.Modules,
		CompatibilityDate: orDefault(art.CompatibilityDate, DefaultCompatibilityDate), CompatibilityFlags: flagsOrDefault(art.CompatibilityFlags),
		Bindings: bindings})
	if err != nil {
		return nil, providerError("upload the test worker", err)
	}
	if err := prov.PutWorkflow(ctx, art.WorkflowName, art.ScriptName, art.ClassName, WorkflowConfig{}); err != nil {
		return nil, providerError("create the test Workflow", err)
	}
	id := edgeflow.NewID(edgeflow.PrefixRun)
	trace := s.tracing.NewRunTrace(ctx, w.Name)
	sent, err := withTraceEnvelope(params, trace)
	if err != nil {
		return nil, err
	}
	started := s.now()
	if err := prov.CreateInstance(ctx, art.WorkflowName, id, sent); err != nil {
		return nil, providerError("create the test instance", err)
	}
	inst, status, stopped, err := s.awaitTest(ctx, prov, art.WorkflowName, id, timeout)
	if err != nil {
		return nil, err
	}
	res := &TestResult{Status: status, Output: rawOrNil(inst.Output), Logs: []LogLine{},
		DurationMs: s.now().Sub(started).Milliseconds(), Pinned: pinned}
	if res.Output == nil {
		res.Output = json.RawMessage("null")
	}
	if status != edgeflow.RunComplete {
		msg := inst.Error
		if stopped {
			msg = fmt.Sprintf("the test run did not finish within %s and was stopped", timeout)
		} else if msg == "" {
			msg = "the run failed"
		}
		res.Error = &msg
	}
	res.Steps = placeMocked(DescribeSteps(inst.Steps, invertStepNames(v.IR), mocked, status), v.IR)
	s.traceTest(ctx, w, v, id, trace, inst, status, started)
	return res, nil
}

// traceTest emits the spans of a traced test run once it has ended: the
// run's span (a child of the test request's) and one per step that ended,
// as for a stored run, from the run as the test read it last (decision 620).
// A test run has no record: the spans name its instance id as the run id.
func (s *Service) traceTest(ctx context.Context, w *edgeflow.Workflow, v *edgeflow.Version, id string, trace *edgeflow.RunTrace, inst *Instance, status string, started time.Time) {
	if trace == nil {
		return
	}
	r := &edgeflow.Run{ID: id, WorkflowID: w.ID, ProjectID: w.ProjectID, VersionID: v.ID, InstanceID: id,
		CreatedAt: started.UTC(), Trace: trace}
	applyInstance(r, inst, s.now().UTC())
	r.Status = status
	if r.EndedAt == nil {
		end := s.now().UTC()
		r.EndedAt = &end
	}
	s.traceRunChange(ctx, r, nil, "")
}

// placeMocked marks the mocked steps (listed first by DescribeSteps, as
// replayed ones) and puts each before the first executed step whose node
// comes after it in the IR, so that the list reads in the graph's order.
func placeMocked(steps []edgeflow.RunStep, raw json.RawMessage) []edgeflow.RunStep {
	var a ir.ArtifactIR
	json.Unmarshal(raw, &a)
	order := map[string]int{}
	for i, n := range a.Nodes {
		order[n.ID] = i
	}
	var mocked, ran []edgeflow.RunStep
	for _, st := range steps {
		if st.State == edgeflow.StepReplayed {
			st.State = StepMocked
			mocked = append(mocked, st)
		} else {
			ran = append(ran, st)
		}
	}
	out := make([]edgeflow.RunStep, 0, len(steps))
	for _, st := range ran {
		for len(mocked) > 0 {
			pos, ok := order[st.NodeID]
			if ok && order[mocked[0].NodeID] > pos {
				break
			}
			out = append(out, mocked[0])
			mocked = mocked[1:]
		}
		out = append(out, st)
	}
	return append(out, mocked...)
}

// checkParams applies Trigger's rules to a test's params.
func checkParams(raw json.RawMessage) ([]byte, error) {
	params := bytes.TrimSpace(raw)
	if len(params) == 0 || string(params) == "null" {
		params = []byte("{}")
	}
	if len(params) > MaxParamsBytes {
		return nil, edgeflow.Errorf(edgeflow.EPayloadTooLarge, "params must be at most 100 KB when serialized (got %d bytes)", len(params))
	}
	if params[0] != '{' {
		return nil, edgeflow.Invalid("/params", "params must be a JSON object")
	}
	if hasReplayKey(params) {
		return nil, edgeflow.Invalid("/params/"+codegen.ReplayKey, "this key is reserved: give step outputs in mocks")
	}
	if hasTraceKey(params) {
		return nil, edgeflow.Invalid("/params/"+codegen.TraceKey, "this key is reserved for the run's trace context")
	}
	return params, nil
}

// mockReplay turns mocks by node id into the replay map (by step name)
// and the steps to show as mocked, in the version's node order.
func mockReplay(v *edgeflow.Version, mocks map[string]json.RawMessage) (map[string]json.RawMessage, []edgeflow.ReplayedStep, error) {
	if len(mocks) == 0 {
		return nil, nil, nil
	}
	var a ir.ArtifactIR
	if err := json.Unmarshal(v.IR, &a); err != nil {
		return nil, nil, edgeflow.Errorf(edgeflow.EConflict, "version %d cannot be read", v.Number)
	}
	names := codegen.StepNames(&a) // node id -> step name
	nodes := map[string]ir.Node{}
	for _, n := range a.Nodes {
		nodes[n.ID] = n
	}
	var bad []edgeflow.FieldError
	ids := make([]string, 0, len(mocks))
	for id := range mocks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		n, ok := nodes[id]
		path := "/mocks/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(id)
		switch {
		case !ok:
			bad = append(bad, edgeflow.FieldError{Path: path, Message: fmt.Sprintf("version %d has no node %q", v.Number, id)})
		case nonDurable[n.Type] || names[id] == "":
			bad = append(bad, edgeflow.FieldError{Path: path, Message: fmt.Sprintf("node %q is a %s, which does not run as a step of its own", id, n.Type)})
		case !json.Valid(mocks[id]):
			bad = append(bad, edgeflow.FieldError{Path: path, Message: "not a JSON value"})
		}
	}
	if len(bad) > 0 {
		return nil, nil, &edgeflow.Error{Code: edgeflow.EInvalid, Message: "mocks name steps the version does not have", Details: bad}
	}
	replay := make(map[string]json.RawMessage, len(mocks))
	var shown []edgeflow.ReplayedStep
	for _, n := range a.Nodes {
		out, ok := mocks[n.ID]
		if !ok {
			continue
		}
		replay[names[n.ID]] = out
		shown = append(shown, edgeflow.ReplayedStep{NodeID: n.ID, Name: names[n.ID], OriginalName: names[n.ID], Type: n.Type, Output: out})
	}
	return replay, shown, nil
}

// withPins returns mocks with the pinned outputs of the version's steps
// that mocks does not name, and the ids of those nodes in the version's
// order. Pins of nodes the version does not have, or that are not steps of
// their own, are left out: pins outlive the nodes they were set on.
func withPins(v *edgeflow.Version, mocks, pins map[string]json.RawMessage) (map[string]json.RawMessage, []string) {
	if len(pins) == 0 {
		return mocks, nil
	}
	var a ir.ArtifactIR
	if err := json.Unmarshal(v.IR, &a); err != nil {
		return mocks, nil // mockReplay says why
	}
	names := codegen.StepNames(&a)
	out := make(map[string]json.RawMessage, len(mocks)+len(pins))
	for id, m := range mocks {
		out[id] = m
	}
	var used []string
	for _, n := range a.Nodes {
		pin, ok := pins[n.ID]
		if _, mocked := mocks[n.ID]; !ok || mocked || nonDurable[n.Type] || names[n.ID] == "" || !json.Valid(pin) {
			continue
		}
		out[n.ID] = pin
		used = append(used, n.ID)
	}
	return out, used
}

// awaitTest reads the instance until it ends, or stops it at the timeout
// (stopped true). A client that goes away stops it too.
func (s *Service) awaitTest(ctx context.Context, prov Provider, workflowName, id string, timeout time.Duration) (*Instance, string, bool, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	wait := 100 * time.Millisecond
	status := edgeflow.RunQueued
	for {
		inst, err := prov.GetInstance(ctx, workflowName, id)
		if err != nil {
			return nil, "", false, providerError("read the test run's status", err)
		}
		status, _ = MapStatus(inst.Status, inst.Steps, status)
		if edgeflow.RunIsFinal(status) {
			return inst, status, false, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
			wait = min(wait*2, time.Second)
		case <-deadline.C:
			t.Stop()
			return s.stopTest(ctx, prov, workflowName, id, true)
		case <-ctx.Done():
			t.Stop()
			return s.stopTest(ctx, prov, workflowName, id, false)
		}
	}
}

// stopTest terminates an unfinished test run and reads its last state.
func (s *Service) stopTest(ctx context.Context, prov Provider, workflowName, id string, timedOut bool) (*Instance, string, bool, error) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := prov.ChangeInstanceStatus(cctx, workflowName, id, "terminate"); err != nil && !isProviderConflict(err) {
		s.log.Warn("test run: instance not terminated", "instance", id, "err", err)
	}
	if !timedOut {
		return nil, "", false, ctx.Err()
	}
	inst, err := prov.GetInstance(cctx, workflowName, id)
	if err != nil {
		inst = &Instance{}
	}
	return inst, edgeflow.RunTerminated, true, nil
}

// testScriptName is a fresh temporary script (and Workflow) name.
func testScriptName() string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 16)
	rand.Read(b)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return "ef-test-" + string(b)
}

// flagsOrDefault is a worker's compatibility flags, none by default: at
// DefaultCompatibilityDate, nodejs_compat is on without naming it.
func flagsOrDefault(flags []string) []string {
	if flags == nil {
		return DefaultCompatibilityFlags
	}
	return flags
}

// testProvider is the local edge account test runs of the organization use:
// the account of its local connections, or, when it has none, one kept in
// this process (provisioned on first use, again when the edge forgets it).
func (s *Service) testProvider(ctx context.Context, organizationID string) (Provider, error) {
	if s.edge == nil {
		return nil, edgeflow.Errorf(edgeflow.EProviderUnavailable, "test runs need the local edge, and the server was started with --no-edge")
	}
	conns, err := s.localConnections(ctx, organizationID)
	if err != nil {
		return nil, err
	}
	if len(conns) > 0 {
		return s.localProviderFor(ctx, &conns[0])
	}
	s.tests.mu.Lock()
	defer s.tests.mu.Unlock()
	if s.tests.creds == nil {
		s.tests.creds = map[string]localCreds{}
	}
	for attempt := 0; ; attempt++ {
		creds, ok := s.tests.creds[organizationID]
		if !ok {
			unlock := s.lockOrg(organizationID)
			id, token, err := s.edge.ProvisionAccount(ctx, localAccountRef(organizationID), "edgeflow organization "+organizationID)
			unlock()
			if err != nil {
				return nil, &edgeflow.Error{Code: edgeflow.EProviderUnavailable, Message: "the local edge could not provision the organization's account", Err: err}
			}
			creds = localCreds{accountID: id, token: token}
			s.tests.creds[organizationID] = creds
		}
		sub, err := s.localSubdomain(ctx, creds)
		if cloudflare.IsUnauthorized(err) && attempt == 0 {
			delete(s.tests.creds, organizationID)
			continue
		}
		if err != nil {
			return nil, providerError("read the local edge account's workers.dev subdomain", err)
		}
		return s.makeProvider(ProviderConfig{
			Provider:       edgeflow.ProviderLocal,
			BaseURL:        s.edge.APIBaseURL(),
			APIToken:       creds.token,
			AccountID:      creds.accountID,
			WorkersBaseURL: s.edge.WorkersBaseURL() + "/" + url.PathEscape(sub),
		})
	}
}
