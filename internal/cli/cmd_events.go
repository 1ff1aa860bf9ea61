package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Events sent by type to a project's waiting runs (docs/api.md, "Events").

func eventsCommand() *command {
	return &command{
		name:    "events",
		summary: "list, show and replay the events sent by type to the project's waiting runs",
		subs: []*command{
			{name: "ls", summary: "list the project's sent events, newest first", maxArgs: 0,
				flags:    []flagDef{{name: "limit", short: "n", value: "N", usage: "at most N events (default 20)"}, jsonFlag},
				examples: []string{"edgeflow events ls", "edgeflow events ls --limit 100 --json"}, run: runEventsList},
			{name: "show", summary: "show a sent event with its payload and the runs it went to", args: "EVENT", minArgs: 1, maxArgs: 1,
				flags: []flagDef{jsonFlag}, examples: []string{"edgeflow events show evt_4m8x2c6v1b9n3k7q5wkl"}, run: runEventsShow},
			{name: "replay", summary: "send a sent event again, to the runs waiting for its type now", args: "EVENT", minArgs: 1, maxArgs: 1,
				flags: []flagDef{jsonFlag}, examples: []string{"edgeflow events replay evt_4m8x2c6v1b9n3k7q5wkl"}, run: runEventsReplay},
		},
	}
}

// sendEventByType sends the event of --type with payload to every waiting
// run of the project (or of --workflow) and prints where it went.
func sendEventByType(c *call, cl *client, payload json.RawMessage) error {
	body := map[string]any{"type": c.flag("type"), "payload": payload}
	if ref := c.flag("workflow"); ref != "" {
		w, err := workflowByRef(c.ctx, cl, ref)
		if err != nil {
			return err
		}
		body["workflowId"] = w.ID
	}
	var e edgeflow.SentEvent
	if err := cl.request(c.ctx, http.MethodPost, "/api/events", nil, body, &e); err != nil {
		return err
	}
	return printSentEvent(c, cl, e, "Sent")
}

func runEventsList(c *call) error {
	limit := 20
	if c.has("limit") {
		n, err := strconv.Atoi(c.flag("limit"))
		if err != nil || n < 0 {
			return usageError("--limit is a number of events, not %q", c.flag("limit"))
		}
		limit = n
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	events, err := listAll[edgeflow.SentEvent](c.ctx, cl, "/api/events", url.Values{}, limit)
	if err != nil {
		return err
	}
	if c.has("json") {
		if events == nil {
			events = []edgeflow.SentEvent{}
		}
		return printJSON(c.out(), events)
	}
	if len(events) == 0 {
		fmt.Fprintln(c.out(), "No events were sent by type yet (edgeflow send-event --type T).")
		return nil
	}
	t := newTable(c.out(), false, "ID", "TYPE", "SENT", "RUNS", "REPLAY OF")
	for _, e := range events {
		runs := strconv.Itoa(len(e.Runs))
		if e.Truncated {
			runs += "+"
		}
		t.row(e.ID, e.Type, stamp(e.CreatedAt), runs, orDash(e.ReplayOf))
	}
	return t.flush()
}

func runEventsShow(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	var e edgeflow.SentEvent
	if err := cl.request(c.ctx, http.MethodGet, "/api/events/"+url.PathEscape(c.args[0]), nil, nil, &e); err != nil {
		return err
	}
	if c.has("json") {
		return printJSON(c.out(), e)
	}
	fmt.Fprintf(c.out(), "Event %s, type %q, sent %s", e.ID, e.Type, stamp(e.CreatedAt))
	if e.ReplayOf != "" {
		fmt.Fprintf(c.out(), " (a replay of %s)", e.ReplayOf)
	}
	fmt.Fprintln(c.out())
	fmt.Fprintf(c.out(), "Payload: %s\n", e.Payload)
	return printEventRuns(c, cl, e)
}

func runEventsReplay(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	var e edgeflow.SentEvent
	if err := cl.request(c.ctx, http.MethodPost, "/api/events/"+url.PathEscape(c.args[0])+"/replay", nil, nil, &e); err != nil {
		return err
	}
	return printSentEvent(c, cl, e, "Replayed")
}

// printSentEvent prints a sent (or replayed) event and the runs it went
// to; a failed delivery makes the command's exit status 1.
func printSentEvent(c *call, cl *client, e edgeflow.SentEvent, verb string) error {
	if c.has("json") {
		if err := printJSON(c.out(), e); err != nil {
			return err
		}
	} else {
		if len(e.Runs) == 0 {
			fmt.Fprintf(c.out(), "%s event %q (%s): no run was waiting for it.\n", verb, e.Type, e.ID)
			return nil
		}
		fmt.Fprintf(c.out(), "%s event %q (%s) to %d runs:\n", verb, e.Type, e.ID, len(e.Runs))
		if err := printEventRuns(c, cl, e); err != nil {
			return err
		}
	}
	failedRuns := 0
	for _, r := range e.Runs {
		if r.State != "delivered" {
			failedRuns++
		}
	}
	if failedRuns > 0 {
		return failed("the event could not be delivered to %d of its %d runs", failedRuns, len(e.Runs))
	}
	return nil
}

// printEventRuns prints the runs an event went to, with their workflows'
// names, and says when more runs were waiting than one send wakes.
func printEventRuns(c *call, cl *client, e edgeflow.SentEvent) error {
	if len(e.Runs) == 0 {
		fmt.Fprintln(c.out(), "No run was waiting for it.")
		return nil
	}
	names := map[string]string{}
	runs := make([]run, len(e.Runs))
	for i, r := range e.Runs {
		runs[i].WorkflowID = r.WorkflowID
	}
	if err := workflowNames(c, cl, names, runs); err != nil {
		return err
	}
	t := newTable(c.out(), false, "RUN", "WORKFLOW", "DELIVERY")
	color := c.env.color()
	for _, r := range e.Runs {
		state := r.State
		if r.Error != "" {
			state += ": " + r.Error
		}
		t.row(r.RunID, orDash(names[r.WorkflowID]), paint(color && r.Error == "", state))
	}
	if err := t.flush(); err != nil {
		return err
	}
	if e.Truncated {
		fmt.Fprintln(c.out(), "More runs were waiting than one send wakes: send it again for the rest.")
	}
	return nil
}
