package api

import (
	"context"
	"encoding/json"
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

// ProbeEdge asks the edge whose base URL (scheme, host and port) is base
// whether it is ready and returns nil when it is: its /readyz answers 200
// (an edge with a group that cannot open Workflow instances answers 503,
// docs/operations.md), or, for an edge older than /readyz, its /healthz.
func ProbeEdge(ctx context.Context, base string) error {
	status, body, err := getEdge(ctx, strings.TrimSuffix(base, "/")+"/readyz")
	if err != nil {
		return err
	}
	if status == http.StatusNotFound {
		if status, _, err = getEdge(ctx, strings.TrimSuffix(base, "/")+"/healthz"); err != nil {
			return err
		}
		if status != http.StatusOK {
			return fmt.Errorf("edge /healthz answered %d", status)
		}
		return nil
	}
	if status == http.StatusOK {
		return nil
	}
	var ready struct {
		Failing []struct {
			Group string `json:"group"`
			Kind  string `json:"kind"`
		} `json:"failing"`
	}
	if json.Unmarshal(body, &ready) == nil && len(ready.Failing) > 0 {
		var parts []string
		for _, f := range ready.Failing {
			parts = append(parts, fmt.Sprintf("group %s (%s)", f.Group, f.Kind))
		}
		return fmt.Errorf("edge cannot run workflow instances: %s", strings.Join(parts, ", "))
	}
	return fmt.Errorf("edge /readyz answered %d", status)
}

// getEdge GETs url with edgeProbeClient: the status and up to 64 KiB of
// the body.
func getEdge(ctx context.Context, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	res, err := edgeProbeClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	return res.StatusCode, body, nil
}
