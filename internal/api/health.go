package api

import (
	"context"
	"net/http"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// handleHealth answers 200 while the process is up.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// handleReady answers 200 when the database answers, 503 otherwise.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.Store.Ping(ctx); err != nil {
		s.Logger.Warn("readyz: database unreachable", "requestId", requestIDFrom(r), "error", err.Error())
		return edgeflow.Errorf(codeUnavailable, "database unreachable")
	}
	body := map[string]any{"status": "ok", "database": "ok"}
	if s.LocalEdge != nil {
		body["localEdge"] = "running"
	} else {
		body["localEdge"] = "off"
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}
