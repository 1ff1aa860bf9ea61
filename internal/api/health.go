package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// readyTimeout bounds each dependency's check in /readyz.
const readyTimeout = 2 * time.Second

// healthBody is the answer of /healthz.
type healthBody struct {
	Status string `json:"status"`
}

// handleHealth answers 200 while the process is up.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, healthBody{Status: "ok"})
	return nil
}

// readyBody is the answer of /readyz. Each dependency is "ok" or "down";
// the edge is "off" when the server runs without one (--no-edge, or Node
// missing), which does not make it unready. When one is down the answer is
// 503 and also carries the error shape (code unavailable).
type readyBody struct {
	Status   string `json:"status"`
	Database string `json:"database"`
	Edge     string `json:"edge"`

	Error     string `json:"error,omitempty"`
	Code      string `json:"code,omitempty"`
	Details   []any  `json:"details,omitempty"`
	RequestID string `json:"requestId,omitempty"`
}

// handleReady checks the database and the edge at the same time, each
// within readyTimeout: 200 when every one answers, else 503 naming the
// ones that are down.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	edgeErr := make(chan error, 1)
	check := s.edgeCheck()
	if check != nil {
		go func() { edgeErr <- check(ctx) }()
	}
	body := readyBody{Status: "ok", Database: "ok", Edge: "off"}
	var down []string
	if err := s.Store.Ping(ctx); err != nil {
		s.Logger.Warn("readyz: database unreachable", "requestId", requestIDFrom(r), "error", err.Error())
		body.Database = "down"
		down = append(down, "database")
	}
	if check != nil {
		body.Edge = "ok"
		if err := <-edgeErr; err != nil {
			s.Logger.Warn("readyz: edge unreachable", "requestId", requestIDFrom(r), "error", err.Error())
			body.Edge = "down"
			down = append(down, "edge")
		}
	}
	if len(down) == 0 {
		writeJSON(w, http.StatusOK, body)
		return nil
	}
	body.Status = "unavailable"
	body.Code = codeUnavailable
	body.Error = "not ready: " + strings.Join(down, " and ") + " unreachable"
	body.Details = []any{}
	body.RequestID = requestIDFrom(r)
	w.Header().Set("Retry-After", strconv.Itoa(unavailableRetryAfter))
	writeJSON(w, http.StatusServiceUnavailable, body)
	return nil
}

// edgeCheck is the check of the edge /readyz runs, nil when there is no
// edge.
func (s *Server) edgeCheck() func(context.Context) error {
	if s.EdgeCheck != nil {
		return s.EdgeCheck
	}
	if s.LocalEdge == nil {
		return nil
	}
	base := strings.TrimSuffix(s.LocalEdge.APIBaseURL(), "/client/v4")
	return func(ctx context.Context) error { return ProbeEdge(ctx, base) }
}

// edgeProbeClient checks edges: the server's own edge (loopback), or the
// one its operator configured, never a user's URL.
var edgeProbeClient = &http.Client{Timeout: readyTimeout}

// ProbeEdge asks the edge whose base URL (scheme, host and port) is base for
// its /healthz and returns nil when it answers 200.
func ProbeEdge(ctx context.Context, base string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+"/healthz", nil)
	if err != nil {
		return err
	}
	res, err := edgeProbeClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 4096))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("edge /healthz answered %d", res.StatusCode)
	}
	return nil
}
