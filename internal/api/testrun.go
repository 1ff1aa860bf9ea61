package api

import (
	"encoding/json"
	"net/http"
	"time"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
)

type versionTestRequest struct {
	Params json.RawMessage            `json:"params"`
	Mocks  map[string]json.RawMessage `json:"mocks"`
	// TimeoutSeconds bounds the run (default 120, at most 600).
	TimeoutSeconds *int `json:"timeoutSeconds"`
}

// handleVersionTest runs a version once on the local edge under a
// temporary name and answers how it went (200 also when the run errored);
// nothing of it is kept (internal/deploy testrun.go).
func (s *Server) handleVersionTest(w http.ResponseWriter, r *http.Request) error {
	var req versionTestRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	if req.TimeoutSeconds != nil {
		p.check(*req.TimeoutSeconds >= 1 && time.Duration(*req.TimeoutSeconds)*time.Second <= deploysvc.MaxTestTimeout,
			"/timeoutSeconds", "timeoutSeconds must be from 1 to 600")
	}
	if err := p.err(); err != nil {
		return err
	}
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	tr := deploysvc.TestRequest{VersionID: r.PathValue("versionId"), Params: req.Params, Mocks: req.Mocks}
	if req.TimeoutSeconds != nil {
		tr.Timeout = time.Duration(*req.TimeoutSeconds) * time.Second
	}
	res, err := dep.Test(r.Context(), tw, tr)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
