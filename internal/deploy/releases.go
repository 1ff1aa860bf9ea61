package deploy

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Pinning (docs/releases.md): every run finishes on the version it started
// on. A deploy that would replace the code of runs still in flight puts the
// new version beside the old one, under names of its own
// (VersionedName); the old worker and Workflow keep serving their runs
// (the deployment is "draining") until none is left, and the retirer
// (RetireDrained) then deletes them.

// In-flight choices of a deploy (DeployRequest.InFlight).
const (
	// InFlightPin keeps the runs in flight on their own version (default).
	InFlightPin = "pin"
	// InFlightMigrate uploads the new version over the active one: its runs
	// in flight continue on the new code (Cloudflare's own behaviour).
	InFlightMigrate = "migrate"
	// InFlightDrain holds new triggers until the earlier versions' runs
	// finish, then deploys.
	InFlightDrain = "drain"
)

// VersionedName is the script and Workflow name of version number of the
// workflow id when it is deployed beside runs in flight of another version:
// "ef-<id>-v<number>" (shortened with a hash like codegen.ScriptName when
// longer than 63 characters).
func VersionedName(id string, number int) string {
	return codegen.ScriptName(id + "-v" + strconv.Itoa(number))
}

// placement is where a deploy puts its worker and Workflow.
type placement struct {
	script, workflow string
	// prev is the active deployment before this deploy (nil when none).
	prev *edgeflow.Deployment
	// pinned is set when prev keeps its own worker and Workflow for its
	// runs in flight, the new version going to names of its own.
	pinned bool
}

// inFlightByName counts the runs not final of the workflow on the
// connection by provider Workflow name.
func (s *Service) inFlightByName(ctx context.Context, workflowID, connectionID string) (map[string]int, error) {
	groups, err := s.store.CountRunsInFlight(ctx, workflowID, connectionID)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, g := range groups {
		out[g.WorkflowName] += g.Count
	}
	return out, nil
}

// place decides the names of a deploy of p whose compiled artifact is
// named art (a function keeps art's names: it has no runs). The new version
// goes over the active deployment (in place) when it is the same version,
// when no run of the active one is in flight, or when the request migrates
// them; else beside it, under VersionedName. A first deploy takes the
// workflow's base name (codegen.ScriptName) unless runs in flight hold it.
func (s *Service) place(ctx context.Context, p *Plan, art *Artifact) (placement, error) {
	pl := placement{script: art.ScriptName, workflow: art.WorkflowName}
	if art.WorkflowName == "" {
		return pl, nil
	}
	w, c := p.workflow, p.connection
	base := w.ID
	if env := environmentName(p.environment); env != "" && env != edgeflow.DefaultEnvironment {
		// Another environment's connection may reach the same account:
		// its names are its own (docs/environments.md, "Names").
		base = w.ID + "-" + env
		pl.script = codegen.ScriptName(base)
		pl.workflow = pl.script
	}
	prev, err := s.store.FindActiveDeployment(ctx, w.ID, c.ID)
	switch {
	case edgeflow.IsNotFound(err):
		prev = nil
	case err != nil:
		return pl, err
	}
	pl.prev = prev
	inFlight, err := s.inFlightByName(ctx, w.ID, c.ID)
	if err != nil {
		return pl, err
	}
	switch {
	case prev != nil && (prev.VersionID == p.version.ID || inFlight[prev.WorkflowName] == 0 || p.req.InFlight == InFlightMigrate):
		pl.script, pl.workflow = prev.ScriptName, prev.WorkflowName
	case prev == nil && inFlight[pl.workflow] == 0:
	default:
		n := VersionedName(base, p.version.Number)
		pl.script, pl.workflow = n, n
		pl.pinned = prev != nil && prev.WorkflowName != n
	}
	return pl, nil
}

// DefaultMaxScripts is the scripts an account may hold when
// Options.MaxScripts is 0: Cloudflare's limit on the Workers Paid plan
// (docs/releases.md, "The cost").
const DefaultMaxScripts = 500

// scriptCounter is a Provider that counts the account's workers.
type scriptCounter interface {
	CountWorkers(ctx context.Context) (int, error)
}

// checkScriptLimit refuses with 409 a deploy that would add a worker to an
// account already holding the most it may (a version beside runs in
// flight adds one), before anything is uploaded.
func (s *Service) checkScriptLimit(ctx context.Context, prov Provider) error {
	sc, ok := prov.(scriptCounter)
	if !ok {
		return nil
	}
	n, err := sc.CountWorkers(ctx)
	if err != nil {
		return providerError("count the account's workers", err)
	}
	if n >= s.maxScripts {
		return &edgeflow.Error{Code: edgeflow.EConflict, Message: fmt.Sprintf(
			"the account holds %d workers, the provider's limit on scripts per account (%d): this version would need one more "+
				"beside the runs in flight of the active one; wait for draining versions to be retired, or deploy with inFlight "+
				"\"migrate\" or \"drain\"", n, s.maxScripts)}
	}
	return nil
}

// releasePinned is called once a deploy pinned the runs of prev to its own
// worker: the Workflow's cron schedules are cleared, so that only the
// active version starts runs on a schedule; cfg (without crons) keeps the
// Workflow's limits and retention. A failure is logged: the deploy stands.
func (s *Service) releasePinned(ctx context.Context, prov Provider, prev *edgeflow.Deployment, className string, cfg WorkflowConfig) {
	cron, err := s.hasCron(ctx, prev.WorkflowID, prev.VersionID)
	if err != nil || !cron {
		return
	}
	cfg.Crons = nil
	if err := prov.PutWorkflow(ctx, prev.WorkflowName, prev.ScriptName, className, cfg); err != nil {
		s.log.Warn("deploy: the schedules of the pinned version were not cleared", "workflow", prev.WorkflowID,
			"deployment", prev.ID, "err", err)
	}
}

// servingDeployment is the deployment whose worker serves the run's
// provider Workflow now: the run's own version while it drains, or the
// deployment that took its names over. fallback (may be nil) is answered
// for a run that names no Workflow.
func (s *Service) servingDeployment(ctx context.Context, r *edgeflow.Run, fallback *edgeflow.Deployment) (*edgeflow.Deployment, error) {
	if r.WorkflowName == "" {
		if fallback == nil {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's version is no longer deployed")
		}
		return fallback, nil
	}
	d, err := s.store.FindServingDeployment(ctx, r.WorkflowID, r.ConnectionID, r.WorkflowName)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's version is no longer deployed on its connection")
		}
		return nil, err
	}
	return d, nil
}

// RetireDrained is one pass of the retirer: every replaced deployment
// whose Workflow a later deployment took over is marked retired; every
// other one with no run in flight left has its Workflow and worker deleted
// on the provider and is marked retired. It returns how many it retired.
// A provider failure is logged and tried again at the next pass. serve runs
// it from the run refresher, every DiscoverInterval.
func (s *Service) RetireDrained(ctx context.Context) int {
	list, err := s.store.ListDrainingDeployments(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("releases: list draining deployments", "err", err)
		}
		return 0
	}
	counts := map[string]map[string]int{}
	n := 0
	for i := range list {
		d := &list[i]
		if ctx.Err() != nil {
			break
		}
		ok, err := s.retireOne(ctx, d, counts)
		if err != nil {
			s.log.Warn("releases: retire a drained version", "workflow", d.WorkflowID, "deployment", d.ID, "err", err)
			continue
		}
		if ok {
			n++
		}
	}
	return n
}

func (s *Service) retireOne(ctx context.Context, d *edgeflow.Deployment, counts map[string]map[string]int) (bool, error) {
	retire := func() (bool, error) {
		err := s.store.RetireDeployment(ctx, d.ID, s.now().UTC())
		if edgeflow.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	}
	if d.WorkflowName == "" {
		return retire()
	}
	serving, err := s.store.FindServingDeployment(ctx, d.WorkflowID, d.ConnectionID, d.WorkflowName)
	if err == nil && serving.ID != d.ID {
		return retire() // its names serve a later deployment: nothing to delete
	}
	key := d.WorkflowID + "\x00" + d.ConnectionID
	byName, ok := counts[key]
	if !ok {
		if byName, err = s.inFlightByName(ctx, d.WorkflowID, d.ConnectionID); err != nil {
			return false, err
		}
		counts[key] = byName
	}
	if byName[d.WorkflowName] > 0 {
		return false, nil
	}
	w, err := s.store.FindWorkflowByID(ctx, d.ProjectID, d.WorkflowID)
	if edgeflow.IsNotFound(err) {
		return retire()
	}
	if err != nil {
		return false, err
	}
	c, err := s.store.FindConnectionByID(ctx, w.OrganizationID, d.ConnectionID)
	if edgeflow.IsNotFound(err) {
		return retire()
	}
	if err != nil {
		return false, err
	}
	shared, err := s.namesUsedElsewhere(ctx, d)
	if err != nil {
		return false, err
	}
	if !shared {
		prov, err := s.providerFor(ctx, c)
		if err != nil {
			return false, err
		}
		if err := prov.DeleteWorkflow(ctx, d.WorkflowName); err != nil {
			return false, providerError("delete the Workflow "+d.WorkflowName, err)
		}
		if err := prov.DeleteWorker(ctx, d.ScriptName); err != nil {
			return false, providerError("delete the worker "+d.ScriptName, err)
		}
	}
	s.log.Info("releases: retired a drained version", "workflow", d.WorkflowID, "deployment", d.ID, "script", d.ScriptName)
	return retire()
}

// namesUsedElsewhere reports whether a deployment of the workflow on
// another connection, active or draining, has d's script name: two
// connections may reach one account, and the retirer must not delete what
// serves the other.
func (s *Service) namesUsedElsewhere(ctx context.Context, d *edgeflow.Deployment) (bool, error) {
	page, err := s.store.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: d.ProjectID, WorkflowID: d.WorkflowID},
		edgeflow.ListOptions{Limit: 100})
	if err != nil {
		return false, err
	}
	for _, o := range page.Items {
		if o.ID != d.ID && o.ConnectionID != d.ConnectionID && o.ScriptName == d.ScriptName &&
			(o.Status == edgeflow.DeploymentActive || o.Status == edgeflow.DeploymentReplaced) {
			return true, nil
		}
	}
	return false, nil
}

// FillDeploymentStates sets State, InFlight and VersionNumber of listed
// deployments: active, draining (replaced, its worker still serving runs
// in flight: InFlight counts them), retired (its worker deleted, or its
// names taken over by a later deployment) or removed.
func FillDeploymentStates(ctx context.Context, store edgeflow.Store, ds []edgeflow.Deployment) error {
	counts := map[string]map[string]int{}
	versions := map[string]int{}
	for i := range ds {
		d := &ds[i]
		if _, ok := versions[d.VersionID]; !ok {
			versions[d.VersionID] = 0
			if v, err := store.FindVersionByID(ctx, d.WorkflowID, d.VersionID); err == nil {
				versions[d.VersionID] = v.Number
			} else if !edgeflow.IsNotFound(err) {
				return err
			}
		}
		d.VersionNumber = versions[d.VersionID]
		switch d.Status {
		case edgeflow.DeploymentRemoved:
			d.State = edgeflow.DeploymentStateRemoved
			continue
		case edgeflow.DeploymentRetired:
			d.State = edgeflow.DeploymentStateRetired
			continue
		}
		key := d.WorkflowID + "\x00" + d.ConnectionID
		byName, ok := counts[key]
		if !ok {
			groups, err := store.CountRunsInFlight(ctx, d.WorkflowID, d.ConnectionID)
			if err != nil {
				return err
			}
			byName = map[string]int{}
			for _, g := range groups {
				byName[g.WorkflowName] += g.Count
			}
			counts[key] = byName
		}
		n := byName[d.WorkflowName]
		if d.Status == edgeflow.DeploymentActive {
			d.State, d.InFlight = edgeflow.DeploymentStateActive, &n
			continue
		}
		serving, err := store.FindServingDeployment(ctx, d.WorkflowID, d.ConnectionID, d.WorkflowName)
		if err != nil && !edgeflow.IsNotFound(err) {
			return err
		}
		if serving != nil && serving.ID != d.ID {
			d.State = edgeflow.DeploymentStateRetired
			continue
		}
		d.State, d.InFlight = edgeflow.DeploymentStateDraining, &n
	}
	return nil
}

// drainMarks are the (workflow, connection) pairs a deploy with inFlight
// "drain" is waiting on: their new triggers answer 409 draining.
type drainMarks struct {
	mu sync.Mutex
	m  map[string]int
}

func (d *drainMarks) hold(key string) func() {
	d.mu.Lock()
	if d.m == nil {
		d.m = map[string]int{}
	}
	d.m[key]++
	d.mu.Unlock()
	return func() {
		d.mu.Lock()
		if d.m[key]--; d.m[key] <= 0 {
			delete(d.m, key)
		}
		d.mu.Unlock()
	}
}

func (d *drainMarks) held(workflowID, connectionID string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[workflowID+"\x00"+connectionID] > 0
}

// drain holds new triggers of the plan's workflow on its connection and
// waits until no run is in flight there, reporting the count. It ends when
// ctx does (the client went away: the deploy is cancelled and triggers are
// taken again). The returned release must be called once the deploy is
// over.
func (s *Service) drain(ctx context.Context, p *Plan, progress ProgressFunc) (func(), error) {
	release := s.drains.hold(p.workflow.ID + "\x00" + p.connection.ID)
	last := -1
	for {
		byName, err := s.inFlightByName(ctx, p.workflow.ID, p.connection.ID)
		if err != nil {
			return release, err
		}
		n := 0
		for _, c := range byName {
			n += c
		}
		if n == 0 {
			return release, nil
		}
		if n != last && progress != nil {
			progress(Progress{Stage: StageInitializing, Progress: stagePercent[StageInitializing],
				Message: fmt.Sprintf("Draining: waiting for %d runs in flight to finish; new triggers are held", n)})
		}
		last = n
		select {
		case <-ctx.Done():
			return release, &edgeflow.Error{Code: edgeflow.EConflict, Message: "the drain was cancelled before the runs in flight finished; nothing was deployed", Err: ctx.Err()}
		case <-time.After(s.drainPoll):
		}
	}
}

// RollbackVersion names the version that was active on the connection
// before the active one: the newest earlier deployment there of another
// version. Nothing deployed there, or no earlier version, is conflict
// (409).
func (s *Service) RollbackVersion(ctx context.Context, tw *TenantWorkflow, connectionID string) (string, error) {
	wf, t := tw.Workflow(), tw.Tenant()
	c, err := s.connection(ctx, t.OrganizationID, t.ProjectID, connectionID)
	if err != nil {
		return "", err
	}
	active, err := s.store.FindActiveDeployment(ctx, wf.ID, c.ID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return "", edgeflow.Errorf(edgeflow.EConflict, "the workflow is not deployed on this connection")
		}
		return "", err
	}
	opts := edgeflow.ListOptions{Limit: 100}
	for range 10 { // the 1,000 newest deployments of the workflow bound the search
		page, err := s.store.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: wf.ProjectID, WorkflowID: wf.ID}, opts)
		if err != nil {
			return "", err
		}
		for _, d := range page.Items {
			if d.ConnectionID == c.ID && d.ID != active.ID && d.VersionID != active.VersionID &&
				d.Status != edgeflow.DeploymentRemoved && !d.CreatedAt.After(active.CreatedAt) {
				if _, err := s.store.FindVersionByID(ctx, wf.ID, d.VersionID); err == nil {
					return d.VersionID, nil
				}
			}
		}
		if page.NextCursor == "" {
			break
		}
		opts.Cursor = page.NextCursor
	}
	return "", edgeflow.Errorf(edgeflow.EConflict, "no earlier version was active on this connection to roll back to")
}
