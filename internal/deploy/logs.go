package deploy

import (
	"context"
	"sort"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Logs of runs and workers (docs/runs.md, "Logs"; docs/decisions.md
// 240-242). The local edge keeps each worker's recent console lines and
// exceptions, each line of a Workflow run tagged with its instance id
// (edge/src/logs.mjs); edgeflow reads a run's lines from there and keeps
// them with the run (Store.PutRunLogs), so that they outlive the edge's
// ring, an edge restart and the instance. Cloudflare offers no API that
// returns an instance's console lines, so runs on Cloudflare connections
// have none here.

// logReader is what the local edge's provider offers besides Provider.
type logReader interface {
	WorkerLogs(ctx context.Context, script string, q cloudflare.WorkerLogsQuery) ([]cloudflare.LogLine, int, error)
}

func (p *cfProvider) WorkerLogs(ctx context.Context, script string, q cloudflare.WorkerLogsQuery) ([]cloudflare.LogLine, int, error) {
	return p.c.WorkerLogs(ctx, script, q)
}

// NoLogsOnCloudflare is why runs on Cloudflare connections have no logs.
const NoLogsOnCloudflare = "Cloudflare offers no API that returns the console lines of a Workflow instance; " +
	"read them with `wrangler tail` while the run is active, or in Workers Logs of the Cloudflare dashboard " +
	"(docs/runs.md, \"Logs\")"

// RunLogsView is a run's logs as GET …/runs/:runId/logs answers them.
type RunLogsView struct {
	Lines []edgeflow.LogLine `json:"data"`
	// Dropped counts the oldest lines left out to keep within the limits.
	Dropped int `json:"dropped"`
	// Available is false on Cloudflare connections (Reason says why).
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
	// Status is the run's status; Final whether it can change any more.
	Status string `json:"status"`
	Final  bool   `json:"final"`
}

// RunLogs returns a run's logs: those kept with the run merged with what
// the local edge has of its instance now (stored back when they grew).
// The edge being unreachable is not an error: the kept lines answer.
func (s *Service) RunLogs(ctx context.Context, projectID, workflowID, runID string) (*RunLogsView, error) {
	w, err := s.store.FindWorkflowByID(ctx, projectID, workflowID)
	if err != nil {
		return nil, err
	}
	r, err := s.store.FindRunByID(ctx, workflowID, runID)
	if err != nil {
		return nil, err
	}
	if !edgeflow.RunIsFinal(r.Status) {
		if cur, err := s.refresh(ctx, r, false); err == nil {
			r = cur
		}
	}
	kept, err := s.store.FindRunLogs(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	view := &RunLogsView{Status: r.Status, Final: edgeflow.RunIsFinal(r.Status), Available: true}
	c, err := s.store.FindConnectionByID(ctx, w.OrganizationID, r.ConnectionID)
	switch {
	case err != nil && !edgeflow.IsNotFound(err):
		return nil, err
	case err == nil && c.Provider != edgeflow.ProviderLocal:
		view.Available, view.Reason = false, NoLogsOnCloudflare
	case err == nil:
		if fresh, ok := s.edgeRunLines(ctx, c, r); ok {
			merged := mergeLogs(kept, fresh)
			if len(merged.Lines) != len(kept.Lines) || merged.Dropped != kept.Dropped {
				if err := s.store.PutRunLogs(context.WithoutCancel(ctx), r.ID, merged); err != nil {
					s.log.Warn("runs: keep run logs", "run", r.ID, "err", err)
				}
			}
			kept = merged
		}
	}
	view.Lines, view.Dropped = kept.Lines, kept.Dropped
	if view.Lines == nil {
		view.Lines = []edgeflow.LogLine{}
	}
	return view, nil
}

// edgeRunLines reads the lines the local edge keeps of the run's instance;
// ok is false when the edge could not be asked.
func (s *Service) edgeRunLines(ctx context.Context, c *edgeflow.Connection, r *edgeflow.Run) ([]edgeflow.LogLine, bool) {
	if r.InstanceID == "" {
		return nil, false
	}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, false
	}
	lr, ok := prov.(logReader)
	if !ok {
		return nil, false
	}
	lines, _, err := lr.WorkerLogs(ctx, runScript(r), cloudflare.WorkerLogsQuery{InstanceID: r.InstanceID})
	if err != nil {
		if !cloudflare.IsNotFound(err) {
			s.log.Warn("runs: read run logs from the local edge", "run", r.ID, "err", err)
		}
		return nil, false
	}
	out := make([]edgeflow.LogLine, len(lines))
	for i, l := range lines {
		out[i] = edgeflow.LogLine{Timestamp: time.UnixMilli(l.Timestamp).UTC(), Level: l.Level, Message: l.Message}
	}
	return out, true
}

// mergeLogs adds to the kept lines those of fresh they lack (a line is its
// time, level and message; the same line twice counts twice), in time
// order, and keeps within MaxRunLogLines and MaxRunLogBytes by leaving out
// the oldest. Once lines were left out, fresh lines older than the oldest
// kept one are not taken again.
func mergeLogs(kept edgeflow.RunLogs, fresh []edgeflow.LogLine) edgeflow.RunLogs {
	type key struct {
		t     int64
		level string
		msg   string
	}
	have := map[key]int{}
	for _, l := range kept.Lines {
		have[key{l.Timestamp.UnixMilli(), l.Level, l.Message}]++
	}
	out := edgeflow.RunLogs{Lines: append([]edgeflow.LogLine(nil), kept.Lines...), Dropped: kept.Dropped}
	var floor time.Time
	if kept.Dropped > 0 && len(kept.Lines) > 0 {
		floor = kept.Lines[0].Timestamp
	}
	for _, l := range fresh {
		k := key{l.Timestamp.UnixMilli(), l.Level, l.Message}
		if have[k] > 0 {
			have[k]--
			continue
		}
		if !floor.IsZero() && l.Timestamp.Before(floor) {
			continue
		}
		out.Lines = append(out.Lines, l)
	}
	sort.SliceStable(out.Lines, func(i, j int) bool { return out.Lines[i].Timestamp.Before(out.Lines[j].Timestamp) })
	size := 0
	for _, l := range out.Lines {
		size += len(l.Message) + 64
	}
	for len(out.Lines) > edgeflow.MaxRunLogLines || size > edgeflow.MaxRunLogBytes && len(out.Lines) > 0 {
		size -= len(out.Lines[0].Message) + 64
		out.Lines = out.Lines[1:]
		out.Dropped++
	}
	return out
}

// WorkerLogLine is one line of a worker's logs around a run.
type WorkerLogLine struct {
	edgeflow.LogLine
	// InstanceID is the Workflow instance whose run wrote the line ("" for
	// requests and other events of the worker).
	InstanceID string `json:"instanceId"`
}

// WorkerLogsView answers GET …/runs/:runId/worker-logs.
type WorkerLogsView struct {
	Lines []WorkerLogLine `json:"data"`
	From  time.Time       `json:"from"`
	To    time.Time       `json:"to"`
	// Dropped counts the lines the edge's ring of this worker has let go
	// since the edge started (older lines of the window may be among them).
	Dropped int `json:"dropped"`
}

// WorkerLogsMargin is how far before a run's creation and after its end
// GET …/runs/:runId/worker-logs looks by default.
const WorkerLogsMargin = time.Minute

// WorkerLogsAround returns what the local edge keeps of the run's worker
// between the run's creation minus before and its end (now while it runs)
// plus after: every invocation of the worker, not only the run's. Runs on
// Cloudflare connections are a conflict (Cloudflare keeps no such logs for
// edgeflow to read).
func (s *Service) WorkerLogsAround(ctx context.Context, projectID, workflowID, runID string, before, after time.Duration) (*WorkerLogsView, error) {
	w, err := s.store.FindWorkflowByID(ctx, projectID, workflowID)
	if err != nil {
		return nil, err
	}
	r, err := s.store.FindRunByID(ctx, workflowID, runID)
	if err != nil {
		return nil, err
	}
	c, err := s.store.FindConnectionByID(ctx, w.OrganizationID, r.ConnectionID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the run's connection no longer exists")
		}
		return nil, err
	}
	if c.Provider != edgeflow.ProviderLocal {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "worker logs are kept by the local edge only; %s", NoLogsOnCloudflare)
	}
	end := s.now().UTC()
	if r.EndedAt != nil {
		end = *r.EndedAt
	}
	view := &WorkerLogsView{From: r.CreatedAt.Add(-before).UTC(), To: end.Add(after).UTC(), Lines: []WorkerLogLine{}}
	prov, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, err
	}
	lr, ok := prov.(logReader)
	if !ok {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "this connection's provider keeps no worker logs")
	}
	lines, dropped, err := lr.WorkerLogs(ctx, runScript(r), cloudflare.WorkerLogsQuery{Since: view.From, Until: view.To})
	if err != nil {
		if cloudflare.IsNotFound(err) {
			return view, nil // the worker is no longer deployed: nothing kept
		}
		return nil, providerError("read the worker's logs", err)
	}
	view.Dropped = dropped
	for _, l := range lines {
		view.Lines = append(view.Lines, WorkerLogLine{
			LogLine:    edgeflow.LogLine{Timestamp: time.UnixMilli(l.Timestamp).UTC(), Level: l.Level, Message: l.Message},
			InstanceID: l.InstanceID,
		})
	}
	return view, nil
}

// keepRunLogs stores what the local edge has of a run that just finished,
// so that its logs outlive the edge's ring even when nobody read them
// while it ran. Failures are logged only.
func (s *Service) keepRunLogs(ctx context.Context, r *edgeflow.Run) {
	w, err := s.store.FindWorkflowByID(ctx, r.ProjectID, r.WorkflowID)
	if err != nil {
		return
	}
	c, err := s.store.FindConnectionByID(ctx, w.OrganizationID, r.ConnectionID)
	if err != nil || c.Provider != edgeflow.ProviderLocal {
		return
	}
	fresh, ok := s.edgeRunLines(ctx, c, r)
	if !ok {
		return
	}
	kept, err := s.store.FindRunLogs(ctx, r.ID)
	if err != nil {
		return
	}
	merged := mergeLogs(kept, fresh)
	if len(merged.Lines) == len(kept.Lines) && merged.Dropped == kept.Dropped {
		return
	}
	if err := s.store.PutRunLogs(ctx, r.ID, merged); err != nil {
		s.log.Warn("runs: keep run logs", "run", r.ID, "err", err)
	}
}

// runScript is the worker that ran r: its Workflow's script (a workflow's
// script and Workflow share their name, releases.go), or the workflow's
// base name for a run that names no Workflow.
func runScript(r *edgeflow.Run) string {
	if r.WorkflowName != "" {
		return r.WorkflowName
	}
	return codegen.ScriptName(r.WorkflowID)
}
