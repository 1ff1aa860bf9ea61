package deploy

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/planlimits"
)

// MaxBatchRuns is the most runs one batch trigger creates (the provider's
// batch create takes as many).
const MaxBatchRuns = cloudflare.MaxInstancesCreate

// BatchRun is one run of a batch trigger: its params (event.payload) and,
// optionally, the instance id to create it with.
type BatchRun struct {
	Params json.RawMessage `json:"params"`
	ID     string          `json:"id,omitempty"`
}

// BatchTriggerRequest starts up to MaxBatchRuns runs at once.
type BatchTriggerRequest struct {
	ConnectionID string
	Runs         []BatchRun
	// Queue holds the entries the workflow's flow control refuses now
	// (created with statusDetail held) instead of refusing them with
	// rate_limited.
	Queue bool
}

// BatchTriggerResult is the answer of a batch trigger.
type BatchTriggerResult = edgeflow.BatchTriggerResult

// BatchCreator is a provider that creates many instances in one request
// (the object form of the batch create).
type BatchCreator interface {
	// CreateInstances creates the instances; each is created or refused
	// by its index. An error is the whole request's.
	CreateInstances(ctx context.Context, workflowName string, instances []cloudflare.NewInstance) (cloudflare.InstancesCreated, error)
}

var _ BatchCreator = (*cfProvider)(nil)

func (p *cfProvider) CreateInstances(ctx context.Context, wf string, in []cloudflare.NewInstance) (cloudflare.InstancesCreated, error) {
	return p.c.CreateInstances(ctx, wf, in)
}

// instanceIDPattern is what an instance id a caller chooses may be
// (Cloudflare's rule; the ids it reserves are refused apart).
var (
	instanceIDPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$`)
	reservedIDPattern = regexp.MustCompile(`^(batch|terminate|terminateAll|cf_[0-9a-f]{64})$`)
)

// batchTries is how often a batch the provider answers 429 is sent; the
// wait between tries is its Retry-After (at most maxBatchWait) or 1 s.
const (
	batchTries   = 5
	maxBatchWait = 10 * time.Second
)

// TriggerBatch starts the runs of req on the workflow's active deployment
// on the connection, as Trigger does one, through the provider's batch
// create: each entry is created (a run recorded as queued) or refused, by
// its index. Entries are checked first (params as Trigger checks them, an
// id of 1-100 letters, digits, '-' and '_' not named twice nor by a run of
// the workflow); the creates are paced to the provider's creation rate
// (the connection plan's, per account and per Workflow), and a batch the
// provider answers 429 is sent again after its Retry-After.
//
// Errors of the whole request: a function → bad_request; no runs or more
// than MaxBatchRuns → validation_failed at /runs; not deployed there →
// conflict; the provider failing every entry → provider_unavailable /
// provider_error.
func (s *Service) TriggerBatch(ctx context.Context, tw *TenantWorkflow, req BatchTriggerRequest) (*BatchTriggerResult, error) {
	wf, t := tw.Workflow(), tw.Tenant()
	w := &wf
	if w.Kind == edgeflow.KindScript {
		return nil, edgeflow.Errorf(edgeflow.EBadRequest, "a function has no runs: invoke it with an HTTP POST to its url")
	}
	if len(req.Runs) == 0 || len(req.Runs) > MaxBatchRuns {
		return nil, edgeflow.Invalid("/runs", fmt.Sprintf("runs must hold 1 to %d entries (got %d)", MaxBatchRuns, len(req.Runs)))
	}
	c, d, err := s.activeDeployment(ctx, t, w, req.ConnectionID)
	if err != nil {
		return nil, err
	}
	if err := s.notDraining(w, c); err != nil {
		return nil, err
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, err
	}

	out := &BatchTriggerResult{Created: []edgeflow.BatchCreated{}, Errors: []edgeflow.BatchError{}}
	refuse := func(i int, err error) {
		code, msg, retry := edgeflow.ErrorCode(err), err.Error(), 0
		if e, ok := errors.AsType[*edgeflow.Error](err); ok {
			msg = e.Message
			if e.RetryAfter > 0 {
				retry = int(math.Ceil(e.RetryAfter.Seconds()))
			}
			if fe, ok := e.Details.([]edgeflow.FieldError); ok && len(fe) > 0 && fe[0].Path != "" {
				msg = fe[0].Path + ": " + msg
			}
		}
		if code == edgeflow.EInternal {
			msg = "the run could not be created"
		}
		out.Errors = append(out.Errors, edgeflow.BatchError{Index: i, Code: code, Message: msg, RetryAfter: retry})
	}

	var ok []batchEntry
	seen := map[string]int{}
	for i, r := range req.Runs {
		at := "/runs/" + strconv.Itoa(i)
		params, err := runParams(r.Params, at+"/params")
		if err == nil && hasTraceKey(params) {
			err = edgeflow.Invalid(at+"/params/"+codegen.TraceKey, "this key is reserved for the run's trace context")
		}
		if err != nil {
			refuse(i, err)
			continue
		}
		runID := edgeflow.NewID(edgeflow.PrefixRun)
		instanceID := runID
		if r.ID != "" {
			if !instanceIDPattern.MatchString(r.ID) || reservedIDPattern.MatchString(r.ID) {
				refuse(i, edgeflow.Invalid(at+"/id", "id must be 1-100 letters, digits, '-' and '_' (not batch, terminate, terminateAll or cf_<64 hex>)"))
				continue
			}
			if j, dup := seen[r.ID]; dup {
				refuse(i, edgeflow.Invalid(at+"/id", fmt.Sprintf("id %q is named by entry %d too", r.ID, j)))
				continue
			}
			seen[r.ID] = i
			if _, err := s.store.FindRunByInstanceID(ctx, w.ID, r.ID); err == nil {
				refuse(i, edgeflow.Errorf(edgeflow.EConflict, "a run of this workflow has instance id %q already", r.ID))
				continue
			} else if !edgeflow.IsNotFound(err) {
				return nil, err
			}
			instanceID = r.ID
		}
		trace := s.tracing.NewRunTrace(ctx, w.Name)
		sent, err := withTraceEnvelope(params, trace)
		if err != nil {
			return nil, err
		}
		ok = append(ok, batchEntry{index: i, runID: runID, instanceID: instanceID, params: params, trace: trace, sent: sent})
	}

	if fc, limited := flowOf(w); limited && len(ok) > 0 {
		if err := s.triggerBatchLimited(ctx, w, c, d, prov, fc, ok, req.Queue, out, refuse); err != nil {
			return nil, err
		}
	} else if len(ok) > 0 {
		created, failed, err := s.createEntries(ctx, c, d, prov, ok)
		if err != nil {
			return nil, err
		}
		for k, e := range ok {
			switch {
			case created[k]:
				run, err := s.recordRun(ctx, w, c, d, prov, e.runID, e.instanceID, e.params, e.trace)
				if err != nil {
					refuse(e.index, err)
					continue
				}
				s.admitStart(ctx, run) // a chosen id waits at the gate of a Workflow deployed with flow control
				out.Created = append(out.Created, edgeflow.BatchCreated{Index: e.index, ID: run.ID, InstanceID: run.InstanceID})
			default:
				refuse(e.index, failed[k])
			}
		}
	}
	sortBatch(out)
	return out, nil
}

// batchEntry is one checked entry of a batch trigger.
type batchEntry struct {
	index             int
	runID, instanceID string
	params            []byte
	// trace is the run's trace context (a child of the batch request's
	// span, as a single trigger's run is of its request's); sent is the
	// params the instance is created with, the trace's envelope added.
	trace *edgeflow.RunTrace
	sent  []byte
}

// createEntries creates the instances of the entries, paced to the
// creation rate, through the provider's batch create (one create each for
// a provider without it): created[k] says entry k's instance exists,
// failed[k] (when not created) why not. An error is the whole request's.
func (s *Service) createEntries(ctx context.Context, c *edgeflow.Connection, d *edgeflow.Deployment, prov Provider, entries []batchEntry) ([]bool, []error, error) {
	if err := s.paceCreates(ctx, c, d.WorkflowName, len(entries)); err != nil {
		return nil, nil, err
	}
	created := make([]bool, len(entries))
	failed := make([]error, len(entries))
	bc, batches := prov.(BatchCreator)
	if batches {
		in := make([]cloudflare.NewInstance, len(entries))
		for k, e := range entries {
			in[k] = cloudflare.NewInstance{ID: e.instanceID, Params: e.sent}
		}
		got, err := s.createBatchRetrying(ctx, bc, d.WorkflowName, in)
		switch {
		case lacksFeature(err):
			batches = false
		case err != nil:
			return nil, nil, providerError("create the workflow instances", err)
		default:
			byID := make(map[string]int, len(entries))
			for k, e := range entries {
				byID[e.instanceID] = k
			}
			for _, cr := range got.Created {
				if k, found := byID[cr.ID]; found {
					created[k] = true
				}
			}
			for _, pe := range got.Errors {
				if pe.Index >= 0 && pe.Index < len(entries) {
					code := edgeflow.EProviderError
					if pe.Code == 10405 || pe.Code == 10415 {
						code = edgeflow.EConflict
					}
					failed[pe.Index] = &edgeflow.Error{Code: code, Message: fmt.Sprintf("the provider refused the instance (%d): %s", pe.Code, pe.Message)}
				}
			}
		}
	}
	if !batches {
		// A provider without the batch create: one create each.
		for k, e := range entries {
			if err := providerError("create the workflow instance", prov.CreateInstance(ctx, d.WorkflowName, e.instanceID, e.sent)); err != nil {
				failed[k] = err
				continue
			}
			created[k] = true
		}
	}
	for k := range entries {
		if !created[k] && failed[k] == nil {
			failed[k] = edgeflow.Errorf(edgeflow.EProviderError, "the provider's answer did not name this instance")
		}
	}
	return created, failed, nil
}

// createBatchRetrying sends the batch, again after a 429 (its Retry-After,
// at most maxBatchWait, or 1 s), at most batchTries times. A 429 creates
// nothing, so sending again cannot create an instance twice.
func (s *Service) createBatchRetrying(ctx context.Context, bc BatchCreator, wf string, in []cloudflare.NewInstance) (cloudflare.InstancesCreated, error) {
	for try := 1; ; try++ {
		got, err := bc.CreateInstances(ctx, wf, in)
		ae, ok := errors.AsType[*cloudflare.APIError](err)
		if !ok || ae.Status != http.StatusTooManyRequests || try >= batchTries {
			return got, err
		}
		wait := time.Second
		if d, has := ae.RetryAfter(); has {
			wait = min(d, maxBatchWait)
		}
		s.log.Info("trigger batch: the provider answered 429; sending again", "workflow", wf, "in", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return got, err
		case <-t.C:
		}
	}
}

// creationLimiters pace instance creates to the provider's creation rate:
// one limiter per account of a connection and one per Workflow.
type creationLimiters struct{ m sync.Map }

func (l *creationLimiters) of(key string, perSecond int) *rate.Limiter {
	if v, ok := l.m.Load(key); ok {
		return v.(*rate.Limiter)
	}
	v, _ := l.m.LoadOrStore(key, rate.NewLimiter(rate.Limit(perSecond), perSecond))
	return v.(*rate.Limiter)
}

// paceCreates waits until n creates fit the creation rates of c's plan:
// the account's and the Workflow's.
func (s *Service) paceCreates(ctx context.Context, c *edgeflow.Connection, workflowName string, n int) error {
	l := planlimits.OfConnection(c)
	acct := c.Provider + ":" + c.AccountID
	if c.Provider == edgeflow.ProviderLocal {
		acct = "local:" + c.OrganizationID // each organization has its own edge account
	}
	for _, lim := range []*rate.Limiter{
		s.creates.of(acct, l.CreatesPerSecond),
		s.creates.of(acct+"/"+workflowName, l.CreatesPerSecondWorkflow),
	} {
		if err := lim.WaitN(ctx, min(n, lim.Burst())); err != nil {
			return edgeflow.Errorf(edgeflow.ERateLimited, "the provider's creation rate is taken: try again shortly")
		}
	}
	return nil
}

// sortBatch orders created and errors by index.
func sortBatch(r *BatchTriggerResult) {
	slices.SortFunc(r.Created, func(a, b edgeflow.BatchCreated) int { return cmp.Compare(a.Index, b.Index) })
	slices.SortFunc(r.Errors, func(a, b edgeflow.BatchError) int { return cmp.Compare(a.Index, b.Index) })
}
