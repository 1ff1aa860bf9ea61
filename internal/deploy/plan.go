package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// The deploy plan (docs/releases.md, "The deploy plan"): what a deploy of a
// version would change for the runs in flight on a connection.

// Kinds of PlanChange.
const (
	ChangeAdded         = "added"
	ChangeRemoved       = "removed"
	ChangeRenamed       = "renamed"
	ChangeReordered     = "reordered"
	ChangeCodeChanged   = "code-changed"
	ChangeConfigChanged = "config-changed"
)

// maxPlanRuns is the most runs in flight a plan judges one by one (the
// oldest first); maxPlanReasons the most reasons it gives.
const (
	maxPlanRuns    = 500
	maxPlanReasons = 20
)

// DeployPlan is the answer of GET /api/workflows/:id/deploy-plan and the
// "plan" frame of deploy-stream (edgeflow.DeployPlan, where the CLI reads
// it too); the others are its parts.
type (
	DeployPlan       = edgeflow.DeployPlan
	PlanInFlight     = edgeflow.PlanInFlight
	PlanVersionCount = edgeflow.PlanVersionCount
	PlanChange       = edgeflow.PlanChange
)

// stepModel is what the plan reads of one version: its nodes, their step
// names and, per node, the nodes that run before it on its path.
type stepModel struct {
	nodes    map[string]*ir.Node
	order    []string // node ids in execution order
	names    map[string]string
	upstream map[string]map[string]bool
}

func newStepModel(raw json.RawMessage) (*stepModel, error) {
	var a ir.ArtifactIR
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	g := ir.NewGraph(&a)
	m := &stepModel{nodes: map[string]*ir.Node{}, names: codegen.StepNames(&a), upstream: map[string]map[string]bool{}}
	for i := range a.Nodes {
		if _, dup := m.nodes[a.Nodes[i].ID]; !dup {
			m.nodes[a.Nodes[i].ID] = &a.Nodes[i]
		}
	}
	m.order, _ = g.TopoOrder()
	for _, id := range m.order {
		up := map[string]bool{}
		for _, e := range g.In(id) {
			up[e.Source] = true
			for u := range m.upstream[e.Source] {
				up[u] = true
			}
		}
		m.upstream[id] = up
	}
	return m, nil
}

// diffSteps lists the changes from old to new, in new's execution order
// (removed steps last, in old's order).
func diffSteps(old, new *stepModel) []PlanChange {
	out := []PlanChange{}
	for _, id := range new.order {
		n := new.nodes[id]
		o, ok := old.nodes[id]
		if !ok {
			out = append(out, PlanChange{Kind: ChangeAdded, NodeID: id, Step: new.names[id], Detail: "a new step"})
			continue
		}
		if old.names[id] != new.names[id] {
			out = append(out, PlanChange{Kind: ChangeRenamed, NodeID: id, Step: new.names[id],
				Detail: fmt.Sprintf("renamed from %q to %q", old.names[id], new.names[id])})
		}
		if d := orderChange(id, old, new); d != "" {
			out = append(out, PlanChange{Kind: ChangeReordered, NodeID: id, Step: new.names[id], Detail: d})
		}
		if o.Type != n.Type || o.Version != n.Version || o.Provider != n.Provider || !reflect.DeepEqual(o.Data, n.Data) {
			out = append(out, PlanChange{Kind: ChangeCodeChanged, NodeID: id, Step: new.names[id], Detail: "its code or settings changed"})
		}
		if !reflect.DeepEqual(o.Config, n.Config) {
			out = append(out, PlanChange{Kind: ChangeConfigChanged, NodeID: id, Step: new.names[id], Detail: "its retries or timeout changed"})
		}
	}
	for _, id := range old.order {
		if _, ok := new.nodes[id]; !ok {
			out = append(out, PlanChange{Kind: ChangeRemoved, NodeID: id, Step: old.names[id], Detail: "no longer a step"})
		}
	}
	return out
}

// orderChange describes how the steps before node id (those of both
// versions) changed; "" when they did not.
func orderChange(id string, old, new *stepModel) string {
	var gained, lost []string
	for u := range new.upstream[id] {
		if _, common := old.nodes[u]; common && !old.upstream[id][u] {
			gained = append(gained, new.names[u])
		}
	}
	for u := range old.upstream[id] {
		if _, common := new.nodes[u]; common && !new.upstream[id][u] {
			lost = append(lost, old.names[u])
		}
	}
	sort.Strings(gained)
	sort.Strings(lost)
	switch {
	case len(gained) > 0 && len(lost) > 0:
		return fmt.Sprintf("now runs after %q and no longer after %q", gained, lost)
	case len(gained) > 0:
		return fmt.Sprintf("now runs after %q", gained)
	case len(lost) > 0:
		return fmt.Sprintf("no longer runs after %q", lost)
	}
	return ""
}

// judgeRun gives the reasons a run of old, having started the steps of
// its stored step list, cannot move onto new: a passed step renamed,
// removed or reordered, or a new step placed before one it passed.
func judgeRun(r *edgeflow.Run, old, new *stepModel, changes []PlanChange) []string {
	byName := make(map[string]string, len(old.names))
	for id, name := range old.names {
		byName[name] = id
	}
	passed := map[string]bool{}
	for _, st := range parseSteps(r.Steps) {
		if id, _ := nodeOfStep(byName, st.Name); id != "" {
			passed[id] = true
		}
	}
	var out []string
	for _, c := range changes {
		switch c.Kind {
		case ChangeRenamed, ChangeRemoved, ChangeReordered:
			if passed[c.NodeID] {
				out = append(out, fmt.Sprintf("run %s has passed step %q, which the new version %s: on resuming it would run again or its cached result land on another step",
					r.ID, old.names[c.NodeID], verb(c.Kind)))
			}
		case ChangeAdded:
			for p := range passed {
				if _, common := new.nodes[p]; common && new.upstream[p][c.NodeID] {
					out = append(out, fmt.Sprintf("run %s has passed step %q, which the new step %q now precedes: on resuming it would replay out of order",
						r.ID, old.names[p], c.Step))
					break
				}
			}
		}
	}
	return out
}

func verb(kind string) string {
	switch kind {
	case ChangeRenamed:
		return "renames"
	case ChangeRemoved:
		return "removes"
	}
	return "reorders"
}

// PlanDeploy computes the deploy plan of the tenant's workflow version
// (its current one when versionID is "") on the connection: the runs in
// flight there by version, the step changes from the active version, and
// whether the active version's runs in flight could move onto it.
func (s *Service) PlanDeploy(ctx context.Context, tw *TenantWorkflow, connectionID, versionID string) (*DeployPlan, error) {
	wf, t := tw.Workflow(), tw.Tenant()
	c, err := s.connection(ctx, t.OrganizationID, t.ProjectID, connectionID)
	if err != nil {
		return nil, err
	}
	if versionID == "" {
		versionID = wf.CurrentVersionID
	}
	if versionID == "" {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow has no version to deploy; submit one first")
	}
	v, err := s.store.FindVersionByID(ctx, wf.ID, versionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, &edgeflow.Error{Code: edgeflow.ENotFound, Message: "version not found",
				Details: []edgeflow.FieldError{{Path: "/versionId", Message: "no such version of this workflow"}}}
		}
		return nil, err
	}
	return s.planFor(ctx, &wf, c, v)
}

func (s *Service) planFor(ctx context.Context, wf *edgeflow.Workflow, c *edgeflow.Connection, v *edgeflow.Version) (*DeployPlan, error) {
	plan := &DeployPlan{WorkflowID: wf.ID, ConnectionID: c.ID, VersionID: v.ID, Number: v.Number,
		InFlight: PlanInFlight{ByVersion: []PlanVersionCount{}}, Changes: []PlanChange{}, Compatible: true, Reasons: []string{}}
	groups, err := s.store.CountRunsInFlight(ctx, wf.ID, c.ID)
	if err != nil {
		return nil, err
	}
	byVersion := map[string]int{}
	for _, g := range groups {
		byVersion[g.VersionID] += g.Count
		plan.InFlight.Total += g.Count
	}
	for id, n := range byVersion {
		num := 0
		if ver, err := s.store.FindVersionByID(ctx, wf.ID, id); err == nil {
			num = ver.Number
		}
		plan.InFlight.ByVersion = append(plan.InFlight.ByVersion, PlanVersionCount{VersionID: id, Number: num, Count: n})
	}
	sort.Slice(plan.InFlight.ByVersion, func(i, j int) bool { return plan.InFlight.ByVersion[i].Number < plan.InFlight.ByVersion[j].Number })
	active, err := s.store.FindActiveDeployment(ctx, wf.ID, c.ID)
	if edgeflow.IsNotFound(err) || wf.Kind == edgeflow.KindScript {
		return plan, nil
	}
	if err != nil {
		return nil, err
	}
	plan.ActiveVersionID = active.VersionID
	if active.VersionID == v.ID {
		return plan, nil
	}
	oldV, err := s.store.FindVersionByID(ctx, wf.ID, active.VersionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return plan, nil
		}
		return nil, err
	}
	oldM, err1 := newStepModel(oldV.IR)
	newM, err2 := newStepModel(v.IR)
	if err1 != nil || err2 != nil {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "a version's IR cannot be read")
	}
	plan.Changes = diffSteps(oldM, newM)
	if byVersion[active.VersionID] == 0 {
		return plan, nil
	}
	judged := 0
	for _, status := range []string{edgeflow.RunQueued, edgeflow.RunRunning, edgeflow.RunPaused} {
		page, err := s.store.ListRuns(ctx, edgeflow.RunFilter{ProjectID: wf.ProjectID, WorkflowID: wf.ID, VersionID: active.VersionID,
			Status: status}, edgeflow.ListOptions{Limit: 100})
		for err == nil && judged < maxPlanRuns {
			for i := range page.Items {
				r := &page.Items[i]
				if r.ConnectionID != c.ID || r.WorkflowName != active.WorkflowName {
					continue
				}
				judged++
				for _, reason := range judgeRun(r, oldM, newM, plan.Changes) {
					plan.Compatible = false
					if len(plan.Reasons) < maxPlanReasons {
						plan.Reasons = append(plan.Reasons, reason)
					}
				}
			}
			if page.NextCursor == "" {
				break
			}
			page, err = s.store.ListRuns(ctx, edgeflow.RunFilter{ProjectID: wf.ProjectID, WorkflowID: wf.ID, VersionID: active.VersionID,
				Status: status}, edgeflow.ListOptions{Limit: 100, Cursor: page.NextCursor})
		}
		if err != nil {
			return nil, err
		}
	}
	return plan, nil
}
