package deploy

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Tenant is whom a call acts for: the caller's organization and project (an API key's, or a session's active
// ones). The service names them in every read it makes for the call, so that a call cannot reach another
// tenant's records by id.
type Tenant struct {
	OrganizationID string
	ProjectID      string
}

// TenantWorkflow is a workflow the service read for a tenant (Service.ReadWorkflow): the one read of the
// workflow a call on it makes. Trigger and Restart take it instead of reading the workflow again; only
// ReadWorkflow makes one, so holding one means the workflow is the tenant's.
type TenantWorkflow struct {
	tenant   Tenant
	workflow edgeflow.Workflow
}

// ReadWorkflow reads the tenant's workflow id: the tenancy read of a call on a workflow, made once, before the
// call's own input is checked (so another tenant's workflow is not_found whatever the body). ENotFound outside
// the tenant's project.
func (s *Service) ReadWorkflow(ctx context.Context, t Tenant, id string) (*TenantWorkflow, error) {
	w, err := s.store.FindWorkflowByID(ctx, t.ProjectID, id)
	if err != nil {
		return nil, err
	}
	return &TenantWorkflow{tenant: t, workflow: *w}, nil
}

// Tenant is the tenant the workflow was read for.
func (tw *TenantWorkflow) Tenant() Tenant { return tw.tenant }

// Workflow is the workflow as read (a copy: changing it changes nothing stored).
func (tw *TenantWorkflow) Workflow() edgeflow.Workflow { return tw.workflow }
