package localedge

import (
	"encoding/json"
	"log/slog"
	"sort"
	"strings"
	"sync"
)

// edgeErrorMark starts the message of the line the edge writes for each
// error of workerd or miniflare (edge/src/health.mjs): "edge-error " and a
// JSON object {kind, group, accounts, message}. The edge's own log prefix
// (time and "edge: ") comes before it.
const edgeErrorMark = "edge: edge-error "

// EdgeError is one error of workerd or miniflare the edge reported: its
// kind (sqlite_nomem, sqlite_cantopen, fd_limit, fatal, runtime,
// miniflare), the group whose workerd met it, the accounts whose workers
// that group runs, and workerd's line.
type EdgeError struct {
	Kind     string   `json:"kind"`
	Group    string   `json:"group"`
	Accounts []string `json:"accounts"`
	Message  string   `json:"message"`
}

// ParseEdgeError reads an edge-error line of the edge's stderr; ok is false
// for any other line.
func ParseEdgeError(line string) (EdgeError, bool) {
	i := strings.Index(line, edgeErrorMark)
	if i < 0 {
		return EdgeError{}, false
	}
	var e EdgeError
	if err := json.Unmarshal([]byte(line[i+len(edgeErrorMark):]), &e); err != nil || e.Kind == "" {
		return EdgeError{}, false
	}
	return e, true
}

// errorCounts counts the edge's errors by kind.
type errorCounts struct {
	mu sync.Mutex
	n  map[string]uint64
}

func (c *errorCounts) add(kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]uint64{}
	}
	c.n[kind]++
}

func (c *errorCounts) snapshot() map[string]uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]uint64, len(c.n))
	for k, v := range c.n {
		out[k] = v
	}
	return out
}

// logEdgeLine writes one line of the edge's stderr to logger: an
// edge-error line at ERROR with its kind, group and accounts (and counts
// it), any other line at INFO.
func logEdgeLine(logger *slog.Logger, counts *errorCounts, line string) {
	e, ok := ParseEdgeError(line)
	if !ok {
		logger.Info("edge", "line", line)
		return
	}
	counts.add(e.Kind)
	accounts := append([]string(nil), e.Accounts...)
	sort.Strings(accounts)
	logger.Error("local edge: workerd error", "kind", e.Kind, "group", e.Group, "account", strings.Join(accounts, ","), "message", e.Message)
}

// ErrorCounts answers how many errors of workerd and miniflare the edge
// reported since this process started it, by kind (the metric
// edgeflow_local_edge_errors_total).
func (e *Edge) ErrorCounts() map[string]uint64 { return e.errors.snapshot() }
