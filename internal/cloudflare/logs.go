package cloudflare

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// LogLine is one console line or uncaught exception of a worker as the
// local edge keeps it (GET …/workers/scripts/{name}/logs, a route of the
// local edge only; Cloudflare has none). Timestamp is in milliseconds since
// the epoch; InstanceID is the Workflow instance whose run() wrote the line
// ("" outside Workflow runs); Kind is "log" or "exception".
type LogLine struct {
	Timestamp  int64  `json:"timestamp"`
	Level      string `json:"level"`
	Message    string `json:"message"`
	InstanceID string `json:"instanceId"`
	Kind       string `json:"kind"`
	Seq        int64  `json:"seq"`
}

// WorkerLogsQuery narrows WorkerLogs: one Workflow instance, a time window
// (zero: open) and the newest Limit lines (0: all the edge keeps).
type WorkerLogsQuery struct {
	InstanceID string
	Since      time.Time
	Until      time.Time
	Limit      int
}

// WorkerLogs reads the lines the local edge keeps of worker script, oldest
// first, and how many lines the edge's ring of that worker has dropped.
func (c *Client) WorkerLogs(ctx context.Context, script string, q WorkerLogsQuery) ([]LogLine, int, error) {
	acct, err := c.account()
	if err != nil {
		return nil, 0, err
	}
	if err := checkScriptName(script); err != nil {
		return nil, 0, err
	}
	v := url.Values{}
	if q.InstanceID != "" {
		v.Set("instance", q.InstanceID)
	}
	if !q.Since.IsZero() {
		v.Set("since", strconv.FormatInt(q.Since.UnixMilli(), 10))
	}
	if !q.Until.IsZero() {
		v.Set("until", strconv.FormatInt(q.Until.UnixMilli(), 10))
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	var out struct {
		Lines   []LogLine `json:"lines"`
		Dropped int       `json:"dropped"`
	}
	if _, err := c.do(ctx, request{method: http.MethodGet, path: acct + "/workers/scripts/" + url.PathEscape(script) + "/logs",
		query: v, idempotent: true, result: &out}); err != nil {
		return nil, 0, err
	}
	return out.Lines, out.Dropped, nil
}
