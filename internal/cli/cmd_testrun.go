package cli

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testCommand() *command {
	return &command{
		name: "test", summary: "run a version once on the local edge, without deploying it", args: "WORKFLOW", minArgs: 1, maxArgs: 1,
		about: `Runs the workflow's current version (or --version) once on the server's local edge under a temporary
name, with the given params; --mocks gives step outputs (by node id) to use instead of running those steps.
Nothing is deployed and nothing is kept. Prints a table of the steps and the output (or the error); the exit
status is 0 when the run completes and 1 otherwise, so a CI job can gate a deploy on it.`,
		flags: []flagDef{
			{name: "version", value: "VERSION", usage: "the version (number or id; default: the current one)"},
			{name: "params", short: "p", value: "JSON|@FILE", usage: "the run's params: JSON, @FILE, or @- for standard input"},
			{name: "mocks", value: "JSON|@FILE", usage: "step outputs by node id, e.g. {\"charge\": {\"ok\": true}}"},
			{name: "timeout", value: "SECONDS", usage: "stop the run after this many seconds (default 120, at most 600)"},
			jsonFlag,
		},
		examples: []string{
			"edgeflow test orders --params '{\"orderId\": 42}'",
			"edgeflow test orders --version 4 --params @order.json --mocks @mocks.json",
		},
		run: runTest,
	}
}

func runTest(c *call) error {
	body := map[string]any{}
	if c.has("params") {
		p, err := jsonArg(c, "params")
		if err != nil {
			return err
		}
		body["params"] = p
	}
	if c.has("mocks") {
		m, err := jsonArg(c, "mocks")
		if err != nil {
			return err
		}
		body["mocks"] = m
	}
	if c.has("timeout") {
		n, err := strconv.Atoi(c.flag("timeout"))
		if err != nil || n < 1 {
			return usageError("--timeout is a number of seconds, not %q", c.flag("timeout"))
		}
		body["timeoutSeconds"] = n
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, v, err := versionArg(c, cl, c.args[0], c.flag("version"))
	if err != nil {
		return err
	}
	var res edgeflow.TestResult
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+w.ID+"/versions/"+v.ID+"/test", nil, body, &res); err != nil {
		return err
	}
	if c.has("json") {
		if err := printJSON(c.out(), res); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(c.out(), "Test of %q version %d: %s in %dms\n\n", w.Name, v.Version, paint(c.env.color(), res.Status), res.DurationMs)
		if err := printSteps(c, res.Steps); err != nil {
			return err
		}
		if len(res.Logs) > 0 {
			fmt.Fprintln(c.out(), "\nLogs:")
			for _, l := range res.Logs {
				fmt.Fprintf(c.out(), "  %s %-5s %s\n", l.Timestamp.Format(time.RFC3339Nano), l.Level, l.Message)
			}
		}
		if len(res.Output) > 0 && string(res.Output) != "null" {
			fmt.Fprintln(c.out(), "\nOutput:")
			writeIndented(c.out(), res.Output)
		}
	}
	if res.Status != "complete" {
		msg := "no error message"
		if res.Error != nil {
			msg = *res.Error
		}
		fmt.Fprintf(c.env.Stderr, "test %s: %s\n", res.Status, msg)
		return quietFailure
	}
	return nil
}
