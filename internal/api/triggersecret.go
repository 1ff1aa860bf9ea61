package api

import (
	"net/http"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// handleTriggerSecret answers the signing secret of the workflow's public
// trigger on ?connectionId= (deployConfig.publicTrigger, docs/deploy.md):
// the worker URL, the secret and how to sign. Scope deploy: the secret lets
// anyone who holds it start runs.
func (s *Server) handleTriggerSecret(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	connectionID := r.URL.Query().Get("connectionId")
	if strings.TrimSpace(connectionID) == "" {
		return edgeflow.Invalid("?connectionId", "connectionId is required")
	}
	secret, err := dep.FindTriggerSecret(r.Context(), tw, connectionID)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, secret)
	return nil
}
