package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Versions a restart runs (RestartRequest.Version).
const (
	RestartSameVersion    = "same"
	RestartCurrentVersion = "current"
)

// MaxRestartParamsBytes is the largest params of a restarted instance: the
// original params with the replayed outputs (1 MiB; docs/runs.md).
const MaxRestartParamsBytes = 1 << 20

// RestartRequest restarts a run from one of its steps.
type RestartRequest struct {
	// RunID is the run of the workflow to restart.
	RunID string
	// FromStep is the node id to execute from; "" restarts from the start.
	FromStep string
	// Version is "same" (the run's own version, the default when "") or
	// "current" (the version deployed now on the run's connection).
	Version string
	// Mode is "replay" (the default when ""): a new run replays the
	// outputs of the steps before FromStep; or "in-place": the provider
	// restarts the run's own instance from FromStep (RestartInPlace).
	Mode string
}

// Restart modes (RestartRequest.Mode).
const (
	RestartReplay  = "replay"
	RestartInPlace = "in-place"
)

// nonDurable are the node types that do not run as a durable step of
// their own, so a run cannot restart from them.
var nonDurable = map[string]bool{ir.TypeBranch: true, ir.TypeParallel: true, ir.TypeRace: true,
	ir.TypeTryCatch: true, ir.TypeLoop: true, ir.TypeBreak: true}

// pastStep is a step of the original run, replayed or executed there.
type pastStep struct {
	nodeID, name, suffix, typ string
	complete                  bool
	// sensitive: its output was never kept, so a restart executes it
	// again rather than replaying "[REDACTED]" (docs/runs.md).
	sensitive bool
	output    json.RawMessage
	rep       edgeflow.ReplayedStep
}

// Restart starts a new run of the workflow on the connection of run
// req.RunID that takes the outputs of the steps before req.FromStep from
// that run without executing them (they are passed with the new instance
// under codegen.ReplayKey, which the generated code consults before each
// durable step) and executes from req.FromStep on. The new run records
// RestartOf, FromStep and the replayed steps.
//
// Errors, with nothing created: an unknown version word, a fromStep that
// is not a durable step of the chosen version, and restarted params over
// MaxRestartParamsBytes are validation_failed (422); the workflow not
// deployed on the run's connection, "same" while another version is
// deployed there, a step before fromStep that did not complete in the
// original run, and a chosen version without one of those steps are
// conflict (409); provider failures are provider_unavailable /
// provider_error.
func (s *Service) Restart(ctx context.Context, tw *TenantWorkflow, req RestartRequest) (*edgeflow.Run, error) {
	return s.restart(ctx, tw, req, nil)
}

// ReplayRequest replays a run with other params (docs/runs.md, "Replay with
// changes").
type ReplayRequest struct {
	// RunID is the run of the workflow to replay.
	RunID string
	// Params are the new run's params, checked as a trigger's; nil keeps
	// the run's own (a bulk replay).
	Params json.RawMessage
	// FromStep and Version are Restart's.
	FromStep, Version string
}

// Replay starts a new run of the workflow on the connection of run
// req.RunID with req.Params, from the start or, with FromStep, taking the
// outputs of the steps before it from that run as Restart does. The new run
// records ReplayOf and ParamsChanged. Errors are Restart's, and a trigger's
// for the params.
func (s *Service) Replay(ctx context.Context, tw *TenantWorkflow, req ReplayRequest) (*edgeflow.Run, error) {
	var params []byte
	if req.Params != nil {
		var err error
		if params, err = checkParams(req.Params); err != nil {
			return nil, err
		}
	}
	return s.restart(ctx, tw, RestartRequest{RunID: req.RunID, FromStep: req.FromStep, Version: req.Version},
		&replayParams{params: params})
}

// replayParams are what a replay changes of a restart: the params (nil:
// the original's).
type replayParams struct{ params json.RawMessage }

func (s *Service) restart(ctx context.Context, tw *TenantWorkflow, req RestartRequest, edit *replayParams) (*edgeflow.Run, error) {
	wf := tw.Workflow()
	w := &wf
	if w.Kind == edgeflow.KindScript {
		return nil, edgeflow.Errorf(edgeflow.EBadRequest, "a function has no runs to restart")
	}
	switch req.Version {
	case "":
		req.Version = RestartSameVersion
	case RestartSameVersion, RestartCurrentVersion:
	default:
		return nil, edgeflow.Invalid("/version", `version must be "same" or "current"`)
	}
	switch req.Mode {
	case "", RestartReplay:
	case RestartInPlace:
		if edit != nil {
			return nil, edgeflow.Invalid("/mode", "a replay starts a new run; in-place applies to restarts")
		}
		return s.restartInPlace(ctx, tw, req)
	default:
		return nil, edgeflow.Invalid("/mode", `mode must be "replay" or "in-place"`)
	}
	orig, err := s.store.FindRunByID(ctx, w.ID, req.RunID)
	if err != nil {
		return nil, err
	}
	if !edgeflow.RunIsFinal(orig.Status) {
		if orig, err = s.refresh(ctx, orig, true); err != nil {
			return nil, err
		}
	}
	c, err := s.store.FindConnectionByID(ctx, w.OrganizationID, orig.ConnectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's connection no longer exists")
		}
		return nil, err
	}
	d, err := s.store.FindActiveDeployment(ctx, w.ID, c.ID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow is no longer deployed on the run's connection; deploy it there to restart the run")
		}
		return nil, err
	}
	origVersion, err := s.store.FindVersionByID(ctx, w.ID, orig.VersionID)
	if err != nil && !edgeflow.IsNotFound(err) {
		return nil, err
	}
	if req.Version == RestartSameVersion && d.VersionID != orig.VersionID {
		// The run's version may still be up beside the active one, draining
		// its runs (pinning, releases.go): the restart runs there.
		if own, err := s.store.FindServingDeployment(ctx, w.ID, c.ID, orig.WorkflowName); err == nil && own.VersionID == orig.VersionID {
			d = own
		}
	}
	if req.Version == RestartSameVersion && d.VersionID != orig.VersionID {
		return nil, edgeflow.Errorf(edgeflow.EConflict,
			`the run's version is no longer deployed on its connection; restart with "version": "current" to run the deployed version`)
	}
	target := origVersion
	if d.VersionID != orig.VersionID {
		if target, err = s.store.FindVersionByID(ctx, w.ID, d.VersionID); err != nil {
			return nil, err
		}
	}
	if target == nil {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's version no longer exists")
	}
	targetNames := irStepNames(target.IR) // node id -> step name
	var replay []pastStep
	if req.FromStep != "" {
		var a ir.ArtifactIR
		if json.Unmarshal(target.IR, &a) != nil {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "version %d cannot be read", target.Number)
		}
		var node *ir.Node
		for i := range a.Nodes {
			if a.Nodes[i].ID == req.FromStep {
				node = &a.Nodes[i]
				break
			}
		}
		if node == nil || nonDurable[node.Type] {
			why := "no node of version %d has this id"
			if node != nil {
				why = "node " + req.FromStep + " is a " + node.Type + " of version %d, which does not run as a step of its own"
			}
			return nil, &edgeflow.Error{Code: edgeflow.EInvalid, Message: "unknown step " + req.FromStep,
				Details: []edgeflow.FieldError{{Path: "/fromStep", Message: fmt.Sprintf(why, target.Number)}}}
		}
		var origNames map[string]string
		if origVersion != nil {
			origNames = invertStepNames(origVersion.IR)
		}
		past := pastSteps(orig, origNames)
		end := len(past)
		for i, p := range past {
			if p.nodeID == req.FromStep {
				end = i
				break
			}
		}
		replay = past[:end:end]
		if node.Type == ir.TypeAgent {
			// Restarting an agent keeps what its model calls, tool calls
			// and approvals already answered: none of them runs again.
			for _, p := range past[end:] {
				if p.nodeID == req.FromStep && p.complete && isAgentStep(p.name) {
					replay = append(replay, p)
				}
			}
		}
		replay = slices.DeleteFunc(slices.Clone(replay), func(p pastStep) bool { return p.sensitive })
		for _, p := range replay {
			if !p.complete {
				return nil, edgeflow.Errorf(edgeflow.EConflict,
					"step %q (node %s) did not complete in run %s, so its output cannot be replayed; restart from it or from an earlier step",
					p.name, orDash(p.nodeID), orig.ID)
			}
			if target != origVersion {
				if _, ok := targetNames[p.nodeID]; !ok || p.nodeID == "" {
					return nil, edgeflow.Errorf(edgeflow.EConflict,
						"version %d has no node %s (step %q), whose output the restart would replay; restart from an earlier step, or with \"version\": \"same\"",
						target.Number, orDash(p.nodeID), p.name)
				}
			}
		}
	}
	params := orig.Params
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	changed := false
	if edit != nil && edit.params != nil {
		changed = !sameJSON(params, edit.params)
		params = edit.params
	}
	var replayed []edgeflow.ReplayedStep
	instanceParams := params
	if len(replay) > 0 {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(params, &obj); err != nil || obj == nil {
			obj = map[string]json.RawMessage{}
		}
		outputs := make(map[string]json.RawMessage, len(replay))
		for _, p := range replay {
			name := p.name
			if target != origVersion {
				name = renameStep(p.name, targetNames[p.nodeID], p.suffix)
			}
			out := p.output
			if len(out) == 0 {
				out = json.RawMessage("null")
			}
			outputs[name] = out
			r := p.rep
			r.Name, r.OriginalName, r.Output = name, p.name, out
			replayed = append(replayed, r)
		}
		b, err := json.Marshal(outputs)
		if err != nil {
			return nil, fmt.Errorf("encode the replay map: %w", err)
		}
		obj[codegen.ReplayKey] = b
		if instanceParams, err = json.Marshal(obj); err != nil {
			return nil, fmt.Errorf("encode the restarted params: %w", err)
		}
	}
	if len(instanceParams) > MaxRestartParamsBytes {
		return nil, edgeflow.Invalid("/fromStep", fmt.Sprintf(
			"the params with the outputs to replay are %d bytes, over the %d a restarted run can take; restart from an earlier step",
			len(instanceParams), MaxRestartParamsBytes))
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, err
	}
	id := edgeflow.NewID(edgeflow.PrefixRun)
	trace := s.tracing.NewRunTrace(ctx, tw.Workflow().Name)
	if instanceParams, err = withTraceEnvelope(instanceParams, trace); err != nil {
		return nil, err
	}
	if err := prov.CreateInstance(ctx, d.WorkflowName, id, instanceParams); err != nil {
		return nil, providerError("create the workflow instance", err)
	}
	next := s.now().UTC().Add(refreshDelay(0))
	run := &edgeflow.Run{
		ID: id, WorkflowID: w.ID, ProjectID: w.ProjectID, VersionID: d.VersionID, ConnectionID: c.ID,
		DeploymentID: d.ID, Environment: d.Environment, WorkflowName: d.WorkflowName, InstanceID: id, Status: edgeflow.RunQueued,
		Params: params, NextRefreshAt: &next, RestartOf: orig.ID, FromStep: req.FromStep, Replayed: replayed,
		Trace: trace,
	}
	if edit != nil {
		run.RestartOf, run.ReplayOf, run.ParamsChanged = "", orig.ID, changed
	}
	if err := s.store.CreateRun(context.WithoutCancel(ctx), run); err != nil {
		if terr := prov.ChangeInstanceStatus(context.WithoutCancel(ctx), d.WorkflowName, id, "terminate"); terr != nil {
			s.log.Error("restart: run not recorded and its instance not terminated", "workflow", w.ID, "instance", id, "err", terr)
		}
		return nil, err
	}
	return s.withSteps(ctx, run)
}

// pastSteps lists the steps of run r in execution order: the ones it
// replayed itself, then the provider's entries, each with its node id
// (through names: step name -> node id of r's version).
func pastSteps(r *edgeflow.Run, names map[string]string) []pastStep {
	var out []pastStep
	for _, rp := range r.Replayed {
		_, suffix := nodeOfStep(map[string]string{trimSuffix(rp.Name): rp.NodeID}, rp.Name)
		out = append(out, pastStep{nodeID: rp.NodeID, name: rp.Name, suffix: suffix, typ: rp.Type, complete: true,
			output: rp.Output, rep: rp})
	}
	for _, p := range parseSteps(r.Steps) {
		if p.Type == "termination" || p.Name == "" {
			continue
		}
		nodeID, suffix := nodeOfStep(names, p.Name)
		ps := pastStep{nodeID: nodeID, name: p.Name, suffix: suffix, typ: p.Type, sensitive: p.sensitive()}
		switch p.Type {
		case "step":
			ps.complete = p.Success != nil && *p.Success
			ps.output = p.Output
		case "waitForEvent":
			ps.complete = p.Finished != nil && *p.Finished
			ps.output = p.Output
		default:
			ps.complete = p.Finished != nil && *p.Finished
		}
		ps.rep = edgeflow.ReplayedStep{NodeID: nodeID, Type: p.Type, StartedAt: p.Start.t, EndedAt: p.End.t, Attempts: len(p.Attempts)}
		out = append(out, ps)
	}
	return out
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

func trimSuffix(name string) string {
	if loc := loopSuffix.FindStringIndex(name); loc != nil {
		return name[:loc[0]]
	}
	return name
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// hasReplayKey reports whether the params object has codegen.ReplayKey at
// its top level.
func hasReplayKey(params []byte) bool {
	if !bytes.Contains(params, []byte(codegen.ReplayKey)) {
		return false
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(params, &probe) != nil {
		return false
	}
	_, ok := probe[codegen.ReplayKey]
	return ok
}
