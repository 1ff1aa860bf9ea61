package deploy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// Flow control (docs/deploy.md, "Flow control"; decisions 600-604, 670-672): a
// workflow's deployConfig.concurrency bounds its runs taking a slot at once
// on a connection, and deployConfig.rateLimit the runs started per period,
// for the workflow or per value of a key over the trigger params.
// Cloudflare's Workflow configuration has neither (its REST Workflow takes
// limits, schedules and default_retention), so edgeflow's trigger path
// enforces both on every provider: a trigger over a limit is 429 with
// Retry-After, or, with queue: true, a run held (queued, statusDetail
// "held") that the refresher starts when the limits allow (StartHeldRuns).

// Bounds of the flow control settings.
const (
	// MaxConcurrency is the largest deployConfig.concurrency: Cloudflare
	// Paid's concurrent instances (internal/planlimits).
	MaxConcurrency = 50000
	// MaxRateLimit is the largest rateLimit.limit.
	MaxRateLimit = 100000
	// MinRatePeriod and MaxRatePeriod bound rateLimit.period; the longest
	// is the time the store keeps a counting window (sqlstore.hitRetention).
	MinRatePeriod = time.Second
	MaxRatePeriod = time.Hour
	// maxRateKey is the longest rateLimit.key expression.
	maxRateKey = 200
	// ConcurrencyRetryAfter is the Retry-After of a trigger refused for
	// concurrency: when a slot frees is not known, so about the refresher's
	// few rounds.
	ConcurrencyRetryAfter = 2 * time.Second
)

// keyExpr is one {{…}} of a rate limit key; keyPath what it may read.
var (
	keyExpr = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)
	keyPath = regexp.MustCompile(`^event\.payload(\.[A-Za-z_$][A-Za-z0-9_$]*|\.[0-9]+)+$`)
)

// FlowControlProblems checks deployConfig's concurrency and rateLimit (nil:
// not sent), with their JSON paths.
func FlowControlProblems(concurrency *int, rl *edgeflow.RateLimit) []edgeflow.FieldError {
	var p []edgeflow.FieldError
	add := func(path, msg string) { p = append(p, edgeflow.FieldError{Path: path, Message: msg}) }
	if concurrency != nil && (*concurrency < 0 || *concurrency > MaxConcurrency) {
		add("/deployConfig/concurrency", fmt.Sprintf("concurrency must be from 1 to %d (0 or absent: no limit)", MaxConcurrency))
	}
	if rl == nil {
		return p
	}
	if rl.Limit < 1 || rl.Limit > MaxRateLimit {
		add("/deployConfig/rateLimit/limit", fmt.Sprintf("limit must be from 1 to %d starts per period", MaxRateLimit))
	}
	if _, err := RatePeriod(rl.Period); err != nil {
		add("/deployConfig/rateLimit/period", "period "+err.Error())
	}
	if msg := rateKeyProblem(rl.Key); msg != "" {
		add("/deployConfig/rateLimit/key", msg)
	}
	return p
}

// RatePeriod reads a rate limit period: a duration of the IR ("1 minute")
// or a number of seconds, from MinRatePeriod to MaxRatePeriod in whole
// seconds.
func RatePeriod(s string) (time.Duration, error) {
	var d time.Duration
	var err error
	if f, ferr := strconv.ParseFloat(strings.TrimSpace(s), 64); ferr == nil {
		d, err = ir.DurationOf(f)
	} else {
		d, err = ir.ParseDuration(s)
	}
	switch {
	case err != nil || s == "":
		return 0, fmt.Errorf("is required: a duration such as \"1 minute\" or a number of seconds")
	case d < MinRatePeriod || d > MaxRatePeriod || d%time.Second != 0:
		return 0, fmt.Errorf("must be whole seconds from 1 second to 1 hour")
	}
	return d, nil
}

// rateKeyProblem says what is wrong with a rate limit key: "" (one limit
// for the workflow) or text with {{event.payload.<path>}} expressions only.
func rateKeyProblem(key string) string {
	if key == "" {
		return ""
	}
	if len(key) > maxRateKey {
		return fmt.Sprintf("key must be at most %d characters", maxRateKey)
	}
	found := keyExpr.FindAllStringSubmatch(key, -1)
	if len(found) == 0 {
		return "key must read the trigger params, e.g. {{event.payload.customerId}}"
	}
	for _, m := range found {
		if !keyPath.MatchString(m[1]) {
			return fmt.Sprintf("key may only read the trigger params as {{event.payload.<field>[.<field>…]}}; %q is not", m[0])
		}
	}
	if rest := keyExpr.ReplaceAllString(key, ""); strings.ContainsAny(rest, "{}") {
		return "key has an unclosed {{ or a stray }}"
	}
	return ""
}

// RateKeyOf is the value of key over params (the run's event.payload): each
// expression replaced by the value it reads, a string as it is, anything
// else as JSON, a missing one as "". "" for key "".
func RateKeyOf(key string, params []byte) string {
	if key == "" {
		return ""
	}
	var payload any
	_ = json.Unmarshal(params, &payload)
	return keyExpr.ReplaceAllStringFunc(key, func(m string) string {
		path := keyExpr.FindStringSubmatch(m)[1]
		v := payload
		for _, seg := range strings.Split(path, ".")[2:] {
			switch c := v.(type) {
			case map[string]any:
				v = c[seg]
			case []any:
				i, err := strconv.Atoi(seg)
				if err != nil || i < 0 || i >= len(c) {
					return ""
				}
				v = c[i]
			default:
				return ""
			}
		}
		switch x := v.(type) {
		case nil:
			return ""
		case string:
			return x
		default:
			b, _ := json.Marshal(x)
			return string(b)
		}
	})
}

// flowControl is a workflow's flow control, read from its deployConfig.
type flowControl struct {
	concurrency int
	rate        *edgeflow.RateLimit
	period      time.Duration
}

// flowOf is w's flow control; ok false when it has none.
func flowOf(w *edgeflow.Workflow) (fc flowControl, ok bool) {
	dc := w.DeployConfig
	if dc == nil {
		return fc, false
	}
	fc.concurrency = dc.Concurrency
	if dc.RateLimit != nil {
		if d, err := RatePeriod(dc.RateLimit.Period); err == nil && dc.RateLimit.Limit > 0 {
			fc.rate, fc.period = dc.RateLimit, d
		}
	}
	return fc, fc.concurrency > 0 || fc.rate != nil
}

// rateBlocks remembers, per rate limit counter, until when its window is
// spent, so that held runs do not spend counts while it is (per process).
type rateBlocks struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (b *rateBlocks) blocked(key string, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, ok := b.until[key]
	if ok && !now.Before(t) {
		delete(b.until, key)
		return false
	}
	return ok
}

func (b *rateBlocks) block(key string, until time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.until == nil {
		b.until = map[string]time.Time{}
	}
	b.until[key] = until
}

// rateCounter is the store's counter of the rate limit of workflowID on
// connectionID for the key value (hashed: params are the caller's).
func rateCounter(workflowID, connectionID, keyValue string) string {
	sum := sha256.Sum256([]byte(keyValue))
	return "flow:" + workflowID + ":" + connectionID + ":" + hex.EncodeToString(sum[:12])
}

// takeRate counts one start of a run with params against fc's rate limit
// (a fixed window of fc.period in the store, shared by replicas) and
// answers whether it may start and, when not, how long until the window
// ends.
func (s *Service) takeRate(ctx context.Context, workflowID, connectionID string, fc flowControl, params []byte, now time.Time) (bool, time.Duration, error) {
	if fc.rate == nil {
		return true, 0, nil
	}
	key := rateCounter(workflowID, connectionID, RateKeyOf(fc.rate.Key, params))
	start := now.Truncate(fc.period)
	end := start.Add(fc.period)
	if s.rateBlocks.blocked(key, now) {
		return false, end.Sub(now), nil
	}
	n, err := s.store.Hit(ctx, key, start)
	if err != nil {
		return false, 0, err
	}
	if n > fc.rate.Limit {
		s.rateBlocks.block(key, end)
		return false, end.Sub(now), nil
	}
	return true, 0, nil
}

// rateLimited is the 429 of a trigger over the workflow's rate limit.
func rateLimited(fc flowControl, retry time.Duration) *edgeflow.Error {
	e := edgeflow.Errorf(edgeflow.ERateLimited, "the workflow's rate limit (%d starts per %s%s) is reached: try again after Retry-After seconds, or trigger with queue: true",
		fc.rate.Limit, fc.period, keyNote(fc.rate.Key))
	e.RetryAfter = max(retry, time.Second)
	return e
}

func keyNote(key string) string {
	if key == "" {
		return ""
	}
	return " for each " + key
}

// concurrencyLimited is the 429 of a trigger over the workflow's concurrency.
func concurrencyLimited(fc flowControl) *edgeflow.Error {
	e := edgeflow.Errorf(edgeflow.ERateLimited, "the workflow has %d runs in progress on this connection, its concurrency: try again after Retry-After seconds, or trigger with queue: true",
		fc.concurrency)
	e.RetryAfter = ConcurrencyRetryAfter
	return e
}

// triggerLimited starts run (built by the trigger, not stored) of w under
// its flow control fc: it is stored admitted and its instance created when
// the limits allow; otherwise it is stored held when queue is set, or
// refused with 429 and Retry-After. When the instance cannot be created,
// the run is recorded as errored and the provider's error answered.
func (s *Service) triggerLimited(ctx context.Context, w *edgeflow.Workflow, c *edgeflow.Connection, d *edgeflow.Deployment, prov Provider, fc flowControl, run *edgeflow.Run, instanceParams []byte, queue bool) (*TriggerResult, error) {
	admitted, err := s.admitNew(ctx, w, c, fc, run, queue)
	if err != nil {
		return nil, err
	}
	if !admitted {
		return heldResult(run), nil
	}
	if err := s.createInstance(ctx, c, d, prov, run.InstanceID, instanceParams); err != nil {
		s.failStart(context.WithoutCancel(ctx), run, err)
		return nil, err
	}
	s.watchRun(ctx, run)
	return &TriggerResult{ID: run.ID, InstanceID: run.InstanceID, Status: run.Status}, nil
}

// admitNew stores the new run (not stored yet) of w under its flow control
// fc: admitted (true) when the concurrency has room and the rate allows;
// otherwise held (false) when queue is set, or not stored and refused with
// 429 rate_limited and Retry-After. A rate count is only spent when the
// concurrency has room.
func (s *Service) admitNew(ctx context.Context, w *edgeflow.Workflow, c *edgeflow.Connection, fc flowControl, run *edgeflow.Run, queue bool) (bool, error) {
	refusal, err := s.limitRefusal(ctx, w.ID, c.ID, fc, run.Params)
	if err != nil {
		return false, err
	}
	if refusal != nil {
		if !queue {
			return false, refusal
		}
		_, err := s.storeHeld(ctx, run)
		return false, err
	}
	admitted, err := s.store.CreateRunLimited(context.WithoutCancel(ctx), run, fc.concurrency, queue)
	if err != nil {
		return false, err
	}
	if !admitted {
		if !queue {
			return false, concurrencyLimited(fc)
		}
		s.heldMaybe.Store(true)
	}
	return admitted, nil
}

// limitRefusal is the 429 of a start of the workflow on the connection
// with params that fc's limits refuse now, nil when they allow it (its rate
// count then spent).
func (s *Service) limitRefusal(ctx context.Context, workflowID, connectionID string, fc flowControl, params []byte) (*edgeflow.Error, error) {
	if fc.concurrency > 0 {
		n, err := s.store.CountAdmittedRuns(ctx, workflowID, connectionID)
		if err != nil {
			return nil, err
		}
		if n >= fc.concurrency {
			return concurrencyLimited(fc), nil
		}
	}
	ok, retry, err := s.takeRate(ctx, workflowID, connectionID, fc, params, s.now())
	if err != nil {
		return nil, err
	}
	if !ok {
		return rateLimited(fc, retry), nil
	}
	return nil, nil
}

// storeHeld stores run held (its instance is created later).
func (s *Service) storeHeld(ctx context.Context, run *edgeflow.Run) (*TriggerResult, error) {
	run.StatusDetail, run.NextRefreshAt = edgeflow.RunDetailHeld, nil
	if err := s.store.CreateRun(context.WithoutCancel(ctx), run); err != nil {
		return nil, err
	}
	s.heldMaybe.Store(true)
	return heldResult(run), nil
}

func heldResult(run *edgeflow.Run) *TriggerResult {
	return &TriggerResult{ID: run.ID, InstanceID: run.InstanceID, Status: run.Status, StatusDetail: edgeflow.RunDetailHeld}
}

// failStart records that the admitted run's instance could not be created:
// the run ends errored (freeing its slot), saying why.
func (s *Service) failStart(ctx context.Context, run *edgeflow.Run, cause error) {
	now := s.now().UTC()
	run.Status, run.StatusDetail, run.EndedAt, run.NextRefreshAt = edgeflow.RunErrored, "", &now, nil
	run.Error = "its instance could not be created: " + safeMessage(cause)
	if err := s.store.UpdateRun(ctx, run); err != nil {
		s.log.Error("flow control: a run whose instance was not created could not be marked errored", "run", run.ID, "err", err)
	}
}

// Bounds of one round of StartHeldRuns.
const (
	// maxHeldGroups is the most (workflow, connection) pairs with held
	// runs looked at per round, the one with the oldest held run first.
	maxHeldGroups = 1000
	// heldPage is how many held runs of a pair are read at a time.
	heldPage = 100
	// maxHeldExamined is the most held runs of a pair looked at per round
	// when its limits still have room (a rate limit per key whose keys are
	// spent); the next round goes on after the last one looked at.
	maxHeldExamined = 1000
)

// heldCursors remembers, per (workflow, connection), the last held run a
// round looked at when it stopped at maxHeldExamined with room left, so
// that the next round goes on from there and no held run starves behind
// more than that many others whose keys are limited (per process).
type heldCursors struct {
	mu sync.Mutex
	m  map[string]edgeflow.HeldRunsFilter
}

func (h *heldCursors) take(key string) edgeflow.HeldRunsFilter {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.m[key]
	delete(h.m, key)
	return f
}

func (h *heldCursors) put(key string, f edgeflow.HeldRunsFilter) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string]edgeflow.HeldRunsFilter{}
	}
	h.m[key] = f
}

// StartHeldRuns is one round of starting the held runs whose workflow's
// limits allow them: for each (workflow, connection) with held runs
// (startHeldOf), whatever the number of held runs. Failures are logged,
// never returned. The refresher calls it each round while this
// process may hold runs, and on its discovery rounds (for runs other
// replicas held).
func (s *Service) StartHeldRuns(ctx context.Context) {
	groups, err := s.store.ListHeldGroups(ctx, maxHeldGroups)
	if err != nil {
		s.log.Warn("flow control: held runs could not be listed", "err", err)
		return
	}
	if len(groups) == 0 {
		s.heldMaybe.Store(false)
		return
	}
	for _, g := range groups {
		if ctx.Err() != nil {
			return
		}
		s.startHeldOf(ctx, g)
	}
}

// startHeldOf starts the held runs of one workflow on one connection,
// oldest first, as many as its limits allow: with a concurrency, the
// oldest ones that fill its free slots (read a page at a time); each is
// admitted in the store (atomically against the concurrency, so replicas
// never admit more) and its instance created through the provider's REST
// API with its run id. A run whose rate limit key is spent is passed over
// for the younger ones of other keys; without a key, a spent rate stops
// the pair until its window ends.
func (s *Service) startHeldOf(ctx context.Context, g edgeflow.HeldGroup) {
	w, err := s.store.FindWorkflowByID(ctx, g.ProjectID, g.WorkflowID)
	if err != nil {
		s.log.Warn("flow control: a held run's workflow could not be read", "workflow", g.WorkflowID, "err", err)
		return
	}
	fc, _ := flowOf(w)
	key := g.WorkflowID + "\x00" + g.ConnectionID
	f := s.heldCursors.take(key)
	f.WorkflowID, f.ConnectionID = g.WorkflowID, g.ConnectionID
	for examined := 0; examined < maxHeldExamined; {
		room := heldPage
		if fc.concurrency > 0 {
			n, err := s.store.CountAdmittedRuns(ctx, g.WorkflowID, g.ConnectionID)
			if err != nil || n >= fc.concurrency {
				return
			}
			room = fc.concurrency - n
		}
		f.Limit = heldPage
		if fc.rate == nil {
			f.Limit = min(room, heldPage)
		}
		runs, err := s.store.ListHeldRuns(ctx, f)
		if err != nil {
			s.log.Warn("flow control: held runs could not be listed", "workflow", g.WorkflowID, "err", err)
			return
		}
		now := s.now()
		for i := range runs {
			r := &runs[i]
			examined++
			f.AfterCreatedAt, f.AfterID = r.CreatedAt, r.ID
			if ok, _, err := s.takeRate(ctx, r.WorkflowID, r.ConnectionID, fc, r.Params, now); err != nil {
				return
			} else if !ok {
				if fc.rate.Key == "" {
					return
				}
				continue
			}
			if s.admitAndStart(ctx, r, fc.concurrency, now) {
				room--
			}
			if fc.concurrency > 0 && room <= 0 {
				break
			}
		}
		if len(runs) < f.Limit {
			return // the oldest again next round
		}
	}
	s.heldCursors.put(key, f)
}

// admitAndStart admits the held run r and creates its instance, holding
// the run's lock meanwhile, so that a read of the run in this process
// (which refreshes it from the provider) or a terminate waits until its
// instance exists. It reports whether r was admitted.
func (s *Service) admitAndStart(ctx context.Context, r *edgeflow.Run, concurrency int, now time.Time) bool {
	unlock := s.lockRun(r.ID)
	defer unlock()
	admitted, err := s.store.AdmitHeldRun(ctx, r, concurrency, now.Add(refreshDelay(0)))
	if err != nil {
		s.log.Warn("flow control: a held run could not be admitted", "run", r.ID, "err", err)
		return false
	}
	if admitted {
		s.startAdmitted(ctx, r)
	}
	return admitted
}

// startAdmitted creates the instance of run r, just admitted; when the
// provider refuses, the run ends errored. An instance that exists already
// (an earlier attempt's) is the run's.
func (s *Service) startAdmitted(ctx context.Context, r *edgeflow.Run) {
	prov, err := s.runProvider(ctx, r)
	if err == nil {
		var params []byte
		if params, err = withTraceEnvelope(paramsOrEmpty(r.Params), r.Trace); err == nil {
			err = prov.CreateInstance(ctx, r.WorkflowName, r.InstanceID, params)
			if isProviderConflict(err) {
				err = nil
			}
			err = providerError("create the workflow instance", err)
		}
	}
	if err != nil {
		s.log.Warn("flow control: a held run's instance could not be created", "run", r.ID, "err", err)
		s.failStart(ctx, r, err)
		return
	}
	s.watchRun(ctx, r)
	s.admitStart(ctx, r) // a batch entry's chosen id waits at a gate
}

// controlHeld carries out a run action on a held run, which has no
// instance: terminate ends it in the store (it never starts); pause and
// resume are conflicts.
func (s *Service) controlHeld(ctx context.Context, r *edgeflow.Run, action string) (*edgeflow.Run, error) {
	if action != ActionTerminate {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "run %s is held by the workflow's flow control and has not started: it can only be terminated", r.ID)
	}
	now := s.now().UTC()
	r.Status, r.StatusDetail, r.EndedAt, r.NextRefreshAt = edgeflow.RunTerminated, "", &now, nil
	ok, err := s.store.UpdateRunIfUnchanged(ctx, r)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "run %s started meanwhile: terminate it again", r.ID)
	}
	return r, nil
}

// safeMessage is err's client-safe message.
func safeMessage(err error) string {
	var e *edgeflow.Error
	if errors.As(err, &e) && e.Code != edgeflow.EInternal {
		return e.Message
	}
	return "internal error"
}

func paramsOrEmpty(p []byte) []byte {
	if len(p) == 0 {
		return []byte("{}")
	}
	return p
}

// triggerBatchLimited starts the checked entries of a batch trigger of w
// under its flow control fc, each as a single trigger is (admitNew), in
// the batch's order: the admitted ones are created together through the
// provider's batch create, the held ones are listed as created with
// statusDetail held, and those the limits refuse (without queue) are
// errors rate_limited by their index. An admitted entry whose instance is
// not created is an error of its index and its run ends errored; when the
// provider refuses the whole request, every admitted run does, and the
// error is the request's.
func (s *Service) triggerBatchLimited(ctx context.Context, w *edgeflow.Workflow, c *edgeflow.Connection, d *edgeflow.Deployment, prov Provider, fc flowControl, entries []batchEntry, queue bool, out *BatchTriggerResult, refuse func(int, error)) error {
	var admitted []batchEntry
	var runs []*edgeflow.Run
	for _, e := range entries {
		run := s.newRun(w, c, d, e.runID, e.instanceID, e.params, e.trace)
		ok, err := s.admitNew(ctx, w, c, fc, run, queue)
		switch {
		case err != nil:
			refuse(e.index, err)
		case !ok:
			out.Created = append(out.Created, edgeflow.BatchCreated{Index: e.index, ID: run.ID, InstanceID: run.InstanceID, StatusDetail: edgeflow.RunDetailHeld})
		default:
			admitted = append(admitted, e)
			runs = append(runs, run)
		}
	}
	if len(admitted) == 0 {
		return nil
	}
	created, failed, err := s.createEntries(ctx, c, d, prov, admitted)
	if err != nil {
		for _, run := range runs {
			s.failStart(context.WithoutCancel(ctx), run, err)
		}
		return err
	}
	for k, e := range admitted {
		if !created[k] {
			s.failStart(context.WithoutCancel(ctx), runs[k], failed[k])
			refuse(e.index, failed[k])
			continue
		}
		s.watchRun(ctx, runs[k])
		s.admitStart(ctx, runs[k]) // a chosen id waits at a gate
		out.Created = append(out.Created, edgeflow.BatchCreated{Index: e.index, ID: runs[k].ID, InstanceID: runs[k].InstanceID})
	}
	return nil
}

// recordCronLimited records run, a cron start of a workflow with flow
// control fc discovered in progress (key: its discovery key), under fc:
// admitted as a trigger is when the concurrency has room and the rate
// allows, else skipped: recorded terminated with statusDetail "skipped"
// and the reason as its error, and its instance terminated. An admitted
// start is sent the admission event its gate waits for (admitStart), so a
// skipped one of a gated Workflow runs no step. A cron start is
// never held (decision 670): the provider has started it already, and a
// schedule firing faster than the limits allow would hold without end; the
// schedule's next start is its retry.
func (s *Service) recordCronLimited(ctx context.Context, prov Provider, fc flowControl, run *edgeflow.Run, key string) (bool, error) {
	reason := ""
	if fc.concurrency > 0 {
		n, err := s.store.CountAdmittedRuns(ctx, run.WorkflowID, run.ConnectionID)
		if err != nil {
			return false, err
		}
		if n >= fc.concurrency {
			reason = fmt.Sprintf("the workflow had %d runs in progress on this connection, its concurrency", fc.concurrency)
		}
	}
	if reason == "" {
		ok, _, err := s.takeRate(ctx, run.WorkflowID, run.ConnectionID, fc, run.Params, s.now())
		if err != nil {
			return false, err
		}
		if !ok {
			reason = fmt.Sprintf("the workflow's rate limit (%d starts per %s%s) was reached", fc.rate.Limit, fc.period, keyNote(fc.rate.Key))
		}
	}
	if reason == "" {
		admitted, err := s.store.CreateRunLimited(context.WithoutCancel(ctx), run, fc.concurrency, false)
		if err != nil {
			if edgeflow.IsConflict(err) { // another replica recorded it first
				s.cron.remember(key)
				return false, nil
			}
			return false, err
		}
		if !admitted {
			reason = fmt.Sprintf("the workflow had %d runs in progress on this connection, its concurrency", fc.concurrency)
		}
	}
	admitted := reason == ""
	if reason != "" {
		now := s.now().UTC()
		run.Status, run.StatusDetail, run.EndedAt, run.NextRefreshAt = edgeflow.RunTerminated, edgeflow.RunDetailSkipped, &now, nil
		run.Output = nil
		run.Error = "this cron start was skipped by the workflow's flow control: " + reason
		if err := s.store.CreateRun(context.WithoutCancel(ctx), run); err != nil {
			if edgeflow.IsConflict(err) {
				s.cron.remember(key)
				return false, nil
			}
			return false, err
		}
		// Recorded first, so that a replica that recorded it admitted is
		// never overruled by a terminate.
		if err := prov.ChangeInstanceStatus(context.WithoutCancel(ctx), run.WorkflowName, run.InstanceID, "terminate"); err != nil {
			s.log.Warn("flow control: a skipped cron start's instance could not be terminated", "run", run.ID, "err", err)
		}
	}
	s.cron.remember(key)
	s.traceRunChange(ctx, run, nil, "")
	if admitted {
		s.admitStart(ctx, run)
	}
	return true, nil
}
