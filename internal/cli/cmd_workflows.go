package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func workflowsCommand() *command {
	return &command{
		name:    "workflows",
		summary: "list, show, create, delete and move workflows",
		subs: []*command{
			{
				name: "ls", summary: "list the project's workflows and functions", maxArgs: 0,
				flags:    []flagDef{jsonFlag},
				examples: []string{"edgeflow workflows ls", "edgeflow workflows ls --json"},
				run:      runWorkflowsList,
			},
			{
				name: "show", summary: "show one workflow", args: "WORKFLOW", minArgs: 1, maxArgs: 1,
				flags:    []flagDef{jsonFlag},
				examples: []string{"edgeflow workflows show orders"},
				run:      runWorkflowShow,
			},
			{
				name: "create", summary: "create a workflow (or a function with --kind script)", args: "NAME", minArgs: 1, maxArgs: 1,
				flags: []flagDef{
					{name: "description", value: "TEXT", usage: "what the workflow does"},
					{name: "kind", value: "KIND", usage: "workflow (default) or script (a function)"},
					jsonFlag,
				},
				examples: []string{"edgeflow workflows create orders --description \"Order fulfilment\""},
				run:      runWorkflowCreate,
			},
			{
				name: "rm", summary: "delete a workflow (its deployments are taken down first)", args: "WORKFLOW", minArgs: 1, maxArgs: 1,
				about: `Deletes a workflow with its versions, taking its deployments down first. Its runs are deleted too,
unless --runs keep keeps them (they stay listed by edgeflow runs ls and readable by edgeflow runs show).
Without --yes the command asks for confirmation on standard input.`,
				flags: []flagDef{
					{name: "yes", short: "y", usage: "do not ask for confirmation"},
					{name: "runs", value: "keep|delete", usage: "keep the workflow's runs, or delete them (the default)"},
				},
				examples: []string{"edgeflow workflows rm orders --yes", "edgeflow workflows rm orders --runs keep --yes"},
				run:      runWorkflowRemove,
			},
			{
				name: "mv", summary: "move a workflow to another project", args: "WORKFLOW PROJECT", minArgs: 2, maxArgs: 2,
				about:    "Moves a workflow, with its versions, deployments and runs, to another project of the organization (by name, slug or id).",
				examples: []string{"edgeflow workflows mv orders staging"},
				run:      runWorkflowMove,
			},
		},
	}
}

func runWorkflowsList(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	all, err := listAll[workflow](c.ctx, cl, "/api/workflows", nil, 0)
	if err != nil {
		return err
	}
	if c.has("json") {
		if all == nil {
			all = []workflow{}
		}
		return printJSON(c.out(), all)
	}
	if len(all) == 0 {
		fmt.Fprintln(c.out(), "No workflows in this project yet: edgeflow workflows create NAME makes one.")
		return nil
	}
	numbers, err := versionNumbers(c.ctx, cl, all)
	if err != nil {
		return err
	}
	t := newTable(c.out(), false, "NAME", "ID", "KIND", "VERSIONS", "CURRENT", "DEPLOYED", "UPDATED")
	for i, w := range all {
		n := numbers[i]
		current, deployed := "-", "no"
		if n.current > 0 {
			current = fmt.Sprintf("v%d", n.current)
		}
		if n.active > 0 {
			deployed = fmt.Sprintf("v%d", n.active)
		}
		t.row(w.Name, w.ID, w.Kind, strconv.Itoa(n.count), current, deployed, stamp(w.UpdatedAt))
	}
	return t.flush()
}

// workflowNumbers is what `workflows ls` prints of a workflow's versions:
// how many there are and the numbers of its current and deployed ones (0
// for none).
type workflowNumbers struct{ count, current, active int }

// versionNumbers reads the versions of each workflow (summaries only, eight
// workflows at a time) for workflowNumbers.
func versionNumbers(ctx context.Context, cl *client, all []workflow) ([]workflowNumbers, error) {
	out := make([]workflowNumbers, len(all))
	errs := make([]error, len(all))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, w := range all {
		if w.CurrentVersionID == "" {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			versions, err := listAll[versionSummary](ctx, cl, "/api/workflows/"+w.ID+"/versions", nil, 0)
			if err != nil {
				errs[i] = err
				return
			}
			n := workflowNumbers{count: len(versions)}
			for _, v := range versions {
				if v.ID == w.CurrentVersionID {
					n.current = v.Version
				}
				if v.ID == w.ActiveVersionID {
					n.active = v.Version
				}
			}
			out[i] = n
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func runWorkflowShow(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	var full edgeflow.WorkflowFull
	if err := cl.request(c.ctx, http.MethodGet, "/api/workflows/"+w.ID+"/full", nil, nil, &full); err != nil {
		return err
	}
	if c.has("json") {
		return printJSON(c.out(), w)
	}
	t := newTable(c.out(), false, "", "")
	t.row("name", w.Name)
	t.row("id", w.ID)
	t.row("kind", w.Kind)
	t.row("description", orDash(w.Description))
	t.row("versions", strconv.Itoa(len(full.Versions)))
	current := "-"
	for _, v := range full.Versions {
		if v.ID == w.CurrentVersionID {
			current = fmt.Sprintf("%d (%s)", v.Number, v.ID)
		}
	}
	t.row("current version", current)
	if d := full.ActiveDeployment; d != nil {
		deployed := d.VersionID
		for _, v := range full.Versions {
			if v.ID == d.VersionID {
				deployed = fmt.Sprintf("%d", v.Number)
			}
		}
		t.row("deployed", fmt.Sprintf("version %s on connection %s", deployed, d.ConnectionID))
		t.row("url", orDash(d.URL))
	} else {
		t.row("deployed", "-")
	}
	names := make([]string, 0, len(w.EnvVars))
	for _, e := range w.EnvVars {
		names = append(names, e.Name)
	}
	t.row("env vars", orDash(strings.Join(names, ", ")))
	t.row("created", stamp(w.CreatedAt))
	t.row("updated", stamp(w.UpdatedAt))
	return t.flush()
}

func runWorkflowCreate(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	kind := c.flag("kind")
	if c.has("kind") && kind != "workflow" && kind != "script" {
		return usageError("--kind is workflow or script, not %q", kind)
	}
	body := map[string]string{"name": c.args[0], "description": c.flag("description")}
	if kind != "" {
		body["kind"] = kind
	}
	var w workflow
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows", nil, body, &w); err != nil {
		return err
	}
	if c.has("json") {
		return printJSON(c.out(), w)
	}
	fmt.Fprintf(c.out(), "Created %s %q (%s).\n", w.Kind, w.Name, w.ID)
	return nil
}

func runWorkflowRemove(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	runs := c.flag("runs")
	if c.has("runs") && runs != "keep" && runs != "delete" {
		return usageError("--runs is keep or delete, not %q", runs)
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	what := "and its runs"
	if runs == "keep" {
		what = "keeping its runs"
	}
	if !c.has("yes") {
		ok, err := confirm(c, fmt.Sprintf("Delete workflow %q (%s) with its versions %s, taking its deployments down?", w.Name, w.ID, what))
		if err != nil {
			return err
		}
		if !ok {
			return failed("not deleted")
		}
	}
	var q url.Values
	if runs != "" {
		q = url.Values{"runs": {runs}}
	}
	if err := cl.request(c.ctx, http.MethodDelete, "/api/workflows/"+w.ID, q, nil, nil); err != nil {
		return err
	}
	if runs == "keep" {
		fmt.Fprintf(c.out(), "Deleted workflow %q; its runs are kept.\n", w.Name)
	} else {
		fmt.Fprintf(c.out(), "Deleted workflow %q and its runs.\n", w.Name)
	}
	return nil
}

// confirm asks a yes/no question on standard error and reads the answer
// from standard input; no answer (a closed input, as in CI) is a refusal
// that names --yes.
func confirm(c *call, question string) (bool, error) {
	fmt.Fprintf(c.env.Stderr, "%s [y/N] ", question)
	line, err := bufio.NewReader(c.env.Stdin).ReadString('\n')
	if err != nil && err != io.EOF {
		return false, err
	}
	if strings.TrimSpace(line) == "" && err == io.EOF {
		fmt.Fprintln(c.env.Stderr)
		return false, usageError("no answer on standard input: add --yes to confirm")
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

func runWorkflowMove(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	projects, err := listAll[project](c.ctx, cl, "/api/projects", nil, 0)
	if err != nil {
		return err
	}
	var target *project
	for i := range projects {
		if p := projects[i]; p.ID == c.args[1] || p.Name == c.args[1] || p.Slug == c.args[1] {
			target = &projects[i]
			break
		}
	}
	if target == nil {
		return notFound("no project named %q in this organization", c.args[1])
	}
	if err := cl.request(c.ctx, http.MethodPatch, "/api/workflows/"+url.PathEscape(w.ID)+"/move", nil, map[string]string{"targetProjectId": target.ID}, nil); err != nil {
		return err
	}
	fmt.Fprintf(c.out(), "Moved workflow %q to project %q.\n", w.Name, target.Name)
	return nil
}
