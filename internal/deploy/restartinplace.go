package deploy

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// restartInPlace restarts run req.RunID's own instance through the
// provider's native restart (InstanceRestarter; decision 492): from the
// start, or from the step of node req.FromStep, the steps before it keeping
// their results on the provider. The run stays the same record: it is
// running again, its end, output and error cleared, and its events follow.
// It needs the run's own version deployed on its connection, in the
// Workflow the instance belongs to.
//
// Errors, with nothing changed: version "current" and a fromStep that is
// not a durable step of the run's version are validation_failed (422); the
// workflow not deployed on the run's connection, another version deployed
// there, a node the run never ran, and a provider without the native
// restart are conflict (409); provider failures are provider_unavailable /
// provider_error.
func (s *Service) restartInPlace(ctx context.Context, tw *TenantWorkflow, req RestartRequest) (*edgeflow.Run, error) {
	wf := tw.Workflow()
	if req.Version != RestartSameVersion {
		return nil, edgeflow.Invalid("/version", `an in-place restart runs the run's own version: leave version out or send "same"`)
	}
	orig, err := s.store.FindRunByID(ctx, wf.ID, req.RunID)
	if err != nil {
		return nil, err
	}
	if !edgeflow.RunIsFinal(orig.Status) {
		if orig, err = s.refresh(ctx, orig, true); err != nil {
			return nil, err
		}
	}
	c, err := s.store.FindConnectionByID(ctx, wf.OrganizationID, orig.ConnectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's connection no longer exists")
		}
		return nil, err
	}
	d, err := s.store.FindActiveDeployment(ctx, wf.ID, c.ID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict,
				"the workflow is no longer deployed on the run's connection, so its instance cannot restart in place; deploy the run's version there, or restart without mode \"in-place\" (a new run)")
		}
		return nil, err
	}
	if d.WorkflowName != orig.WorkflowName {
		// Its version may be draining beside the active one (releases.go).
		if own, err := s.store.FindServingDeployment(ctx, wf.ID, c.ID, orig.WorkflowName); err == nil {
			d = own
		}
	}
	if d.VersionID != orig.VersionID || d.WorkflowName != orig.WorkflowName {
		return nil, edgeflow.Errorf(edgeflow.EConflict,
			"the run's version is no longer the one deployed on its connection, so its instance cannot restart in place; restart without mode \"in-place\" to replay it as a new run")
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, err
	}
	restarter, ok := prov.(InstanceRestarter)
	if !ok {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's provider cannot restart an instance in place; restart without mode \"in-place\" (a new run)")
	}
	var call error
	if req.FromStep == "" {
		call = prov.ChangeInstanceStatus(ctx, orig.WorkflowName, orig.InstanceID, "restart")
	} else {
		name, typ, err := s.inPlaceStep(ctx, orig, req.FromStep)
		if err != nil {
			return nil, err
		}
		call = restarter.RestartInstanceFrom(ctx, orig.WorkflowName, orig.InstanceID, name, 0, typ)
	}
	if call != nil {
		switch {
		case lacksFeature(call):
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's provider cannot restart an instance from a step; restart without mode \"in-place\" (a new run)")
		case isProviderConflict(call):
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the provider refused to restart run %s: %s", orig.ID, providerReason(call))
		}
		return nil, providerError("restart the instance", call)
	}
	unlock := s.lockRun(orig.ID)
	r, err := s.store.FindRunByID(context.WithoutCancel(ctx), wf.ID, orig.ID)
	if err != nil {
		unlock()
		return nil, err
	}
	now := s.now().UTC()
	next := now.Add(refreshDelay(0))
	r.Status, r.StatusDetail, r.EndedAt, r.Output, r.Error = edgeflow.RunRunning, "", nil, nil, ""
	r.NextRefreshAt, r.RefreshFailures = &next, 0
	err = s.store.UpdateRun(context.WithoutCancel(ctx), r)
	unlock()
	if err != nil {
		return nil, err
	}
	s.watchRun(ctx, r)
	return s.withSteps(ctx, r)
}

// inPlaceStep finds the step of node nodeID in run r's provider steps (its
// first run, in loops) and answers its name and the provider's type word
// for a restart (do, sleep, waitForEvent).
func (s *Service) inPlaceStep(ctx context.Context, r *edgeflow.Run, nodeID string) (name, typ string, err error) {
	v, err := s.store.FindVersionByID(ctx, r.WorkflowID, r.VersionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return "", "", edgeflow.Errorf(edgeflow.EConflict, "the run's version no longer exists")
		}
		return "", "", err
	}
	var a ir.ArtifactIR
	if json.Unmarshal(v.IR, &a) != nil {
		return "", "", edgeflow.Errorf(edgeflow.EConflict, "version %d cannot be read", v.Number)
	}
	var node *ir.Node
	for i := range a.Nodes {
		if a.Nodes[i].ID == nodeID {
			node = &a.Nodes[i]
			break
		}
	}
	if node == nil || nonDurable[node.Type] {
		why := fmt.Sprintf("no node of version %d has this id", v.Number)
		if node != nil {
			why = fmt.Sprintf("node %s is a %s of version %d, which does not run as a step of its own", nodeID, node.Type, v.Number)
		}
		return "", "", &edgeflow.Error{Code: edgeflow.EInvalid, Message: "unknown step " + nodeID,
			Details: []edgeflow.FieldError{{Path: "/fromStep", Message: why}}}
	}
	names := invertStepNames(v.IR)
	for _, p := range parseSteps(r.Steps) {
		if id, _ := nodeOfStep(names, p.Name); id != nodeID {
			continue
		}
		switch p.Type {
		case "step":
			return p.Name, "do", nil
		case "sleep", "waitForEvent":
			return p.Name, p.Type, nil
		}
	}
	return "", "", edgeflow.Errorf(edgeflow.EConflict,
		"run %s never ran step %s, so its instance cannot restart from it; restart from a step it ran, or without mode \"in-place\"", r.ID, nodeID)
}
