package api

import (
	"net/http"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// envVarView is a global variable as the API shows it: secret values masked,
// its scope named.
type envVarView struct {
	edgeflow.EnvVar
	Scope string `json:"scope"`
}

func viewEnvVar(v edgeflow.EnvVar) envVarView {
	if v.IsSecret {
		v.Value = Masked
		v.Values = maskedValues(v.Values)
	}
	return envVarView{EnvVar: v, Scope: recordScope(v.ProjectID)}
}

// handleEnvVarList lists the organization's variables and those of the
// selected project, by name.
func (s *Server) handleEnvVarList(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	orgID, err := p.Organization()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListEnvVars(r.Context(), orgID, p.ProjectID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, viewEnvVar))
	return nil
}

// maskNotAValue refuses a secret whose value would be the mask: a client
// could not tell it from a secret shown masked, and sending it back keeps
// the stored value, so it could never be set on purpose.
const maskNotAValue = `value must not be "***", the mask the API shows in place of a secret's value; send the secret itself`

type envVarCreateRequest struct {
	Name  string  `json:"name"`
	Value *string `json:"value"`
	// Values are the variable's values per environment; without value, the
	// environments not named lack the variable (onlyEnvironments).
	Values   map[string]string `json:"values"`
	IsSecret *bool             `json:"isSecret"`
	Scope    string            `json:"scope"`
}

// handleEnvVarCreate creates a variable in the organization (scope
// "organization", the default) or in the selected project (scope
// "project"). A name taken in the same scope is 409; a secret whose value
// is the mask "***" is 422.
func (s *Server) handleEnvVarCreate(w http.ResponseWriter, r *http.Request) error {
	var req envVarCreateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	p.field("/name", edgeflow.EnvVarNameProblem(req.Name))
	p.check(req.Value != nil || len(req.Values) > 0, "/value", "value is required (or values, per environment)")
	checkEnvValues(&p, "/values", req.Values)
	for env, val := range req.Values {
		p.check(req.IsSecret == nil || !*req.IsSecret || val != Masked, "/values/"+escapePointer(env), maskNotAValue)
	}
	p.check(req.Value == nil || len(*req.Value) <= maxEnvValue, "/value", "value must be at most 32 KiB")
	p.check(req.IsSecret != nil, "/isSecret", "isSecret is required")
	p.check(req.Scope == "" || req.Scope == ScopeOrganization || req.Scope == ScopeProject, "/scope", `scope must be "organization" or "project"`)
	p.check(req.Value == nil || req.IsSecret == nil || !*req.IsSecret || *req.Value != Masked, "/value", maskNotAValue)
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	orgID, err := pr.Organization()
	if err != nil {
		return err
	}
	v := &edgeflow.EnvVar{ID: edgeflow.NewID(edgeflow.PrefixEnvVar), OrganizationID: orgID, Name: req.Name,
		IsSecret: *req.IsSecret, Values: req.Values, OnlyEnvironments: req.Value == nil}
	if req.Value != nil {
		v.Value = *req.Value
	}
	if len(v.Values) == 0 {
		v.Values = nil
	}
	if v.ProjectID, err = pr.ownerForCreate("variable", req.Scope); err != nil {
		return err
	}
	if v.IsSecret {
		v.Value = s.Sealer.SealString(v.Value, secret.EnvVarAD(orgID, v.ID))
		v.Values, _ = sealEnvValues(v.Values, nil, false, func(plain string) string {
			return s.Sealer.SealString(plain, secret.EnvVarAD(orgID, v.ID))
		})
	}
	if err := s.Store.CreateEnvVar(r.Context(), v); err != nil {
		if edgeflow.IsConflict(err) {
			return edgeflow.Errorf(edgeflow.EConflict, "a variable named %s already exists in this %s", v.Name, viewEnvVar(*v).Scope)
		}
		return err
	}
	writeJSON(w, http.StatusCreated, viewEnvVar(*v))
	return nil
}

// findEnvVar returns a variable the caller sees (the organization's, or the
// selected project's) and may change: an organization-scope one is
// forbidden to an API key (docs/decisions.md 80).
func (s *Server) findEnvVar(r *http.Request, id string) (*edgeflow.EnvVar, error) {
	p := PrincipalFrom(r)
	orgID, err := p.Organization()
	if err != nil {
		return nil, err
	}
	v, err := s.Store.FindEnvVarByID(r.Context(), orgID, id)
	if err != nil {
		return nil, err
	}
	if !p.sees(v.ProjectID) {
		return nil, edgeflow.NotFound("environment variable")
	}
	if err := p.canChange("variable", v.ProjectID); err != nil {
		return nil, err
	}
	return v, nil
}

type envVarUpdateRequest struct {
	Name     *string `json:"name"`
	Value    *string `json:"value"`
	IsSecret *bool   `json:"isSecret"`
	// Values replaces the values per environment ({} clears them); for a
	// secret, a value sent as the mask keeps that environment's.
	Values *map[string]string `json:"values"`
	// OnlyEnvironments: the environments without a value lack the
	// variable.
	OnlyEnvironments *bool `json:"onlyEnvironments"`
}

// handleEnvVarUpdate changes name, value or isSecret. Turning a secret into
// a plain variable needs the new value: secrets are never revealed. A
// secret's value sent as the mask "***" keeps the stored value; a secret
// cannot be set to "***" otherwise (a plain "***" turned secret: 422).
func (s *Server) handleEnvVarUpdate(w http.ResponseWriter, r *http.Request) error {
	var req envVarUpdateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	v, err := s.findEnvVar(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	var p problems
	if req.Name != nil {
		p.field("/name", edgeflow.EnvVarNameProblem(*req.Name))
	}
	p.check(req.Value == nil || len(*req.Value) <= maxEnvValue, "/value", "value must be at most 32 KiB")
	if req.Values != nil {
		checkEnvValues(&p, "/values", *req.Values)
	}
	if err := p.err(); err != nil {
		return err
	}
	wasSecret, oldValues := v.IsSecret, v.Values
	plain, err := s.Sealer.OpenEnvVar(v)
	if err != nil {
		return err
	}
	if req.Value != nil && *req.Value == Masked && v.IsSecret {
		req.Value = nil // the mask the API shows for a secret: keep the stored value
	}
	if req.Value != nil {
		plain = *req.Value
	}
	if req.IsSecret != nil && *req.IsSecret != v.IsSecret && !*req.IsSecret && req.Value == nil {
		return edgeflow.Invalid("/value", "value is required to turn a secret into a plain variable")
	}
	becomesSecret := req.IsSecret != nil && *req.IsSecret && !v.IsSecret
	if plain == Masked && (v.IsSecret || becomesSecret) && (req.Value != nil || becomesSecret) {
		// a value set now, or a plain "***" turned secret: the secret would be the mask itself
		return edgeflow.Invalid("/value", maskNotAValue)
	}
	if req.IsSecret != nil {
		v.IsSecret = *req.IsSecret
	}
	if req.Name != nil {
		v.Name = strings.TrimSpace(*req.Name)
	}
	v.Value = plain
	switch {
	case req.OnlyEnvironments != nil:
		v.OnlyEnvironments = *req.OnlyEnvironments
	case req.Value != nil:
		v.OnlyEnvironments = false // a default value sent: every environment has the variable now
	}
	if req.Values != nil {
		v.Values = *req.Values
	} else if wasSecret && !v.IsSecret && len(v.Values) > 0 {
		return edgeflow.Invalid("/values", "values are required to turn a secret into a plain variable")
	}
	if v.IsSecret {
		v.Value = s.Sealer.SealString(plain, secret.EnvVarAD(v.OrganizationID, v.ID))
		if req.Values != nil || !wasSecret {
			var bad string
			if v.Values, bad = sealEnvValues(v.Values, oldValues, wasSecret, func(plain string) string {
				return s.Sealer.SealString(plain, secret.EnvVarAD(v.OrganizationID, v.ID))
			}); bad != "" {
				return edgeflow.Invalid("/values/"+escapePointer(bad), `"***" keeps a stored secret, but this variable has none for `+bad+"; send the value")
			}
		}
	}
	if len(v.Values) == 0 {
		v.Values = nil
	}
	if err := s.Store.UpdateEnvVar(r.Context(), v); err != nil {
		if edgeflow.IsConflict(err) {
			return edgeflow.Errorf(edgeflow.EConflict, "a variable named %s already exists in this %s", v.Name, viewEnvVar(*v).Scope)
		}
		return err
	}
	writeJSON(w, http.StatusOK, viewEnvVar(*v))
	return nil
}

// handleEnvVarDelete deletes a variable.
func (s *Server) handleEnvVarDelete(w http.ResponseWriter, r *http.Request) error {
	v, err := s.findEnvVar(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	if err := s.Store.DeleteEnvVar(r.Context(), v.OrganizationID, v.ID); err != nil {
		return err
	}
	writeNoContent(w)
	return nil
}
