package deploy

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Discovery limits: instances read per page, pages per deployment and pass.
const (
	discoverPerPage  = 100
	discoverMaxPages = 10
)

// cronWatch is one (workflow, connection) whose active deployment may have
// a cron trigger, with the back-off of its provider failures.
type cronWatch struct {
	projectID    string
	workflowID   string
	connectionID string
	failures     int
	nextAt       time.Time
}

// cronWatches is the in-process set of deployments discovery looks at: every
// active deployment read once at the first pass (Store.ListActiveDeployments),
// then the deployments Deploy makes with cron schedules.
type cronWatches struct {
	mu      sync.Mutex
	m       map[string]*cronWatch // workflow id + "\x00" + connection id
	seeded  bool                  // the active deployments were read
	crons   map[string]bool       // version id -> has a cron trigger
	passMu  sync.Mutex            // one discovery pass at a time
	created sync.Map              // instance key -> struct{}: instances known to have a run
	known   atomic.Int64          // entries of created; cleared past maxKnown
}

// maxKnown bounds the cache of instances known to have a run.
const maxKnown = 100_000

func (c *cronWatches) remember(key string) {
	if _, loaded := c.created.LoadOrStore(key, struct{}{}); !loaded && c.known.Add(1) > maxKnown {
		c.created.Clear()
		c.known.Store(0)
	}
}

func (c *cronWatches) add(projectID, workflowID, connectionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*cronWatch{}
	}
	k := workflowID + "\x00" + connectionID
	if _, ok := c.m[k]; !ok {
		c.m[k] = &cronWatch{projectID: projectID, workflowID: workflowID, connectionID: connectionID}
	}
}

func (c *cronWatches) drop(w *cronWatch) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, w.workflowID+"\x00"+w.connectionID)
}

func (c *cronWatches) due(now time.Time) []*cronWatch {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*cronWatch
	for _, w := range c.m {
		if !w.nextAt.After(now) {
			out = append(out, w)
		}
	}
	return out
}

// watchCron makes discovery look at the workflow's deployment on the
// connection.
func (s *Service) watchCron(d *edgeflow.Deployment) {
	s.cron.add(d.ProjectID, d.WorkflowID, d.ConnectionID)
}

// seedCronWatches adds every active deployment to the watch set, once per
// process (again after a failure); discovery drops those without a cron
// trigger on its first look.
func (s *Service) seedCronWatches(ctx context.Context) {
	s.cron.mu.Lock()
	done := s.cron.seeded
	s.cron.seeded = true
	s.cron.mu.Unlock()
	if done {
		return
	}
	list, err := s.store.ListActiveDeployments(ctx)
	if err != nil {
		s.log.Warn("runs: list active deployments for cron discovery", "err", err)
		s.cron.mu.Lock()
		s.cron.seeded = false
		s.cron.mu.Unlock()
		return
	}
	for _, d := range list {
		if d.WorkflowName != "" {
			s.watchCron(&d)
		}
	}
}

// hasCron reports whether the version's IR has a cron trigger (cached by
// version id: versions are immutable).
func (s *Service) hasCron(ctx context.Context, workflowID, versionID string) (bool, error) {
	s.cron.mu.Lock()
	v, ok := s.cron.crons[versionID]
	s.cron.mu.Unlock()
	if ok {
		return v, nil
	}
	ver, err := s.store.FindVersionByID(ctx, workflowID, versionID)
	if err != nil {
		return false, err
	}
	var a struct {
		Trigger *ir.TriggerConfig `json:"trigger"`
	}
	cron := json.Unmarshal(ver.IR, &a) == nil && a.Trigger != nil && a.Trigger.Type == ir.TriggerCron
	s.cron.mu.Lock()
	if s.cron.crons == nil {
		s.cron.crons = map[string]bool{}
	}
	s.cron.crons[versionID] = cron
	s.cron.mu.Unlock()
	return cron, nil
}

// DiscoverCronRuns is one discovery pass: for each watched active
// deployment whose version has a cron trigger, or that has a public trigger
// (only its "sig_" instances then), it lists the provider's
// instances created since the deployment and records each one edgeflow does
// not know as a run, then returns how many runs it recorded. A deployment
// whose provider fails is looked at again after a back-off (1 s doubling to
// 5 minutes). Passes of one process are serialized and never record an
// instance twice; across processes sharing a store, the check-then-create
// is not atomic (the store has no unique instance id), so two replicas may
// each record the same instance once.
func (s *Service) DiscoverCronRuns(ctx context.Context) int {
	s.cron.passMu.Lock()
	defer s.cron.passMu.Unlock()
	s.seedCronWatches(ctx)
	n := 0
	for _, w := range s.cron.due(s.now()) {
		if ctx.Err() != nil {
			break
		}
		got, err := s.discoverDeployment(ctx, w)
		n += got
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("runs: cron discovery", "workflow", w.workflowID, "connection", w.connectionID, "err", err)
			}
			w.failures++
			w.nextAt = s.now().Add(failureDelay(w.failures))
			continue
		}
		w.failures, w.nextAt = 0, time.Time{}
	}
	return n
}

// discoverDeployment records the unknown instances of one watched
// deployment; it drops the watch when the deployment is gone or has no
// cron trigger.
func (s *Service) discoverDeployment(ctx context.Context, w *cronWatch) (int, error) {
	d, err := s.store.FindActiveDeployment(ctx, w.workflowID, w.connectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			s.cron.drop(w)
			return 0, nil
		}
		return 0, err
	}
	cron, err := s.hasCron(ctx, d.WorkflowID, d.VersionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			s.cron.drop(w)
			return 0, nil
		}
		return 0, err
	}
	// A public trigger's instances (ids "sig_…", docs/deploy.md) are
	// discovered like a cron's; without a cron, only those.
	onlySigned := !cron && d.SealedTriggerSecret != ""
	if !cron && !onlySigned || d.WorkflowName == "" {
		s.cron.drop(w)
		return 0, nil
	}
	wf, err := s.store.FindWorkflowByID(ctx, d.ProjectID, d.WorkflowID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			s.cron.drop(w)
			return 0, nil
		}
		return 0, err
	}
	c, err := s.store.FindConnectionByID(ctx, wf.OrganizationID, d.ConnectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			s.cron.drop(w)
			return 0, nil
		}
		return 0, err
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return 0, err
	}
	n := 0
	for page := 1; page <= discoverMaxPages; page++ {
		list, err := prov.ListInstances(ctx, d.WorkflowName, page, discoverPerPage)
		if err != nil {
			return n, providerError("list the workflow's instances", err)
		}
		newer := 0
		// The page's oldest first, so that flow control admits the
		// earlier of two cron starts a pass finds.
		for _, it := range slices.Backward(list) {
			if it.ID == "" || it.CreatedOn == nil || it.CreatedOn.Before(d.CreatedAt) {
				continue
			}
			if onlySigned && !strings.HasPrefix(it.ID, signedInstancePrefix) {
				continue
			}
			newer++
			var limits *flowControl
			if fc, limited := flowOf(wf); limited && !strings.HasPrefix(it.ID, signedInstancePrefix) {
				limits = &fc
			}
			ok, err := s.recordDiscovered(ctx, prov, d, wf.Name, it, limits)
			if err != nil {
				return n, err
			}
			if ok {
				n++
			}
		}
		// Lists are newest first: a page with nothing newer than the
		// deployment ends the walk, as does a short page.
		if newer == 0 || len(list) < discoverPerPage {
			break
		}
	}
	return n, nil
}

// recordDiscovered records instance it of deployment d (of the workflow
// named name) as a run unless a run already has its instance id; it reports
// whether it recorded one. With tracing on the run gets a trace of its own,
// a root (no request started it), and the spans of what it did before it
// was discovered are emitted at once (decision 620). A cron start of a
// workflow with flow control (limits not nil) that is still in progress is
// admitted as a trigger is, or skipped (recordCronLimited). A start recorded
// in progress and admitted is sent the admission event (admitStart), which a
// gated Workflow's start waits for; one found ended at the gate, never
// admitted, is recorded skipped.
func (s *Service) recordDiscovered(ctx context.Context, prov Provider, d *edgeflow.Deployment, name string, it InstanceSummary, limits *flowControl) (bool, error) {
	key := d.WorkflowID + "\x00" + it.ID
	if _, ok := s.cron.created.Load(key); ok {
		return false, nil
	}
	if _, err := s.store.FindRunByInstanceID(ctx, d.WorkflowID, it.ID); err == nil {
		s.cron.remember(key)
		return false, nil
	} else if !edgeflow.IsNotFound(err) {
		return false, err
	}
	now := s.now().UTC()
	run := &edgeflow.Run{
		ID:           edgeflow.NewID(edgeflow.PrefixRun),
		WorkflowID:   d.WorkflowID,
		ProjectID:    d.ProjectID,
		VersionID:    d.VersionID,
		ConnectionID: d.ConnectionID,
		DeploymentID: d.ID,
		Environment:  d.Environment,
		WorkflowName: d.WorkflowName,
		InstanceID:   it.ID,
		Params:       json.RawMessage("{}"),
		Trace:        s.tracing.NewRunTrace(context.Background(), name),
	}
	run.Status, run.StatusDetail = MapStatus(it.Status, nil, "")
	if inst, err := prov.GetInstance(ctx, d.WorkflowName, it.ID); err == nil {
		if p := rawOrNil(inst.Params); p != nil {
			run.Params = p
		}
		applyInstance(run, inst, now)
	} else if ctx.Err() != nil {
		return false, ctx.Err()
	}
	// else: recorded with the list's status; the refresher reads the rest.
	admit := false
	if edgeflow.RunIsFinal(run.Status) {
		if run.EndedAt == nil {
			run.EndedAt = &now
		}
		if run.Status == edgeflow.RunErrored && run.Error == "" {
			run.Error = "the run failed"
		}
		admissionTimedOut(run) // a schedule's start never admitted: skipped
	} else {
		next := now.Add(refreshDelay(0))
		run.NextRefreshAt = &next
		if limits != nil {
			return s.recordCronLimited(ctx, prov, *limits, run, key)
		}
		admit = true
	}
	if err := s.store.CreateRun(context.WithoutCancel(ctx), run); err != nil {
		if edgeflow.IsConflict(err) { // another replica recorded it first
			s.cron.remember(key)
			return false, nil
		}
		return false, err
	}
	s.cron.remember(key)
	s.traceRunChange(ctx, run, nil, "")
	if admit {
		s.admitStart(ctx, run)
	}
	return true, nil
}
