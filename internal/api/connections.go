package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/planlimits"
	"github.com/edgeflow/edgeflow/internal/secret"
)

func viewConnection(c edgeflow.Connection) edgeflow.ConnectionView {
	account := RedactAccountID(c.AccountID)
	creds := map[string]string{}
	if c.Provider == edgeflow.ProviderCloudflare {
		creds["accountId"] = account
		creds["apiToken"] = Masked
	}
	return edgeflow.ConnectionView{ID: c.ID, OrganizationID: c.OrganizationID, ProjectID: c.ProjectID, Scope: recordScope(c.ProjectID),
		Provider: c.Provider, Name: c.Name, Plan: planlimits.OfConnection(&c).Plan, Limits: c.Limits,
		AccountID: account, Credentials: creds, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// accountIDShown is how many trailing characters of an account id answers
// show.
const accountIDShown = 4

// RedactAccountID is an account id as connection answers show it: "…" and
// its last four characters, enough to tell accounts apart without handing
// out the id (docs/api.md: credential values are redacted). An id of four
// characters or fewer is "…" alone; "" stays "", and so does the
// placeholder "local" of a local connection whose organization's account is
// not provisioned yet, which is not an account id.
func RedactAccountID(id string) string {
	if id == "" || id == LocalAccountID {
		return id
	}
	r := []rune(id)
	if len(r) <= accountIDShown {
		return "…"
	}
	return "…" + string(r[len(r)-accountIDShown:])
}

// credentialsInput is the credentials object of a request.
type credentialsInput struct {
	APIToken  *string `json:"apiToken"`
	AccountID *string `json:"accountId"`
}

type connectionCreateRequest struct {
	Provider    string            `json:"provider"`
	Credentials *credentialsInput `json:"credentials"`
	Name        string            `json:"name"`
	// Scope is "organization" or "project" (docs/decisions.md 80); the
	// default is the caller's: a session's connections are
	// organization-wide, a key's its project's.
	Scope string `json:"scope"`
	// Plan is the account's Workflows plan, "free" or "paid" (the default);
	// Limits its own limits where they differ from the plan's.
	Plan   string               `json:"plan"`
	Limits *edgeflow.PlanLimits `json:"limits"`
}

// checkPlan checks a connection's plan and limits: 422 at /plan or
// /limits/… when the plan is unknown or a limit is outside its bounds.
func checkPlan(p *problems, plan string, limits *edgeflow.PlanLimits) {
	l, ok := planlimits.Of(plan)
	if !ok {
		p.add("/plan", `plan must be "free" or "paid"`)
		return
	}
	if limits != nil {
		if path, msg := planlimits.Check(*limits, l); path != "" {
			p.add(path, msg)
		}
	}
}

// noLimits is nil for limits that set nothing.
func noLimits(l *edgeflow.PlanLimits) *edgeflow.PlanLimits {
	if l == nil || *l == (edgeflow.PlanLimits{}) {
		return nil
	}
	return l
}

// LocalAccountID is the account id stored for a local connection until its
// organization's local edge account is sealed in (see
// internal/deploy/localaccount.go).
const LocalAccountID = "local"

// handleConnectionList lists the organization-wide connections and the
// selected project's, redacted.
func (s *Server) handleConnectionList(w http.ResponseWriter, r *http.Request) error {
	pr := PrincipalFrom(r)
	orgID, err := pr.Organization()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListConnections(r.Context(), orgID, pr.ProjectID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, viewConnection))
	return nil
}

// checkCredentials validates credentials for provider and returns them.
// cloudflare needs apiToken and accountId; local takes none (the embedded
// local edge's own token and account are used at deploy time).
func checkConnectionCredentials(p *problems, provider string, in *credentialsInput, base secret.Credentials) secret.Credentials {
	creds := base
	if in != nil {
		if in.APIToken != nil {
			creds.APIToken = strings.TrimSpace(*in.APIToken)
		}
		if in.AccountID != nil {
			creds.AccountID = strings.TrimSpace(*in.AccountID)
		}
	}
	switch provider {
	case edgeflow.ProviderCloudflare:
		p.check(creds.APIToken != "", "/credentials/apiToken", "apiToken is required for provider cloudflare")
		p.check(len(creds.APIToken) <= 1000, "/credentials/apiToken", "apiToken is too long")
		p.check(creds.AccountID != "", "/credentials/accountId", "accountId is required for provider cloudflare")
		checkCloudflareCredentialFormat(p, in)
	case edgeflow.ProviderLocal:
		// The organization's local edge account is sealed in by the deploy
		// service (internal/deploy/localaccount.go), never given by a user.
		p.check(in == nil || (in.APIToken == nil && in.AccountID == nil), "/credentials", "provider local takes no credentials")
		return base
	}
	return creds
}

// handleConnectionCreate stores a connection with its credentials sealed.
func (s *Server) handleConnectionCreate(w http.ResponseWriter, r *http.Request) error {
	var req connectionCreateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	req.Name = strings.TrimSpace(req.Name)
	var p problems
	switch req.Provider {
	case "":
		p.add("/provider", `provider is required: "cloudflare" or "local"`)
	case edgeflow.ProviderCloudflare:
		p.check(req.Credentials != nil, "/credentials", "credentials are required for provider cloudflare")
	case edgeflow.ProviderLocal:
	default:
		p.add("/provider", `provider must be "cloudflare" or "local"`)
	}
	p.field("/name", edgeflow.NameLengthProblem("name", req.Name))
	p.check(req.Scope == "" || req.Scope == ScopeOrganization || req.Scope == ScopeProject, "/scope", `scope must be "organization" or "project"`)
	p.field("/name", edgeflow.NameCharProblem(req.Name))
	checkPlan(&p, req.Plan, req.Limits)
	var creds secret.Credentials
	if req.Credentials != nil || req.Provider == edgeflow.ProviderLocal {
		creds = checkConnectionCredentials(&p, req.Provider, req.Credentials, secret.Credentials{})
	}
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	orgID, err := pr.Organization()
	if err != nil {
		return err
	}
	projectID, err := pr.ownerForCreate("connection", req.Scope)
	if err != nil {
		return err
	}
	c := &edgeflow.Connection{ID: edgeflow.NewID(edgeflow.PrefixConnection), OrganizationID: orgID, ProjectID: projectID,
		Provider: req.Provider, Name: req.Name, AccountID: creds.AccountID, Plan: req.Plan, Limits: noLimits(req.Limits)}
	if c.Provider == edgeflow.ProviderLocal {
		c.AccountID = LocalAccountID
		if c.Name == "" {
			c.Name = "Local edge"
		}
	} else if c.Name == "" {
		// The name is shown in full, so it names the account as answers do.
		c.Name = "Cloudflare " + RedactAccountID(c.AccountID)
	}
	if err := s.Sealer.SealCredentials(c, creds); err != nil {
		return err
	}
	if err := s.Store.CreateConnection(r.Context(), c); err != nil {
		return err
	}
	if c.Provider == edgeflow.ProviderLocal && s.LocalEdge != nil && s.Deployer != nil {
		// The organization's own local edge account (shared by its local
		// connections). When the edge cannot answer now, the account is
		// provisioned on the connection's first use instead.
		if err := s.Deployer.ProvisionLocalAccount(r.Context(), c); err != nil {
			s.Logger.Warn("local edge account not provisioned yet", "connection", c.ID, "err", err)
		}
	}
	writeJSON(w, http.StatusCreated, viewConnection(*c))
	return nil
}

type connectionUpdateRequest struct {
	Name        *string           `json:"name"`
	Credentials *credentialsInput `json:"credentials"`
	// Plan and Limits replace the stored ones; limits {} clears them.
	Plan   *string              `json:"plan"`
	Limits *edgeflow.PlanLimits `json:"limits"`
}

// handleConnectionUpdate changes the name, credentials, plan or limits (the
// fields sent replace the stored ones; the others are kept).
func (s *Server) handleConnectionUpdate(w http.ResponseWriter, r *http.Request) error {
	var req connectionUpdateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	c, err := s.findConnectionToChange(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	var p problems
	if req.Name != nil {
		*req.Name = strings.TrimSpace(*req.Name)
		p.field("/name", edgeflow.NameProblem(*req.Name))
	}
	if req.Credentials != nil {
		// Shape check before the lookup: a cloudflare update must not blank a field.
		if req.Credentials.APIToken != nil {
			p.check(strings.TrimSpace(*req.Credentials.APIToken) != "", "/credentials/apiToken", "apiToken must not be empty")
		}
		if req.Credentials.AccountID != nil {
			p.check(strings.TrimSpace(*req.Credentials.AccountID) != "", "/credentials/accountId", "accountId must not be empty")
		}
	}
	if req.Plan != nil || req.Limits != nil {
		plan, limits := c.Plan, c.Limits
		if req.Plan != nil {
			plan = *req.Plan
		}
		if req.Limits != nil {
			limits = req.Limits
		}
		checkPlan(&p, plan, limits)
		c.Plan, c.Limits = plan, noLimits(limits)
	}
	if err := p.err(); err != nil {
		return err
	}
	if req.Name != nil {
		c.Name = *req.Name
	}
	if req.Credentials != nil {
		old, err := s.Sealer.OpenCredentials(c)
		if err != nil {
			return err
		}
		creds := checkConnectionCredentials(&p, c.Provider, req.Credentials, old)
		if err := p.err(); err != nil {
			return err
		}
		if c.Provider == edgeflow.ProviderCloudflare {
			c.AccountID = creds.AccountID
		}
		if err := s.Sealer.SealCredentials(c, creds); err != nil {
			return err
		}
	}
	if err := s.Store.UpdateConnection(r.Context(), c); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewConnection(*c))
	return nil
}

// findConnectionToChange returns a connection the caller sees and may
// change: not_found for another organization's or project's, forbidden for
// an organization-wide one and an API key.
func (s *Server) findConnectionToChange(r *http.Request, id string) (*edgeflow.Connection, error) {
	pr := PrincipalFrom(r)
	orgID, err := pr.Organization()
	if err != nil {
		return nil, err
	}
	c, err := s.Store.FindConnectionByID(r.Context(), orgID, id)
	if err != nil {
		return nil, err
	}
	if !pr.sees(c.ProjectID) {
		return nil, edgeflow.NotFound("connection")
	}
	if err := pr.canChange("connection", c.ProjectID); err != nil {
		return nil, err
	}
	return c, nil
}

// handleConnectionDelete deletes a connection (409 while a deployment uses it).
func (s *Server) handleConnectionDelete(w http.ResponseWriter, r *http.Request) error {
	c, err := s.findConnectionToChange(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	if err := s.Store.DeleteConnection(r.Context(), c.OrganizationID, c.ID); err != nil {
		var e *edgeflow.Error
		if errors.As(err, &e) && e.Code == edgeflow.EConflict {
			return s.connectionInUse(r.Context(), PrincipalFrom(r), c)
		}
		return err
	}
	writeNoContent(w)
	return nil
}

// connectionUse names one active deployment that keeps a connection from
// being deleted.
type connectionUse struct {
	Path         string `json:"path"`
	Message      string `json:"message"`
	DeploymentID string `json:"deploymentId"`
	WorkflowID   string `json:"workflowId"`
	WorkflowName string `json:"workflowName"`
	ProjectID    string `json:"projectId"`
}

// connectionInUse is the refusal of deleting c while active deployments use
// it, naming each of them (docs/decisions.md 281).
// A caller bound to one project is told only the names of its project's
// workflows.
func (s *Server) connectionInUse(ctx context.Context, p *Principal, c *edgeflow.Connection) error {
	all, err := s.Store.ListActiveDeployments(ctx)
	if err != nil {
		return err
	}
	uses := []connectionUse{}
	for _, d := range all {
		if d.ConnectionID != c.ID {
			continue
		}
		if !p.OrganizationWide() && d.ProjectID != p.ProjectID {
			uses = append(uses, connectionUse{Path: "", Message: "a workflow of another project is deployed on it",
				DeploymentID: d.ID, ProjectID: d.ProjectID})
			continue
		}
		name := d.WorkflowName
		if wf, err := s.Store.FindWorkflowByID(ctx, d.ProjectID, d.WorkflowID); err == nil {
			name = wf.Name
		} else if !edgeflow.IsNotFound(err) {
			return err
		}
		uses = append(uses, connectionUse{Path: "", Message: fmt.Sprintf("%q is deployed on it (deployment %s)", name, d.ID),
			DeploymentID: d.ID, WorkflowID: d.WorkflowID, WorkflowName: name, ProjectID: d.ProjectID})
	}
	msg := "the connection is used by an active deployment; take it down first"
	if len(uses) > 1 {
		msg = fmt.Sprintf("the connection is used by %d active deployments; take them down first", len(uses))
	}
	return &edgeflow.Error{Code: edgeflow.EConflict, Message: msg, Details: uses}
}
