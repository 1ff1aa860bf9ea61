package deploy

import (
	"fmt"
	"strconv"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/planlimits"
)

// What a plan's limits mean for a version (docs/deploy.md, "Plan limits"):
// the warnings of a submit, the refusal of a deploy, and what a deploy
// sets on the Workflow.

// StepWarnings are the warnings of a submitted workflow: a run that can
// take more steps than a plan's default (Free's 1,024, Paid's 10,000),
// naming the node that weighs most, and each loop without a bound.
func StepWarnings(a *ir.ArtifactIR) []edgeflow.Warning {
	if a.IsScript() {
		return nil
	}
	b := ir.StepBoundsOf(a)
	var out []edgeflow.Warning
	if b.Billed.Bounded {
		for _, plan := range []string{planlimits.Free, planlimits.Paid} {
			l, _ := planlimits.Of(plan)
			if b.Billed.Max > int64(l.Steps) {
				out = append(out, edgeflow.Warning{Path: nodePointer(a, b.Heaviest), NodeID: b.Heaviest,
					Message: fmt.Sprintf("a run can take up to %d steps (node %q up to %d of them); the %s plan allows %d a run: a deploy to a connection on that plan is refused",
						b.Billed.Max, b.Heaviest, b.HeaviestSteps, plan, l.Steps)})
			}
		}
	}
	for _, id := range b.Unbounded {
		out = append(out, edgeflow.Warning{Path: nodePointer(a, id), NodeID: id,
			Message: fmt.Sprintf("loop %q has no bound on its iterations (a computed collection without maxIterations): its steps per run cannot be counted against a plan's limit", id)})
	}
	return out
}

// checkPlanSteps refuses (422 at the node that weighs most) a version
// whose runs can take more steps than the connection's limit.
func checkPlanSteps(reqs *Requirements, c *edgeflow.Connection) error {
	b := reqs.Steps
	if !b.Billed.Bounded || reqs.Steps.Heaviest == "" {
		return nil
	}
	l := planlimits.OfConnection(c)
	if b.Billed.Max <= int64(l.Steps) {
		return nil
	}
	msg := fmt.Sprintf("a run of this version can take up to %d steps (node %q up to %d of them); connection %s (%s plan) allows %d steps a run",
		b.Billed.Max, b.Heaviest, b.HeaviestSteps, c.Name, l.Plan, l.Steps)
	return &edgeflow.Error{Code: edgeflow.EInvalid, Message: msg,
		Details: []edgeflow.FieldError{{Path: reqs.HeaviestPath, Message: msg}}}
}

// nodePointer is the JSON pointer of node id in a ("" when absent).
func nodePointer(a *ir.ArtifactIR, id string) string {
	for i := range a.Nodes {
		if a.Nodes[i].ID == id {
			return "/nodes/" + strconv.Itoa(i)
		}
	}
	return ""
}

// WorkflowConfig is what a Workflow is created or updated with beside its
// script and class: its cron schedules, its own limits (steps per
// instance, CPU ms per step; 0 leaves the provider's default) and the
// default retention of its finished instances (0 leaves the provider's).
type WorkflowConfig struct {
	Crons            []string
	Steps, CPUMs     int
	SuccessRetention time.Duration
	ErrorRetention   time.Duration
}

// workflowConfig is what a deploy of w on c sets on the Workflow: the
// connection's own limits and w's retention (validated when stored).
func workflowConfig(w *edgeflow.Workflow, c *edgeflow.Connection, crons []string) WorkflowConfig {
	cfg := WorkflowConfig{Crons: crons}
	if c.Limits != nil {
		cfg.Steps, cfg.CPUMs = c.Limits.Steps, c.Limits.CPUMs
	}
	if w.DeployConfig != nil && w.DeployConfig.Retention != nil {
		cfg.SuccessRetention, _ = RetentionDuration(w.DeployConfig.Retention.Success)
		cfg.ErrorRetention, _ = RetentionDuration(w.DeployConfig.Retention.Error)
	}
	return cfg
}

// MaxRetention is the longest retention a Workflow may ask for.
const MaxRetention = planlimits.MaxRetentionDays * 24 * time.Hour

// RetentionDuration reads a retention: a duration of the IR ("7 days") or
// a number of seconds; "" is 0. It refuses a value that does not parse,
// is not positive or exceeds MaxRetention.
func RetentionDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	var d time.Duration
	var err error
	if f, ferr := strconv.ParseFloat(s, 64); ferr == nil {
		d, err = ir.DurationOf(f)
	} else {
		d, err = ir.ParseDuration(s)
	}
	switch {
	case err != nil:
		return 0, fmt.Errorf("must be a duration such as \"7 days\" or a number of seconds")
	case d <= 0:
		return 0, fmt.Errorf("must be longer than 0")
	case d > MaxRetention:
		return 0, fmt.Errorf("must be at most %d days", planlimits.MaxRetentionDays)
	}
	return d, nil
}

// workflowSpec is cfg in the Cloudflare client's terms.
func (cfg WorkflowConfig) spec(name, script, class string) cloudflare.WorkflowSpec {
	crons := cfg.Crons
	if crons == nil {
		crons = []string{} // a redeploy without a cron trigger clears the old schedules
	}
	spec := cloudflare.WorkflowSpec{Name: name, ScriptName: script, ClassName: class, Schedules: crons}
	if cfg.Steps > 0 || cfg.CPUMs > 0 {
		spec.Limits = &cloudflare.WorkflowLimits{Steps: cfg.Steps, CPUMs: cfg.CPUMs}
	}
	if cfg.SuccessRetention > 0 || cfg.ErrorRetention > 0 {
		spec.DefaultRetention = &cloudflare.Retention{SuccessMs: cfg.SuccessRetention.Milliseconds(), ErrorMs: cfg.ErrorRetention.Milliseconds()}
	}
	return spec
}
