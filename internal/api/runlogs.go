package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// runLogsPoll is how often a streamed run's logs are read again; a stream
// ends after the stream lifetime even while the run goes on (the client
// opens it again; streamlimit.go).
const runLogsPoll = time.Second

// runLogsEnd is the data of the run log stream's end event: the run's
// status and whether it is final, or, on a connection whose logs the
// server cannot read, available false and the reason.
type runLogsEnd struct {
	Status    string  `json:"status"`
	Final     *bool   `json:"final,omitempty"`
	Available *bool   `json:"available,omitempty"`
	Reason    *string `json:"reason,omitempty"`
}

// handleRunLogs answers the run's console lines and exceptions
// (docs/runs.md, "Logs"): JSON, or with Accept: text/event-stream one `log`
// event per line while the run is active, then `end` with its status.
func (s *Server) handleRunLogs(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	workflowID, runID := r.PathValue("workflowId"), r.PathValue("runId")
	view, err := dep.RunLogs(r.Context(), projectID, workflowID, runID)
	if err != nil {
		return err
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		writeJSON(w, http.StatusOK, view)
		return nil
	}
	sse := newSSEWriter(w)
	// A line is its time (to the millisecond), level and message; the same
	// line twice is sent twice.
	type lineKey struct {
		ms             int64
		level, message string
	}
	sent := map[lineKey]int{}
	emit := func(lines []edgeflow.LogLine) {
		seen := map[lineKey]int{}
		for _, l := range lines {
			k := lineKey{l.Timestamp.UnixMilli(), l.Level, l.Message}
			seen[k]++
			if seen[k] > sent[k] {
				sent[k]++
				sse.event("log", l)
			}
		}
	}
	emit(view.Lines)
	if !view.Available {
		unavailable := false
		sse.event("end", runLogsEnd{Status: view.Status, Available: &unavailable, Reason: &view.Reason})
		return nil
	}
	deadline := streamOf(r).deadline
	tick := time.NewTicker(runLogsPoll)
	defer tick.Stop()
	for !view.Final && time.Now().Before(deadline) {
		select {
		case <-r.Context().Done():
			return nil
		case <-tick.C:
		}
		next, err := dep.RunLogs(r.Context(), projectID, workflowID, runID)
		if err != nil {
			if r.Context().Err() != nil {
				return nil
			}
			status, body := errorBody(err, requestIDFrom(r))
			sse.event("error", edgeflow.StreamError{ErrorBody: body, Status: status})
			return nil
		}
		view = next
		emit(view.Lines)
	}
	if view.Final {
		// Lines of the last moments reach the edge just after the instance ends.
		select {
		case <-r.Context().Done():
			return nil
		case <-time.After(runLogsPoll):
		}
		if last, err := dep.RunLogs(r.Context(), projectID, workflowID, runID); err == nil {
			view = last
			emit(view.Lines)
		}
	}
	sse.event("end", runLogsEnd{Status: view.Status, Final: &view.Final})
	return nil
}

// handleRunWorkerLogs answers what the local edge keeps of the run's worker
// around the run: ?before= and ?after= (Go durations, default 1m, at most
// 1h) widen the window before its creation and after its end.
func (s *Server) handleRunWorkerLogs(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	margin := func(name string) (time.Duration, error) {
		raw := r.URL.Query().Get(name)
		if raw == "" {
			return time.Minute, nil
		}
		d, err := time.ParseDuration(raw)
		if err != nil || d < 0 || d > time.Hour {
			return 0, edgeflow.Invalid("/"+name, name+" must be a duration between 0s and 1h, such as 30s or 5m")
		}
		return d, nil
	}
	before, err := margin("before")
	if err != nil {
		return err
	}
	after, err := margin("after")
	if err != nil {
		return err
	}
	view, err := dep.WorkerLogsAround(r.Context(), projectID, r.PathValue("workflowId"), r.PathValue("runId"), before, after)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, view)
	return nil
}
