package deploy

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// The admission gate (docs/deploy.md, "Cron starts"; decisions 770-774): the
// Workflow of a workflow deployed with a cron trigger and flow control
// (codegen.Options.AdmissionGate) makes every instance whose id is not one
// edgeflow makes wait for the ir.AdmissionEventType event before its first
// step. Discovery sends it to a schedule's start it admits and terminates
// the one it skips, so a skipped start runs no step.

// edgeflowInstanceID matches the instance ids edgeflow makes: a run id
// ("run_" and 20 lowercase letters or digits, edgeflow.NewID) and a signed
// trigger's ("sig_" and 40 hex digits). The gate lets them through; it is
// the generated code's test, written twice.
var edgeflowInstanceID = regexp.MustCompile(`^(run_[a-z0-9]{20}|sig_[0-9a-f]{40})$`)

// waitsForAdmission reports whether an instance with this id waits at the
// gate of a gated Workflow.
func waitsForAdmission(instanceID string) bool { return !edgeflowInstanceID.MatchString(instanceID) }

// admissionPayload is the payload of the admission event.
var admissionPayload = json.RawMessage(`{"admittedBy":"edgeflow"}`)

// admitStart sends the admission event to the instance of run r when it
// waits at a gate: its id is not of edgeflow's forms (a schedule's start, or
// a batch entry's chosen id) and its version has a cron trigger. An
// ungated Workflow's instance keeps the event unread (the type is
// reserved). A failure is logged; the refresher sends the event again to a
// start still waiting at the gate readmitAfter later (readmitStranded).
func (s *Service) admitStart(ctx context.Context, r *edgeflow.Run) {
	if !waitsForAdmission(r.InstanceID) || strings.HasPrefix(r.InstanceID, signedInstancePrefix) {
		return
	}
	cron, err := s.hasCron(ctx, r.WorkflowID, r.VersionID)
	if err != nil || !cron {
		if err != nil {
			s.log.Warn("admission: the run's version could not be read", "run", r.ID, "err", err)
		}
		return
	}
	if err := s.deliverTo(context.WithoutCancel(ctx), r, ir.AdmissionEventType, admissionPayload); err != nil {
		s.log.Warn("admission: the admission event could not be sent; the refresher sends it again if the start still waits at its gate", "run", r.ID, "err", err)
	}
}

// readmitAfter is how long an admitted cron start may wait at its gate
// before the refresher sends it the admission event again: far longer than
// a send takes, far shorter than the gate's AdmissionTimeout.
const readmitAfter = 30 * time.Second

// maxReadmits is the most admission events sent again at once; a start
// past it is sent its event at a later refresh.
const maxReadmits = 4

// readmits remembers the starts sent their admission event again, so that
// each is sent it at most once per readmitAfter.
type readmits struct {
	mu       sync.Mutex
	sent     map[string]time.Time // run id -> when its event was last sent again
	inFlight int
}

// take reports whether run id may be sent its event again now, and if so
// counts the send in flight until done is called.
func (m *readmits) take(id string, now time.Time) (done func(), ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.inFlight >= maxReadmits {
		return nil, false
	}
	if last, seen := m.sent[id]; seen && now.Sub(last) < readmitAfter {
		return nil, false
	}
	if m.sent == nil {
		m.sent = map[string]time.Time{}
	}
	if len(m.sent) >= 4096 {
		// the gate gives up after 10 minutes: older entries name ended runs
		for k, t := range m.sent {
			if now.Sub(t) > 15*time.Minute {
				delete(m.sent, k)
			}
		}
	}
	m.sent[id] = now
	m.inFlight++
	return func() {
		m.mu.Lock()
		m.inFlight--
		m.mu.Unlock()
	}, true
}

// admissionWaitSince answers when an instance with these steps (Cloudflare's
// shape) began to wait at the admission gate, if it still waits there.
func admissionWaitSince(steps json.RawMessage) (time.Time, bool) {
	var list []struct {
		Type     string     `json:"type"`
		Name     string     `json:"name"`
		Start    *time.Time `json:"start"`
		Finished *bool      `json:"finished"`
		End      *time.Time `json:"end"`
	}
	if len(steps) == 0 || json.Unmarshal(steps, &list) != nil {
		return time.Time{}, false
	}
	for _, st := range list {
		if st.Type != "waitForEvent" || st.Name != codegen.AdmissionStep {
			continue
		}
		if (st.Finished != nil && *st.Finished) || st.End != nil || st.Start == nil {
			return time.Time{}, false
		}
		return *st.Start, true
	}
	return time.Time{}, false
}

// readmitStranded sends the admission event again, in the background, to
// the instance of run r, read by a refresh, when it still waits at the gate
// readmitAfter after it began to: its first send (admitStart) failed or was
// lost, and the start would otherwise end unrun when the gate times out. A
// run the refresher reads is an admitted one (a held start is not read,
// and a skipped one is terminated). A second event that reaches an instance
// admitted meanwhile stays unread (the type is reserved).
func (s *Service) readmitStranded(ctx context.Context, r *edgeflow.Run, inst *Instance, now time.Time) {
	if edgeflow.RunIsFinal(r.Status) || !waitsForAdmission(r.InstanceID) || strings.HasPrefix(r.InstanceID, signedInstancePrefix) {
		return
	}
	since, waiting := admissionWaitSince(inst.Steps)
	if !waiting || now.Sub(since) < readmitAfter {
		return
	}
	done, ok := s.readmits.take(r.ID, now)
	if !ok {
		return
	}
	run := *r
	go func() {
		defer done()
		ctx := context.WithoutCancel(ctx)
		if cron, err := s.hasCron(ctx, run.WorkflowID, run.VersionID); err != nil || !cron {
			return
		}
		waited := now.Sub(since).Round(time.Second)
		if err := s.deliverTo(ctx, &run, ir.AdmissionEventType, admissionPayload); err != nil {
			s.log.Warn("admission: the admission event could not be sent again; the next refresh tries once more",
				"run", run.ID, "waited", waited, "err", err)
			return
		}
		s.log.Info("admission: sent the admission event again to a start waiting at its gate", "run", run.ID, "waited", waited)
	}()
}

// admissionTimedOut reports whether run, found ended by discovery, is a
// schedule's start that ended at the gate, never admitted: it is then
// recorded skipped, saying so.
func admissionTimedOut(run *edgeflow.Run) bool {
	if run.Status != edgeflow.RunErrored || !strings.Contains(run.Error, codegen.AdmissionTimedOut) {
		return false
	}
	run.Status, run.StatusDetail = edgeflow.RunTerminated, edgeflow.RunDetailSkipped
	run.Error = "this cron start was skipped: " + run.Error
	run.Output = nil
	return true
}

// withAdmissionStep counts the gate in b for workflow w compiled with it (a
// cron trigger and flow control): a cron start waits once at the gate, a
// billed step, so the most billed steps of a run grow by one; a run
// edgeflow starts skips it, so the fewest stay.
func withAdmissionStep(b ir.StepBounds, a *ir.ArtifactIR, w *edgeflow.Workflow) ir.StepBounds {
	if _, limited := flowOf(w); !limited || a.IsScript() || a.Trigger == nil || a.Trigger.Type != ir.TriggerCron {
		return b
	}
	b.Billed.Max++
	return b
}
