package api

import (
	"net/http"
	"strconv"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// handleEstimate answers what a month of runs of a version costs under
// per-step pricing (deploysvc.Service.Estimate).
func (s *Server) handleEstimate(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	req := deploysvc.EstimateRequest{VersionID: q.Get("versionId"), ConnectionID: q.Get("connectionId")}
	if v := q.Get("runsPerMonth"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return edgeflow.Invalid("?runsPerMonth", "runsPerMonth must be a whole number from 0 to 1,000,000,000,000")
		}
		req.RunsPerMonth = n
	} else {
		return edgeflow.Invalid("?runsPerMonth", "runsPerMonth is required: the runs a month to price")
	}
	est, err := dep.Estimate(r.Context(), tw, req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, est)
	return nil
}
