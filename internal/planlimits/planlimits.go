// Package planlimits holds Cloudflare Workflows' limits for the Free and
// Paid plans and the per-step pricing, each table with the date it was read
// and its source (docs/deploy.md, "Plan limits" and "Cost estimate"), and
// the arithmetic of a monthly estimate. It imports only the standard
// library and the domain package.
package planlimits

import (
	"fmt"
	"math"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Plans of a connection.
const (
	Free = edgeflow.PlanFree
	Paid = edgeflow.PlanPaid
	// Default is a connection's plan when none is set.
	Default = Paid
)

// Cited is when a table was read and from where.
type Cited struct {
	Date   string `json:"date"`
	Source string `json:"source"`
}

// LimitsCited is the source of Limits' figures.
var LimitsCited = Cited{
	Date: "2026-12-01",
	Source: "Cloudflare Workflows limits page (developers.cloudflare.com/workflows/reference/limits/) as of 2026-12, " +
		"with the changelog entries of 2026-03-03 (steps up to 25,000), 2026-04-15 (concurrency and creation rates) and " +
		"2026-09-10 (retention)",
}

// Limits are one plan's limits of a Workflow and its instances.
type Limits struct {
	Plan string
	// Steps is the default steps per instance; MaxSteps the most a
	// Workflow may ask for (its limits.steps).
	Steps, MaxSteps int
	// StepResultBytes and EventPayloadBytes bound a non-stream step's result
	// and an event's payload.
	StepResultBytes, EventPayloadBytes int
	// StateBytes is the state one instance may keep.
	StateBytes int64
	// CPUMs is the default CPU time per step; MaxCPUMs the most it may be
	// raised to.
	CPUMs, MaxCPUMs int
	// Concurrency is how many instances run at once (account-wide).
	Concurrency int
	// CreatesPerSecond is the account's instance creation rate;
	// CreatesPerSecondWorkflow one Workflow's.
	CreatesPerSecond, CreatesPerSecondWorkflow int
	// Queued is how many instances may wait per Workflow.
	Queued int
	// RetentionDays is the default retention of finished instances;
	// MaxRetentionDays the most a Workflow may set.
	RetentionDays, MaxRetentionDays int
}

const mib = 1 << 20

var table = map[string]Limits{
	Free: {Plan: Free, Steps: 1024, MaxSteps: 1024, StepResultBytes: mib, EventPayloadBytes: mib, StateBytes: 100_000_000,
		CPUMs: 10, MaxCPUMs: 10, Concurrency: 100, CreatesPerSecond: 100, CreatesPerSecondWorkflow: 100, Queued: 100_000,
		RetentionDays: 3, MaxRetentionDays: 3},
	Paid: {Plan: Paid, Steps: 10_000, MaxSteps: 25_000, StepResultBytes: mib, EventPayloadBytes: mib, StateBytes: 1_000_000_000,
		CPUMs: 30_000, MaxCPUMs: 300_000, Concurrency: 50_000, CreatesPerSecond: 300, CreatesPerSecondWorkflow: 100, Queued: 2_000_000,
		RetentionDays: 7, MaxRetentionDays: 30},
}

// MaxRetentionDays is the longest retention any plan allows: a Workflow's
// retention above it is refused whatever its connection.
const MaxRetentionDays = 30

// Of returns the plan's limits; "" is Default. ok is false for an unknown
// plan.
func Of(plan string) (Limits, bool) {
	if plan == "" {
		plan = Default
	}
	l, ok := table[plan]
	return l, ok
}

// Check says what is wrong with a connection's own limits o on the plan: a
// path under limits and a message, or "" when they are within the plan's
// bounds.
func Check(o edgeflow.PlanLimits, l Limits) (path, msg string) {
	switch {
	case o.Steps < 0 || o.Steps > l.MaxSteps:
		return "/limits/steps", fmt.Sprintf("steps must be from 1 to %d on the %s plan", l.MaxSteps, l.Plan)
	case o.CPUMs < 0 || o.CPUMs > l.MaxCPUMs:
		return "/limits/cpuMs", fmt.Sprintf("cpuMs must be from 1 to %d on the %s plan", l.MaxCPUMs, l.Plan)
	}
	return "", ""
}

// Apply returns l with o's figures where o sets them.
func Apply(o *edgeflow.PlanLimits, l Limits) Limits {
	if o == nil {
		return l
	}
	if o.Steps > 0 {
		l.Steps = o.Steps
	}
	if o.CPUMs > 0 {
		l.CPUMs = o.CPUMs
	}
	return l
}

// OfConnection returns the limits of c's plan with c's own limits applied.
func OfConnection(c *edgeflow.Connection) Limits {
	l, ok := Of(c.Plan)
	if !ok {
		l, _ = Of(Default)
	}
	return Apply(c.Limits, l)
}

// PricingCited is the source of the per-step pricing.
var PricingCited = Cited{
	Date: "2026-07-07",
	Source: "Cloudflare Workflows pricing (developers.cloudflare.com/workflows/reference/pricing/), per-step billing " +
		"announced in the changelog of 2026-07-07: sleeps and waits are billed steps",
}

// Pricing of steps.
const (
	// PaidIncludedPerMonth steps a month are included in the Paid plan.
	PaidIncludedPerMonth = 500_000
	// PaidUSDPer100k is the price of 100,000 steps past those.
	PaidUSDPer100k = 0.80
	// FreePerDay steps a day are what the Free plan runs.
	FreePerDay = 3_000
	// DaysPerMonth is the month the Free allowance is counted over.
	DaysPerMonth = 30
)

// Estimate is a month of runsPerMonth runs of billedPerRun steps each on the
// plan (Default for ""): all the steps, those the plan includes, those past
// them (on Free: the steps it would not run, for Free cannot buy more) and
// their price, rounded to the cent (0 on Free).
func Estimate(plan string, billedPerRun, runsPerMonth int64) edgeflow.MonthlyCost {
	steps := billedPerRun * runsPerMonth
	if billedPerRun != 0 && steps/billedPerRun != runsPerMonth {
		steps = math.MaxInt64
	}
	m := edgeflow.MonthlyCost{Steps: steps, Included: PaidIncludedPerMonth}
	if plan == Free {
		m.Included = FreePerDay * DaysPerMonth
	}
	m.Billable = max(0, steps-m.Included)
	if plan != Free {
		m.USD = math.Round(float64(m.Billable)*PaidUSDPer100k/100_000*100) / 100
	}
	return m
}
