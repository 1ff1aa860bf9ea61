package deploy

import (
	"context"
	"encoding/json"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/planlimits"
)

// MaxRunsPerMonth bounds an estimate's runsPerMonth.
const MaxRunsPerMonth = 1_000_000_000_000

// EstimateRequest asks what a month of runs of a version costs: VersionID
// "" is the workflow's current version, ConnectionID "" the Paid plan.
type EstimateRequest struct {
	VersionID    string
	ConnectionID string
	RunsPerMonth int64
}

// Estimate counts the steps a run of the version takes (ir.StepBoundsOf)
// and prices runsPerMonth of them on the connection's plan
// (planlimits.Estimate): the month is priced on the most billed steps of a
// run, or the fewest when a loop has no bound (a warning says so). A
// workflow with a cron trigger and flow control counts its admission gate,
// one billed step of a cron start, in the most (withAdmissionStep).
//
// Errors: runsPerMonth outside 0..MaxRunsPerMonth → validation_failed; a
// function, or no version → conflict; unknown version or connection →
// not_found.
func (s *Service) Estimate(ctx context.Context, tw *TenantWorkflow, req EstimateRequest) (*edgeflow.Estimate, error) {
	w, t := tw.Workflow(), tw.Tenant()
	if req.RunsPerMonth < 0 || req.RunsPerMonth > MaxRunsPerMonth {
		return nil, edgeflow.Invalid("?runsPerMonth", "runsPerMonth must be a whole number from 0 to 1,000,000,000,000")
	}
	if w.Kind == edgeflow.KindScript {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "a function takes no Workflow steps: it has no step estimate")
	}
	plan := planlimits.Default
	if req.ConnectionID != "" {
		c, err := s.connection(ctx, t.OrganizationID, t.ProjectID, req.ConnectionID)
		if err != nil {
			return nil, err
		}
		plan = planlimits.OfConnection(c).Plan
	}
	vid := req.VersionID
	if vid == "" {
		vid = w.CurrentVersionID
	}
	if vid == "" {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "the workflow has no version to estimate; submit one first")
	}
	v, err := s.store.FindVersionByID(ctx, w.ID, vid)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, &edgeflow.Error{Code: edgeflow.ENotFound, Message: "version not found",
				Details: []edgeflow.FieldError{{Path: "?versionId", Message: "no such version of this workflow"}}}
		}
		return nil, err
	}
	var a ir.ArtifactIR
	if err := json.Unmarshal(v.IR, &a); err != nil {
		return nil, edgeflow.Errorf(edgeflow.EInternal, "version %d: the stored IR cannot be read", v.Number)
	}
	b := withAdmissionStep(ir.StepBoundsOf(&a), &a, &w)
	perRun := b.Billed.Min
	if b.Billed.Bounded {
		perRun = b.Billed.Max
	}
	m := planlimits.Estimate(plan, perRun, req.RunsPerMonth)
	warnings := StepWarnings(&a)
	if warnings == nil {
		warnings = []edgeflow.Warning{}
	}
	return &edgeflow.Estimate{
		VersionID: v.ID, Plan: plan, RunsPerMonth: req.RunsPerMonth,
		StepsPerRun:       stepRange(b.Work),
		BilledStepsPerRun: stepRange(b.Billed),
		Monthly:           m,
		Pricing:           edgeflow.PricingSource{Date: planlimits.PricingCited.Date, Source: planlimits.PricingCited.Source},
		Warnings:          warnings,
	}, nil
}

func stepRange(r ir.StepRange) edgeflow.StepRange {
	out := edgeflow.StepRange{Min: r.Min}
	if r.Bounded {
		out.Max = &r.Max
	}
	return out
}
