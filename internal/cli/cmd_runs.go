package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func runsCommand() *command {
	return &command{
		name:    "runs",
		summary: "list, show, watch and restart runs",
		subs: []*command{
			{
				name: "ls", summary: "list the project's runs, newest first", maxArgs: 0,
				flags: append(runFilterFlags(),
					flagDef{name: "limit", short: "n", value: "N", usage: "at most N runs (default 20; 0 for all)"},
					jsonFlag),
				examples: []string{"edgeflow runs ls", "edgeflow runs ls --workflow orders --status errored", "edgeflow runs ls -q timeout --json",
					"edgeflow runs ls --workflow orders --env production"},
				run: runRunsList,
			},
			{
				name: "usage", summary: "sum the token usage of the runs the filters select, per workflow", maxArgs: 0,
				about: `Sums the tokens that the agent nodes' model calls spent in the runs selected by the same filters
as "runs ls", in all and per workflow, the most tokens first. Runs without model calls are not
counted. The sums read the newest 100,000 runs with model calls at most; past that the output
says so (narrow with --from and --to).`,
				flags:    append(runFilterFlags(), jsonFlag),
				examples: []string{"edgeflow runs usage", "edgeflow runs usage --from 2026-12-01T00:00:00Z --json"},
				run:      runRunsUsage,
			},
			{
				name: "show", summary: "show a run with its steps", args: "RUN", minArgs: 1, maxArgs: 1,
				flags:    []flagDef{jsonFlag},
				examples: []string{"edgeflow runs show run_4m8x2c6v1b9n3k7q5wkl"},
				run:      runRunShow,
			},
			{
				name: "watch", summary: "follow a run until it ends (exit 1 if it errors)", args: "RUN", minArgs: 1, maxArgs: 1,
				about: `Prints each change of the run's status and of its steps until the run completes, errors or is
terminated, then its output (or error). The exit status is 0 when the run completes, 1 otherwise.`,
				examples: []string{"edgeflow runs watch run_4m8x2c6v1b9n3k7q5wkl"},
				run:      runRunWatch,
			},
			{
				name: "output", summary: "print a step's full output, or one attempt's", args: "RUN STEP", minArgs: 2, maxArgs: 2,
				about: `Prints the full output of the run's step STEP (a node id), read from the provider: the output the
run shows is cut at 64 KiB, this one is not. --attempt N prints attempt N of a retried step with its
error. A step that returned a stream prints its bytes as they are (--out FILE writes them to a
file). A sensitive step's output is [REDACTED].`,
				flags: []flagDef{
					{name: "attempt", value: "N", usage: "one attempt of the step (from 1)"},
					{name: "iteration", value: "I", usage: "the loop iteration of a step inside a loop, e.g. 2 or 0.1"},
					{name: "out", short: "o", value: "FILE", usage: "write the output to FILE instead of standard output"},
					jsonFlag,
				},
				examples: []string{"edgeflow runs output run_4m8x2c6v1b9n3k7q5wkl charge",
					"edgeflow runs output run_4m8x2c6v1b9n3k7q5wkl charge --attempt 1",
					"edgeflow runs output run_4m8x2c6v1b9n3k7q5wkl export --out export.csv"},
				run: runRunOutput,
			},
			{
				name: "restart", summary: "restart a run from a step, as a new run or in place", args: "RUN", minArgs: 1, maxArgs: 1,
				about: `Starts a new run on the original run's connection. The steps before --from-step keep their outputs
from the original run without running again; without --from-step the run restarts from the start.
--version current runs the version deployed now instead of the run's own.
--in-place restarts the run itself through the provider's native restart instead (the same run id;
the steps before --from-step keep their results): only while the run's own version is deployed.`,
				flags: []flagDef{
					{name: "from-step", value: "NODE", usage: "the node id to run from"},
					{name: "version", value: "same|current", usage: "the run's own version (default) or the one deployed now"},
					{name: "in-place", usage: "restart the run itself instead of starting a new one"},
					{name: "wait", usage: "wait for the run to end and print its output"},
					jsonFlag,
				},
				examples: []string{"edgeflow runs restart run_4m8x2c6v1b9n3k7q5wkl --from-step charge",
					"edgeflow runs restart run_4m8x2c6v1b9n3k7q5wkl --from-step charge --in-place --wait"},
				run: runRunRestart,
			},
		},
	}
}

// runFilterFlags are the flags of the run search's filters (runs ls, runs
// usage), read by runFilterQuery.
func runFilterFlags() []flagDef {
	return []flagDef{
		{name: "workflow", short: "w", value: "WORKFLOW", usage: "only this workflow's runs"},
		{name: "status", value: "STATUS", usage: "queued, running, paused, waiting, complete, errored or terminated"},
		{name: "version", value: "VERSION", usage: "only runs of this version (with --workflow)"},
		{name: "from", value: "TIME", usage: "created at or after this RFC 3339 time"},
		{name: "to", value: "TIME", usage: "created before this RFC 3339 time"},
		{name: "search", short: "q", value: "WORDS", usage: "words the params, output, error, step outputs or event payloads contain"},
		{name: "env", short: "e", value: "ENV", usage: "only runs in this environment"},
	}
}

// runFilterQuery builds GET /api/runs's filters from the flags.
func runFilterQuery(c *call, cl *client) (url.Values, map[string]string, error) {
	q := url.Values{}
	names := map[string]string{}
	if ref := c.flag("workflow"); ref != "" {
		w, err := workflowByRef(c.ctx, cl, ref)
		if err != nil {
			return nil, nil, err
		}
		q.Set("workflowId", w.ID)
		names[w.ID] = w.Name
		if vref := c.flag("version"); vref != "" {
			v, err := versionByRef(c.ctx, cl, w, vref)
			if err != nil {
				return nil, nil, err
			}
			q.Set("versionId", v.ID)
		}
	} else if c.has("version") {
		return nil, nil, usageError("--version goes with --workflow")
	}
	for _, f := range []string{"status", "from", "to"} {
		if v := c.flag(f); v != "" {
			q.Set(f, v)
		}
	}
	if v := c.flag("search"); v != "" {
		q.Set("q", v)
	}
	if v := c.flag("env"); v != "" {
		q.Set("environment", v)
	}
	return q, names, nil
}

func runRunsList(c *call) error {
	limit := 20
	if c.has("limit") {
		n, err := strconv.Atoi(c.flag("limit"))
		if err != nil || n < 0 {
			return usageError("--limit is a number of runs, not %q", c.flag("limit"))
		}
		limit = n
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	q, names, err := runFilterQuery(c, cl)
	if err != nil {
		return err
	}
	runs, err := listAll[run](c.ctx, cl, "/api/runs", q, limit)
	if err != nil {
		return err
	}
	if c.has("json") {
		if runs == nil {
			runs = []run{}
		}
		return printJSON(c.out(), runs)
	}
	if len(runs) == 0 {
		fmt.Fprintln(c.out(), "No runs match.")
		return nil
	}
	if err := workflowNames(c, cl, names, runs); err != nil {
		return err
	}
	t := newTable(c.out(), false, "ID", "WORKFLOW", "CREATED", "DURATION", "STATUS")
	color := c.env.color()
	for _, r := range runs {
		t.row(r.ID, names[r.WorkflowID], stamp(r.CreatedAt), duration(r.StartedAt, r.EndedAt), paint(color, r.Status))
	}
	return t.flush()
}

func runRunsUsage(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	q, _, err := runFilterQuery(c, cl)
	if err != nil {
		return err
	}
	var u edgeflow.RunUsage
	if err := cl.request(c.ctx, "GET", "/api/runs/usage", q, nil, &u); err != nil {
		return err
	}
	if c.has("json") {
		return printJSON(c.out(), u)
	}
	if u.Runs == 0 {
		fmt.Fprintln(c.out(), "No run with model calls matches.")
		return nil
	}
	t := newTable(c.out(), false, "WORKFLOW", "RUNS", "INPUT TOKENS", "OUTPUT TOKENS")
	for _, w := range u.Workflows {
		t.row(w.WorkflowName, strconv.FormatInt(w.Runs, 10), strconv.FormatInt(w.InputTokens, 10), strconv.FormatInt(w.OutputTokens, 10))
	}
	t.row("total", strconv.FormatInt(u.Runs, 10), strconv.FormatInt(u.InputTokens, 10), strconv.FormatInt(u.OutputTokens, 10))
	if err := t.flush(); err != nil {
		return err
	}
	if u.Partial {
		fmt.Fprintln(c.out(), "The sums cover the newest 100,000 runs with model calls only; narrow with --from and --to.")
	}
	return nil
}

// workflowNames fills names for the workflows of runs it does not hold yet.
func workflowNames(c *call, cl *client, names map[string]string, runs []run) error {
	missing := false
	for _, r := range runs {
		if _, ok := names[r.WorkflowID]; !ok {
			missing = true
		}
	}
	if !missing {
		return nil
	}
	all, err := listAll[workflow](c.ctx, cl, "/api/workflows", nil, 0)
	if err != nil {
		return err
	}
	for _, w := range all {
		names[w.ID] = w.Name
	}
	for _, r := range runs {
		if _, ok := names[r.WorkflowID]; !ok {
			names[r.WorkflowID] = r.WorkflowID
		}
	}
	return nil
}

func runRunShow(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	r, err := runByID(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	if c.has("json") {
		return printJSON(c.out(), r)
	}
	return printRun(c, r, runNames(c, cl, r))
}

// runLabels are the names `runs show` prints for a run's workflow and
// version ("orders (wf_…)", "v3 (ver_…)"); the bare ids when a read fails.
type runLabels struct{ workflow, version string }

func runNames(c *call, cl *client, r *run) runLabels {
	l := runLabels{workflow: r.WorkflowID, version: r.VersionID}
	if r.DeletedWorkflow != nil {
		l.workflow = r.DeletedWorkflow.Name + " (deleted)"
		return l
	}
	var w workflow
	if cl.request(c.ctx, http.MethodGet, "/api/workflows/"+url.PathEscape(r.WorkflowID), nil, nil, &w) == nil && w.Name != "" {
		l.workflow = fmt.Sprintf("%s (%s)", w.Name, r.WorkflowID)
	}
	var v versionSummary
	if cl.request(c.ctx, http.MethodGet, "/api/workflows/"+url.PathEscape(r.WorkflowID)+"/versions/"+url.PathEscape(r.VersionID), nil, nil, &v) == nil && v.Version > 0 {
		l.version = fmt.Sprintf("v%d (%s)", v.Version, r.VersionID)
	}
	return l
}

// printRun writes a run's summary, its steps and its output or error.
func printRun(c *call, r *run, names runLabels) error {
	color := c.env.color()
	t := newTable(c.out(), false, "", "")
	t.row("run", r.ID)
	t.row("workflow", names.workflow)
	t.row("version", names.version)
	t.row("created", stamp(r.CreatedAt))
	t.row("duration", duration(r.StartedAt, r.EndedAt))
	if r.RestartOf != "" {
		t.row("restart of", fmt.Sprintf("%s from %s", r.RestartOf, orDash(r.FromStep)))
	}
	status := paint(color, r.Status)
	if r.StatusDetail != "" {
		status += " (" + r.StatusDetail + ")"
	}
	t.row("status", status)
	if len(r.StepDetail) > 0 {
		t.row("steps", stepCounts(r.StepDetail))
	}
	if err := t.flush(); err != nil {
		return err
	}
	if len(r.StepDetail) > 0 {
		fmt.Fprintln(c.out())
		if err := printSteps(c, r.StepDetail); err != nil {
			return err
		}
	}
	if len(r.Output) > 0 && string(r.Output) != "null" {
		fmt.Fprintln(c.out(), "\nOutput:")
		writeIndented(c.out(), r.Output)
	}
	if r.Error != "" {
		fmt.Fprintf(c.out(), "\nError: %s\n", r.Error)
	}
	return nil
}

// printSteps writes one row per step; the state is the last column.
func printSteps(c *call, steps []edgeflow.RunStep) error {
	color := c.env.color()
	t := newTable(c.out(), false, "STEP", "NAME", "ATTEMPTS", "DURATION", "STATE")
	for _, s := range steps {
		attempts := "-"
		if s.Attempts > 0 {
			attempts = strconv.Itoa(s.Attempts)
		}
		t.row(s.NodeID, shorten(s.Name, 40), attempts, duration(s.StartedAt, s.EndedAt), paint(color, s.State))
	}
	if err := t.flush(); err != nil {
		return err
	}
	for _, s := range steps {
		if s.Error != nil && s.Error.Message != "" {
			fmt.Fprintf(c.out(), "  %s: %s: %s\n", s.NodeID, orDash(s.Error.Name), s.Error.Message)
		}
	}
	return nil
}

// writeIndented pretty-prints a JSON value.
func writeIndented(w io.Writer, raw json.RawMessage) {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		w.Write(raw)
		fmt.Fprintln(w)
		return
	}
	b.WriteByte('\n')
	w.Write(b.Bytes())
}

func runRunWatch(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	r, err := runByID(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	final, err := follow(c, cl, r.ID, true)
	if err != nil {
		return err
	}
	if len(final.Output) > 0 && string(final.Output) != "null" {
		writeIndented(c.out(), final.Output)
	}
	return runOutcome(c, final)
}

// runOutcome is nil for a completed run; otherwise it prints the error and
// fails.
func runOutcome(c *call, r *run) error {
	if r.Status == "complete" {
		return nil
	}
	msg := r.Error
	if msg == "" {
		msg = "no error message"
	}
	fmt.Fprintf(c.env.Stderr, "run %s %s: %s\n", r.ID, r.Status, msg)
	return quietFailure
}

// follow reads the run until it reaches a final status, printing each
// change of its status and steps when verbose; otherwise each change of its
// state goes to standard error as one line (liveState), for the person
// waiting, while standard output keeps the run's output alone.
func follow(c *call, cl *client, runID string, verbose bool) (*run, error) {
	lastStatus, lastLive := "", ""
	states := map[string]string{}
	failures := 0
	events := eventTypes{}
	for {
		r, err := runByID(c.ctx, cl, runID)
		if err != nil {
			// A server restarting or a provider hiccup is not the run's
			// end: try again a few times before giving up.
			// A server restarting (unreachable, or a 5xx) is worth waiting for.
			var ae *APIError
			var ee *exitError
			transient := errors.As(err, &ae) && ae.Status >= 500 || errors.As(err, &ee) && ee.code == ExitFailed
			if transient && failures < 5 && c.ctx.Err() == nil {
				failures++
				if !sleep(c, c.env.Poll) {
					return nil, c.ctx.Err()
				}
				continue
			}
			return nil, err
		}
		failures = 0
		if verbose {
			now := c.env.Now().UTC().Format("15:04:05")
			for _, s := range r.StepDetail {
				if states[s.NodeID] != s.State {
					states[s.NodeID] = s.State
					fmt.Fprintf(c.out(), "%s  step %-24s %s\n", now, s.NodeID, paint(c.env.color(), s.State))
				}
			}
			if r.Status != lastStatus {
				lastStatus = r.Status
				fmt.Fprintf(c.out(), "%s  run  %-24s %s\n", now, r.ID, paint(c.env.color(), r.Status))
			}
		}
		if !verbose {
			if line := liveState(c, cl, r, events); line != lastLive {
				lastLive = line
				fmt.Fprintln(c.env.Stderr, line)
			}
		}
		if edgeflow.RunIsFinal(r.Status) {
			return r, nil
		}
		if !sleep(c, c.env.Poll) {
			return nil, c.ctx.Err()
		}
	}
}

// sleep waits d or until the command is interrupted (false then).
func sleep(c *call, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-c.ctx.Done():
		return false
	}
}

func runRunRestart(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	if v := c.flag("version"); c.has("version") && v != "same" && v != "current" {
		return usageError("--version is same or current, not %q", v)
	}
	orig, err := runByID(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	body := map[string]string{}
	if c.has("from-step") {
		body["fromStep"] = c.flag("from-step")
	}
	if c.has("version") {
		body["version"] = c.flag("version")
	}
	if c.has("in-place") {
		if c.flag("version") == "current" {
			return usageError("--in-place runs the run's own version: leave out --version current")
		}
		body["mode"] = "in-place"
	}
	var nr run
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+orig.WorkflowID+"/runs/"+orig.ID+"/restart", nil, body, &nr); err != nil {
		return err
	}
	return reportStarted(c, cl, nr.ID, nr)
}

// reportStarted prints a started run's id (with --json the route's answer),
// or with --wait follows the run and prints its output.
func reportStarted(c *call, cl *client, runID string, answer any) error {
	if !c.has("wait") {
		if c.has("json") {
			return printJSON(c.out(), answer)
		}
		fmt.Fprintln(c.out(), runID)
		return nil
	}
	final, err := follow(c, cl, runID, false)
	if err != nil {
		return err
	}
	if c.has("json") {
		if err := printJSON(c.out(), final); err != nil {
			return err
		}
	} else if len(final.Output) > 0 {
		writeIndented(c.out(), final.Output)
	} else if final.Status == "complete" {
		fmt.Fprintln(c.out(), "null")
	}
	return runOutcome(c, final)
}

// jsonArg reads a JSON argument: @FILE reads a file, @- standard input,
// anything else is the JSON itself.
func jsonArg(c *call, flag string) (json.RawMessage, error) {
	v := c.flag(flag)
	var raw []byte
	switch {
	case v == "@-":
		b, err := io.ReadAll(io.LimitReader(c.env.Stdin, 16<<20))
		if err != nil {
			return nil, err
		}
		raw = b
	case strings.HasPrefix(v, "@"):
		b, err := os.ReadFile(v[1:])
		if err != nil {
			return nil, usageError("--%s: %v", flag, err)
		}
		raw = b
	default:
		raw = []byte(v)
	}
	raw = bytes.TrimSpace(raw)
	if !json.Valid(raw) {
		return nil, usageError("--%s is not valid JSON (give JSON, @FILE or @- for standard input)", flag)
	}
	return raw, nil
}

// stepOutput is the answer of GET …/runs/:runId/steps/:nodeId/output.
type stepOutput struct {
	RunID   string              `json:"runId"`
	NodeID  string              `json:"nodeId"`
	Name    string              `json:"name"`
	Attempt int                 `json:"attempt,omitempty"`
	State   string              `json:"state"`
	Error   *edgeflow.StepError `json:"error,omitempty"`
	Output  json.RawMessage     `json:"output"`
	Source  string              `json:"source"`
}

func runRunOutput(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	q := url.Values{}
	if c.has("attempt") {
		n, err := strconv.Atoi(c.flag("attempt"))
		if err != nil || n < 1 {
			return usageError("--attempt is a number from 1, not %q", c.flag("attempt"))
		}
		q.Set("attempt", strconv.Itoa(n))
	}
	if c.has("iteration") {
		q.Set("iteration", c.flag("iteration"))
	}
	r, err := runByID(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	path := "/api/workflows/" + r.WorkflowID + "/runs/" + r.ID + "/steps/" + url.PathEscape(c.args[1]) + "/output"
	resp, err := cl.send(c.ctx, http.MethodGet, path, q, nil, "application/json, application/octet-stream")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	w := c.out()
	if c.has("out") {
		f, err := os.Create(c.flag("out"))
		if err != nil {
			return failed("--out: %v", err)
		}
		defer f.Close()
		w = f
	}
	if resp.Header.Get("Content-Type") == "application/octet-stream" {
		// A stream output: its bytes, as they are.
		if _, err := io.Copy(w, resp.Body); err != nil {
			return fmt.Errorf("reading the step's output: %w", err)
		}
		return nil
	}
	var out stepOutput
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&out); err != nil {
		return fmt.Errorf("reading the step's output: %w", err)
	}
	if c.has("json") {
		return printJSON(w, out)
	}
	if out.State != "complete" && out.State != "replayed" {
		fmt.Fprintf(c.env.Stderr, "%s: %s\n", out.NodeID, out.State)
	}
	if out.Error != nil && out.Error.Message != "" {
		fmt.Fprintf(c.env.Stderr, "%s: %s: %s\n", out.NodeID, orDash(out.Error.Name), out.Error.Message)
	}
	writeIndented(w, out.Output)
	return nil
}

// liveState is the line `trigger --wait` and `runs restart --wait` print on
// standard error for a run's state: its id, status and what it waits for,
// with the command that sends a run waiting for an event its event.
func liveState(c *call, cl *client, r *run, events eventTypes) string {
	line := r.ID + " " + r.Status
	switch r.StatusDetail {
	case "":
	case "waiting":
		if t := events.waitedFor(c, cl, r); t != "" {
			return fmt.Sprintf("%s: waiting for event %q — edgeflow send-event %s --type %s", line, t, r.ID, t)
		}
		return line + ": waiting for an event — edgeflow send-event " + r.ID + " --type TYPE"
	default:
		line += ": " + r.StatusDetail
	}
	return line
}

// eventTypes keeps the event type of each wait_for_event node of the
// versions a follow has read, by version id then node id.
type eventTypes map[string]map[string]string

// waitedFor is the event type of the run's wait_for_event step that has not
// ended, read from its version's IR (once per version); "" when unknown.
func (e eventTypes) waitedFor(c *call, cl *client, r *run) string {
	byNode, ok := e[r.VersionID]
	if !ok {
		byNode = map[string]string{}
		e[r.VersionID] = byNode
		var v version
		if err := cl.request(c.ctx, http.MethodGet, "/api/workflows/"+r.WorkflowID+"/versions/"+url.PathEscape(r.VersionID), nil, nil, &v); err == nil {
			var doc struct {
				Nodes []struct {
					ID   string `json:"id"`
					Type string `json:"type"`
					Data struct {
						EventType string `json:"eventType"`
					} `json:"data"`
				} `json:"nodes"`
			}
			if json.Unmarshal(v.IR, &doc) == nil {
				for _, n := range doc.Nodes {
					if n.Type == "wait_for_event" {
						byNode[n.ID] = n.Data.EventType
					}
				}
			}
		}
	}
	for _, s := range r.StepDetail {
		if s.EndedAt != nil || edgeflow.RunIsFinal(s.State) {
			continue
		}
		id, _, _ := strings.Cut(s.NodeID, "#")
		if t := byNode[id]; t != "" {
			return t
		}
	}
	return ""
}

// stepCounts says how many of a run's steps are in each state, in the order
// states are first met ("3 complete, 1 waiting").
func stepCounts(steps []edgeflow.RunStep) string {
	var order []string
	n := map[string]int{}
	for _, s := range steps {
		if n[s.State] == 0 {
			order = append(order, s.State)
		}
		n[s.State]++
	}
	parts := make([]string, len(order))
	for i, st := range order {
		parts[i] = fmt.Sprintf("%d %s", n[st], st)
	}
	return strings.Join(parts, ", ")
}
