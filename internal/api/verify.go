package api

import (
	"net/http"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

type verifyTokenRequest struct {
	Provider    string            `json:"provider"`
	Credentials map[string]string `json:"credentials"`
}

// handleVerifyToken checks credentials with the provider without storing
// them: {valid, accounts: [{id, name}]}.
func (s *Server) handleVerifyToken(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	if _, err := PrincipalFrom(r).Organization(); err != nil {
		return err
	}
	var req verifyTokenRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	switch req.Provider {
	case edgeflow.ProviderCloudflare, edgeflow.ProviderLocal:
	default:
		return edgeflow.Invalid("/provider", "provider must be cloudflare or local")
	}
	for k := range req.Credentials {
		if k != "apiToken" && k != "accountId" {
			return edgeflow.Invalid("/credentials/"+k, "unknown credential (apiToken and accountId are known)")
		}
	}
	res, err := dep.VerifyToken(r.Context(), req.Provider, req.Credentials)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
