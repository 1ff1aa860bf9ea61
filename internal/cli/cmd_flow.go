package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// batchSize is the most runs one batch trigger request carries (the API's
// limit); a longer file is sent in several requests, which the server paces
// to the provider's creation rate.
const batchSize = 100

// maxBatchLine bounds one line of a --batch file: params of 100 KB with
// room for the id around them.
const maxBatchLine = 128 << 10

// runTriggerBatch starts one run per line of the --batch file (JSON Lines,
// each line {"params": {...}, "id"?: "..."}; "-" reads standard input) and
// prints the runs created and the lines refused, by line number. Exit 1
// when a line was refused. target names the connection or the environment
// (triggerTarget).
func runTriggerBatch(c *call, cl *client, w *workflow, target map[string]any) error {
	runs, lines, err := readBatchFile(c)
	if err != nil {
		return err
	}
	all := edgeflow.BatchTriggerResult{Created: []edgeflow.BatchCreated{}, Errors: []edgeflow.BatchError{}}
	for start := 0; start < len(runs); start += batchSize {
		part := runs[start:min(start+batchSize, len(runs))]
		var r edgeflow.BatchTriggerResult
		body := map[string]any{"runs": part}
		for k, v := range target {
			body[k] = v
		}
		if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+w.ID+"/trigger/batch", nil, body, &r); err != nil {
			return err
		}
		for _, x := range r.Created {
			x.Index += start
			all.Created = append(all.Created, x)
		}
		for _, x := range r.Errors {
			x.Index += start
			all.Errors = append(all.Errors, x)
		}
	}
	if c.has("json") {
		b, _ := json.Marshal(all)
		writeIndented(c.out(), b)
	} else {
		for _, x := range all.Created {
			fmt.Fprintf(c.out(), "line %d: run %s (instance %s)\n", lines[x.Index], x.ID, x.InstanceID)
		}
		for _, x := range all.Errors {
			fmt.Fprintf(c.out(), "line %d: %s: %s\n", lines[x.Index], x.Code, x.Message)
		}
		fmt.Fprintf(c.out(), "%d runs started, %d lines refused\n", len(all.Created), len(all.Errors))
	}
	if len(all.Errors) > 0 {
		return &exitError{code: ExitFailed, msg: fmt.Sprintf("%d of %d lines were refused", len(all.Errors), len(runs))}
	}
	return nil
}

// readBatchFile reads the --batch file: one JSON object per line, blank
// lines skipped; lines are the file's line number of each run.
func readBatchFile(c *call) (runs []json.RawMessage, lines []int, err error) {
	name := c.flag("batch")
	var r io.Reader = c.env.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, nil, usageError("--batch: %v", err)
		}
		defer f.Close()
		r = f
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxBatchLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if !json.Valid(line) || line[0] != '{' {
			return nil, nil, usageError("--batch line %d is not a JSON object ({\"params\": {...}, \"id\"?: \"...\"})", n)
		}
		runs = append(runs, append(json.RawMessage(nil), line...))
		lines = append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, usageError("--batch: %v (a line may be at most %d bytes)", err, maxBatchLine)
	}
	if len(runs) == 0 {
		return nil, nil, usageError("--batch holds no runs")
	}
	return runs, lines, nil
}

// fetchEstimate reads what --runs-per-month runs a month (default 100,000)
// of the version (the current one when "") cost on the connection's plan.
func fetchEstimate(c *call, cl *client, w *workflow, conn *connection, versionID string) (*edgeflow.Estimate, error) {
	runs := int64(100_000)
	if v := c.flag("runs-per-month"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return nil, usageError("--runs-per-month must be a whole number")
		}
		runs = n
	}
	q := url.Values{"connectionId": {conn.ID}, "runsPerMonth": {strconv.FormatInt(runs, 10)}}
	if versionID != "" {
		q.Set("versionId", versionID)
	}
	var est edgeflow.Estimate
	if err := cl.request(c.ctx, http.MethodGet, "/api/workflows/"+w.ID+"/estimate", q, nil, &est); err != nil {
		return nil, err
	}
	return &est, nil
}

// printEstimate writes an estimate for people: the steps of a run and the
// month's cost, with the pricing's source.
func printEstimate(out io.Writer, workflow, connection string, e *edgeflow.Estimate) {
	rng := func(r edgeflow.StepRange) string {
		switch {
		case r.Max == nil:
			return fmt.Sprintf("at least %d (a loop has no bound)", r.Min)
		case *r.Max == r.Min:
			return strconv.FormatInt(r.Min, 10)
		}
		return fmt.Sprintf("%d to %d", r.Min, *r.Max)
	}
	fmt.Fprintf(out, "Plan for %q on %q (%s plan); nothing was deployed\n", workflow, connection, e.Plan)
	fmt.Fprintf(out, "  steps per run:        %s\n", rng(e.StepsPerRun))
	fmt.Fprintf(out, "  billed steps per run: %s (sleeps and waits count)\n", rng(e.BilledStepsPerRun))
	fmt.Fprintf(out, "  %d runs a month:      %d steps, %d included, %d billable", e.RunsPerMonth, e.Monthly.Steps, e.Monthly.Included, e.Monthly.Billable)
	if e.Plan == edgeflow.PlanFree {
		fmt.Fprintf(out, " (the Free plan does not run them)\n")
	} else {
		fmt.Fprintf(out, ": $%.2f\n", e.Monthly.USD)
	}
	for _, w := range e.Warnings {
		fmt.Fprintf(out, "  warning: %s\n", w.Message)
	}
	fmt.Fprintf(out, "  pricing of %s: %s\n", e.Pricing.Date, e.Pricing.Source)
}
