package planlimits_test

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/planlimits"
)

// TestEstimate: the monthly figures against ones computed by hand from the
// July 2026 pricing (500,000 steps included on Paid, then $0.80 per
// 100,000; 3,000 a day on Free, counted over 30 days).
func TestEstimate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		plan         string
		perRun, runs int64
		want         edgeflow.MonthlyCost
	}{
		// 5 × 1,000,000 = 5,000,000; 4,500,000 past 500,000 = 45 × $0.80.
		{"paid", 5, 1_000_000, edgeflow.MonthlyCost{Steps: 5_000_000, Included: 500_000, Billable: 4_500_000, USD: 36}},
		// within the included steps: nothing to pay.
		{"", 3, 100_000, edgeflow.MonthlyCost{Steps: 300_000, Included: 500_000, Billable: 0, USD: 0}},
		// 7 × 123,457 = 864,199; 364,199 × $0.000008 = $2.913592.
		{"paid", 7, 123_457, edgeflow.MonthlyCost{Steps: 864_199, Included: 500_000, Billable: 364_199, USD: 2.91}},
		// Free: 3,000 × 30 = 90,000 run; 4 × 30,000 = 120,000 is 30,000 past them, which Free does not sell.
		{"free", 4, 30_000, edgeflow.MonthlyCost{Steps: 120_000, Included: 90_000, Billable: 30_000, USD: 0}},
	} {
		if got := planlimits.Estimate(c.plan, c.perRun, c.runs); got != c.want {
			t.Errorf("Estimate(%q, %d, %d) = %+v; want %+v", c.plan, c.perRun, c.runs, got, c.want)
		}
	}
}

// TestLimitsTable: the figures of both plans as the cited source gives
// them, and the overrides' bounds per plan.
func TestLimitsTable(t *testing.T) {
	t.Parallel()
	free, ok := planlimits.Of("free")
	paid, ok2 := planlimits.Of("")
	if !ok || !ok2 || paid.Plan != "paid" {
		t.Fatalf("Of = %v %v %v", ok, ok2, paid.Plan)
	}
	if free.Steps != 1024 || free.CPUMs != 10 || free.Concurrency != 100 || free.RetentionDays != 3 || free.StateBytes != 100_000_000 {
		t.Errorf("free = %+v", free)
	}
	if paid.Steps != 10_000 || paid.MaxSteps != 25_000 || paid.CPUMs != 30_000 || paid.MaxCPUMs != 300_000 ||
		paid.Concurrency != 50_000 || paid.CreatesPerSecond != 300 || paid.CreatesPerSecondWorkflow != 100 || paid.MaxRetentionDays != 30 {
		t.Errorf("paid = %+v", paid)
	}
	if _, ok := planlimits.Of("enterprise"); ok {
		t.Error("an unknown plan was found")
	}
	if p, _ := planlimits.Check(edgeflow.PlanLimits{Steps: 2000}, free); p != "/limits/steps" {
		t.Errorf("2,000 steps on free: %q", p)
	}
	if p, _ := planlimits.Check(edgeflow.PlanLimits{Steps: 25_000, CPUMs: 300_000}, paid); p != "" {
		t.Errorf("25,000 steps and 5 min on paid: %q", p)
	}
	if p, _ := planlimits.Check(edgeflow.PlanLimits{CPUMs: 300_001}, paid); p != "/limits/cpuMs" {
		t.Errorf("cpu over 5 min: %q", p)
	}
	if got := planlimits.OfConnection(&edgeflow.Connection{Limits: &edgeflow.PlanLimits{Steps: 20_000}}); got.Steps != 20_000 || got.CPUMs != 30_000 {
		t.Errorf("OfConnection = %+v", got)
	}
	if got := planlimits.OfConnection(&edgeflow.Connection{Plan: "free"}); got.Steps != 1024 {
		t.Errorf("OfConnection(free) = %+v", got)
	}
	if planlimits.LimitsCited.Date == "" || planlimits.LimitsCited.Source == "" || planlimits.PricingCited.Source == "" {
		t.Error("a table without its source")
	}
}
