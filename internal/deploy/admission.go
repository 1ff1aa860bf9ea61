package deploy

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"

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
// reserved). A failure is logged: the instance then ends when its wait
// times out, having run no step.
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
		s.log.Warn("admission: the admission event could not be sent; the instance ends when its wait times out", "run", r.ID, "err", err)
	}
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
