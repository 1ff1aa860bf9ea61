package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func deployCommand() *command {
	return &command{
		name: "deploy", summary: "deploy a workflow's version to a connection, following its progress", args: "WORKFLOW", minArgs: 1, maxArgs: 1,
		about: `Deploys the workflow's current version (or --version) to the connection, following the deploy stage by
stage: a bar redrawn in place on a terminal, one line per stage otherwise. Runs in flight stay on their own
version unless --in-flight says otherwise (docs/releases.md); --plan prints what the deploy would do to them
and deploys nothing. Exit 1 when the deploy is refused or a stage fails.`,
		flags: []flagDef{
			{name: "connection", short: "c", value: "CONNECTION", usage: "the connection (name or id) to deploy to"},
			{name: "env", short: "e", value: "ENV", usage: "the environment to deploy to (instead of --connection)"},
			{name: "version", value: "VERSION", usage: "the version (number or id; default: the current one)"},
			{name: "in-flight", value: "pin|migrate|drain", usage: "what happens to runs in flight of earlier versions (default pin)"},
			{name: "force", usage: "with --in-flight migrate: migrate even when the plan is not compatible"},
			{name: "plan", usage: "print the deploy plan (runs in flight, step changes, compatibility) and the month's cost, and deploy nothing"},
			{name: "runs-per-month", value: "N", usage: "the runs a month --plan prices (default 100000)"},
			jsonFlag,
		},
		examples: []string{"edgeflow deploy orders --connection local", "edgeflow deploy orders --connection production --version 3",
			"edgeflow deploy orders --connection production --plan --runs-per-month 1000000", "edgeflow deploy orders --connection production --in-flight drain"},
		run: runDeploy,
	}
}

func runDeploy(c *call) error {
	if c.has("connection") == c.has("env") {
		return usageError("give --connection or --env")
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	body := map[string]any{}
	conn, err := deployTarget(c, cl, body)
	if err != nil {
		return err
	}
	label := "the current version"
	if ref := c.flag("version"); ref != "" {
		v, err := versionByRef(c.ctx, cl, w, ref)
		if err != nil {
			return err
		}
		body["versionId"] = v.ID
		label = fmt.Sprintf("version %d", v.Version)
	}
	if err := inFlightFlag(c, body); err != nil {
		return err
	}
	if c.has("force") {
		body["force"] = true
	}
	if c.has("plan") {
		return showDeployPlan(c, cl, w, conn, body["versionId"])
	}
	resp, err := cl.send(c.ctx, http.MethodPost, "/api/workflows/"+w.ID+"/deploy-stream", nil, body, "text/event-stream")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if !c.has("json") {
		fmt.Fprintf(c.out(), "Deploying %s of %q to %q\n", label, w.Name, conn.Name)
	}
	bar := c.env.Terminal && !c.has("json")
	var result json.RawMessage
	err = readSSE(resp.Body, func(event string, data []byte) error {
		switch event {
		case "plan":
			var plan deployPlan
			if json.Unmarshal(data, &plan) == nil && !c.has("json") {
				printDeployPlanSummary(c.out(), plan)
			}
		case "progress":
			var p edgeflow.DeployProgress
			if json.Unmarshal(data, &p) != nil || c.has("json") {
				return nil
			}
			if bar {
				fmt.Fprintf(c.out(), "\r\x1b[K%s %3d%%  %s", progressBar(p.Progress, 30), p.Progress, p.Stage)
			} else {
				fmt.Fprintf(c.out(), "%-20s %3d%%  %s\n", p.Stage, p.Progress, p.Message)
			}
		case "result":
			result = append(json.RawMessage(nil), data...)
		case "error":
			if bar {
				fmt.Fprintln(c.out())
			}
			e := &APIError{}
			var b edgeflow.StreamError
			if json.Unmarshal(data, &b) == nil {
				e.Status, e.Code, e.Message, e.Details = b.Status, b.Code, b.Error, rawDetails(b.Details)
			}
			if e.Status == 0 {
				e.Status = http.StatusBadGateway
			}
			return &exitError{code: ExitFailed, msg: "deploy failed: " + e.Describe()}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if bar {
		fmt.Fprintln(c.out())
	}
	if result == nil {
		return failed("the deploy stream ended without a result")
	}
	if c.has("json") {
		writeIndented(c.out(), result)
		return nil
	}
	var d edgeflow.DeployResult
	if err := json.Unmarshal(result, &d); err != nil {
		return fmt.Errorf("reading the deploy result: %w", err)
	}
	fmt.Fprintf(c.out(), "Deployed %q (deployment %s)", w.Name, d.ID)
	if d.URL != "" {
		fmt.Fprintf(c.out(), ": %s", d.URL)
	}
	fmt.Fprintln(c.out())
	return nil
}

// progressBar draws percent as a bar of width cells.
func progressBar(percent, width int) string {
	percent = min(max(percent, 0), 100)
	full := percent * width / 100
	return "[" + strings.Repeat("#", full) + strings.Repeat("-", width-full) + "]"
}

// readSSE reads a text/event-stream and calls fn with each event's name
// and data; it ends at the stream's end or at fn's first error.
func readSSE(r io.Reader, fn func(event string, data []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxAnswer)
	event, data := "", []byte(nil)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != nil {
				name := event
				if name == "" {
					name = "message"
				}
				if err := fn(name, data); err != nil {
					return err
				}
			}
			event, data = "", nil
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			d := strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, d...)
		}
	}
	return sc.Err()
}

func triggerCommand() *command {
	return &command{
		name: "trigger", summary: "start a run of a deployed workflow", args: "WORKFLOW", minArgs: 1, maxArgs: 1,
		about: `Starts a run with the given params on the connection or in the environment (default: where the
workflow is deployed, when that is one connection) and prints the run's id, or with --wait follows the run and prints its output as JSON; a run that errors
or is terminated prints its error and exits 1.`,
		flags: []flagDef{
			{name: "connection", short: "c", value: "CONNECTION", usage: "the connection (name or id; default: the active deployment's)"},
			{name: "env", short: "e", value: "ENV", usage: "the environment to run in (instead of --connection)"},
			{name: "params", short: "p", value: "JSON|@FILE", usage: "the run's params: JSON, @FILE, or @- for standard input"},
			{name: "wait", usage: "wait for the run to end and print its output"},
			{name: "batch", value: "FILE.jsonl", usage: "start one run per line of FILE ({\"params\": {...}, \"id\"?: \"...\"}; - for standard input)"},
			jsonFlag,
		},
		examples: []string{
			"edgeflow trigger orders --params '{\"orderId\": 42}'",
			"edgeflow trigger orders --params @order.json --wait",
			"edgeflow trigger orders --env staging --params '{\"orderId\": 42}'",
			"edgeflow trigger orders --batch orders.jsonl",
		},
		run: runTrigger,
	}
}

func runTrigger(c *call) error {
	if c.has("batch") && (c.has("params") || c.has("wait")) {
		return usageError("--batch takes the params from its file and does not wait: leave out --params and --wait")
	}
	if c.has("connection") && c.has("env") {
		return usageError("give --connection or --env, not both")
	}
	var params json.RawMessage
	if c.has("params") {
		var err error
		if params, err = jsonArg(c, "params"); err != nil {
			return err
		}
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	body, err := triggerTarget(c, cl, w)
	if err != nil {
		return err
	}
	if c.has("batch") {
		return runTriggerBatch(c, cl, w, body)
	}
	if params != nil {
		body["params"] = params
	}
	var r edgeflow.TriggerResult
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+w.ID+"/trigger", nil, body, &r); err != nil {
		return err
	}
	return reportStarted(c, cl, r.ID, r)
}

// triggerTarget is where a trigger goes, as the request body names it:
// {"environment": --env}, or {"connectionId": …} of triggerConnection.
func triggerTarget(c *call, cl *client, w *workflow) (map[string]any, error) {
	if c.has("env") {
		return map[string]any{"environment": c.flag("env")}, nil
	}
	connID, err := triggerConnection(c, cl, w)
	if err != nil {
		return nil, err
	}
	return map[string]any{"connectionId": connID}, nil
}

// triggerConnection is the connection --connection names, or the one of the
// workflow's active deployment.
func triggerConnection(c *call, cl *client, w *workflow) (string, error) {
	if ref := c.flag("connection"); ref != "" {
		conn, err := connectionByRef(c.ctx, cl, ref)
		if err != nil {
			return "", err
		}
		return conn.ID, nil
	}
	deps, err := listAll[deployment](c.ctx, cl, "/api/workflows/"+w.ID+"/deployments", nil, 0)
	if err != nil {
		return "", err
	}
	var active []deployment
	for _, d := range deps {
		if d.Status == "active" {
			active = append(active, d)
		}
	}
	switch len(active) {
	case 0:
		return "", failed("workflow %q is not deployed: edgeflow deploy %s --connection C deploys it", w.Name, w.Name)
	case 1:
		return active[0].ConnectionID, nil
	}
	return "", usageError("workflow %q is deployed on %d connections: choose one with --connection or --env", w.Name, len(active))
}

func sendEventCommand() *command {
	return &command{
		name: "send-event", summary: "send an event to a run waiting for it, or by type to every waiting run", args: "[RUN]", maxArgs: 1,
		about: `With RUN, delivers the event to that run. Without it, sends the event by type to every run of the project
(or of --workflow) paused on a wait_for_event node of that type, keeps it on the project's Events list
(edgeflow events ls) and prints the runs it went to (docs/api.md, "POST /api/events"). Exit 1 when a delivery
failed.`,
		flags: []flagDef{
			{name: "type", short: "t", value: "TYPE", usage: "the event type the runs wait for"},
			{name: "payload", value: "JSON|@FILE", usage: "the event's payload: JSON, @FILE, or @- for standard input"},
			{name: "workflow", short: "w", value: "WORKFLOW", usage: "without RUN: only this workflow's waiting runs"},
			jsonFlag,
		},
		examples: []string{"edgeflow send-event run_4m8x2c6v1b9n3k7q5wkl --type approval --payload '{\"approved\": true}'",
			"edgeflow send-event --type payment.settled --payload '{\"orderId\": 42}'",
			"edgeflow send-event --type approval --workflow orders --payload @approval.json"},
		run: runSendEvent,
	}
}

func runSendEvent(c *call) error {
	if c.flag("type") == "" {
		return usageError("--type is required")
	}
	if len(c.args) == 1 && c.has("workflow") {
		return usageError("--workflow goes with a send by type (no RUN): a run already names its workflow")
	}
	payload := json.RawMessage("{}")
	if c.has("payload") {
		var err error
		if payload, err = jsonArg(c, "payload"); err != nil {
			return err
		}
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	if len(c.args) == 0 {
		return sendEventByType(c, cl, payload)
	}
	r, err := runByID(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	params, err := json.Marshal(map[string]any{"instanceId": r.InstanceID, "eventType": c.flag("type"), "payload": payload})
	if err != nil {
		return err
	}
	body := map[string]any{"connectionId": r.ConnectionID, "params": json.RawMessage(params)}
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+r.WorkflowID+"/trigger", nil, body, nil); err != nil {
		return err
	}
	fmt.Fprintf(c.out(), "Sent event %q to run %s.\n", c.flag("type"), r.ID)
	return nil
}

// inFlightFlag puts --in-flight (pin, migrate or drain) in a deploy's or a
// rollback's body as inFlight; without the flag the server's default holds.
func inFlightFlag(c *call, body map[string]any) error {
	switch mode := c.flag("in-flight"); mode {
	case "":
	case "pin", "migrate", "drain":
		body["inFlight"] = mode
	default:
		return usageError("--in-flight must be pin, migrate or drain")
	}
	return nil
}

// deployPlan is the deploy plan (GET …/deploy-plan, the first frame of
// deploy-stream; docs/releases.md).
type deployPlan = edgeflow.DeployPlan

// showDeployPlan prints the plan of deploying versionID (nil: the current
// version) of the workflow to the connection, and deploys nothing.
func showDeployPlan(c *call, cl *client, w *workflow, conn *connection, versionID any) error {
	q := url.Values{"connectionId": {conn.ID}}
	version, _ := versionID.(string)
	if version != "" {
		q.Set("versionId", version)
	}
	var raw json.RawMessage
	if err := cl.request(c.ctx, http.MethodGet, "/api/workflows/"+w.ID+"/deploy-plan", q, nil, &raw); err != nil {
		return err
	}
	est, err := fetchEstimate(c, cl, w, conn, version)
	if err != nil {
		return err
	}
	if c.has("json") {
		b, _ := json.Marshal(map[string]any{"plan": raw, "estimate": est})
		writeIndented(c.out(), b)
		return nil
	}
	var plan deployPlan
	if err := json.Unmarshal(raw, &plan); err != nil {
		return fmt.Errorf("reading the deploy plan: %w", err)
	}
	printDeployPlan(c.out(), plan)
	fmt.Fprintln(c.out())
	printEstimate(c.out(), w.Name, conn.Name, est)
	return nil
}

// printDeployPlan writes the whole plan: runs in flight by version, every
// step change, and whether runs in flight could move onto the version.
func printDeployPlan(w io.Writer, plan deployPlan) {
	printDeployPlanSummary(w, plan)
	for _, v := range plan.InFlight.ByVersion {
		fmt.Fprintf(w, "  version %d: %d in flight\n", v.Number, v.Count)
	}
	if len(plan.Changes) == 0 {
		fmt.Fprintln(w, "No step changes from the active version.")
	} else {
		fmt.Fprintln(w, "Step changes from the active version:")
		for _, ch := range plan.Changes {
			fmt.Fprintf(w, "  %-15s %-30q %s\n", ch.Kind, ch.Step, ch.Detail)
		}
	}
	for _, r := range plan.Reasons {
		fmt.Fprintf(w, "  - %s\n", r)
	}
}

// printDeployPlanSummary writes the plan's first line.
func printDeployPlanSummary(w io.Writer, plan deployPlan) {
	verdict := "compatible: runs in flight could move onto it (--in-flight migrate)"
	if !plan.Compatible {
		verdict = "not compatible: runs in flight stay on their version (pin) or must finish first (drain)"
	}
	fmt.Fprintf(w, "Plan for version %d: %d runs in flight; %s\n", plan.Number, plan.InFlight.Total, verdict)
}

func rollbackCommand() *command {
	return &command{
		name: "rollback", summary: "deploy again the version that was active on a connection before the current one", args: "WORKFLOW",
		minArgs: 1, maxArgs: 1,
		about: `Deploys again the version that was active on the connection before the current one (docs/releases.md,
"Rollback"). Runs in flight of the current version stay on it unless --in-flight says migrate or drain. Exit 1
when there is nothing to roll back to or the deploy fails.`,
		flags: []flagDef{
			{name: "connection", short: "c", value: "CONNECTION", usage: "the connection (name or id) to roll back"},
			{name: "env", short: "e", value: "ENV", usage: "the environment to roll back (instead of --connection)"},
			{name: "in-flight", value: "pin|migrate|drain", usage: "what happens to runs in flight of the current version (default pin)"},
			jsonFlag,
		},
		examples: []string{"edgeflow rollback orders --env production", "edgeflow rollback orders --connection cf-prod"},
		run:      runRollback,
	}
}

func runRollback(c *call) error {
	if c.has("connection") == c.has("env") {
		return usageError("give --connection or --env")
	}
	body := map[string]any{}
	if err := inFlightFlag(c, body); err != nil {
		return err
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	conn, err := deployTarget(c, cl, body)
	if err != nil {
		return err
	}
	where := conn.Name
	if c.has("env") {
		where = c.flag("env")
	}
	var raw json.RawMessage
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+w.ID+"/rollback", nil, body, &raw); err != nil {
		return err
	}
	if c.has("json") {
		writeIndented(c.out(), raw)
		return nil
	}
	var d edgeflow.DeployResult
	if err := json.Unmarshal(raw, &d); err != nil {
		return fmt.Errorf("reading the rollback result: %w", err)
	}
	label := d.VersionID
	if v, err := versionByRef(c.ctx, cl, w, d.VersionID); err == nil {
		label = fmt.Sprintf("%d", v.Version)
	}
	fmt.Fprintf(c.out(), "Rolled %q on %q back to version %s (deployment %s)\n", w.Name, where, label, d.ID)
	return nil
}

// deployTarget puts the target of a deploy, rollback or takedown in its
// request body (--env as environment, else --connection as connectionId;
// the caller has checked that exactly one is given) and answers the
// connection it names.
func deployTarget(c *call, cl *client, body map[string]any) (*connection, error) {
	if c.has("env") {
		conn, err := environmentConnection(c, cl, c.flag("env"))
		if err != nil {
			return nil, err
		}
		body["environment"] = c.flag("env")
		return conn, nil
	}
	conn, err := connectionByRef(c.ctx, cl, c.flag("connection"))
	if err != nil {
		return nil, err
	}
	body["connectionId"] = conn.ID
	return conn, nil
}

func takedownCommand() *command {
	return &command{
		name: "takedown", summary: "take a workflow's deployment down from a connection or environment", args: "WORKFLOW",
		minArgs: 1, maxArgs: 1,
		about: `Deletes the deployed worker (and its Workflow) from the connection or the environment's connection and
removes the deployment (docs/deploy.md, "Take a deployment down"); the workflow, its versions and its runs stay.
Runs still in flight there stop with the worker. A takedown from a protected environment needs an admin. Without
--yes the command asks for confirmation on standard input. Exit 1 when nothing is deployed there.`,
		flags: []flagDef{
			{name: "connection", short: "c", value: "CONNECTION", usage: "the connection (name or id) to take the workflow down from"},
			{name: "env", short: "e", value: "ENV", usage: "the environment to take the workflow down from (instead of --connection)"},
			{name: "yes", short: "y", usage: "do not ask for confirmation"},
			jsonFlag,
		},
		examples: []string{"edgeflow takedown orders --env staging", "edgeflow takedown orders --connection local --yes"},
		run:      runTakedown,
	}
}

func runTakedown(c *call) error {
	if c.has("connection") == c.has("env") {
		return usageError("give --connection or --env")
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	body := map[string]any{}
	conn, err := deployTarget(c, cl, body)
	if err != nil {
		return err
	}
	where := fmt.Sprintf("%q", conn.Name)
	if c.has("env") {
		where = fmt.Sprintf("environment %q (connection %q)", c.flag("env"), conn.Name)
	}
	if !c.has("yes") {
		ok, err := confirm(c, fmt.Sprintf("Take workflow %q down from %s? Runs in flight there stop.", w.Name, where))
		if err != nil {
			return err
		}
		if !ok {
			return failed("not taken down")
		}
	}
	var raw json.RawMessage
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+w.ID+"/takedown", nil, body, &raw); err != nil {
		return err
	}
	if c.has("json") {
		writeIndented(c.out(), raw)
		return nil
	}
	fmt.Fprintf(c.out(), "Took %q down from %s.\n", w.Name, where)
	return nil
}
