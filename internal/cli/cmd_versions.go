package cli

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

func versionsCommand() *command {
	return &command{
		name:    "versions",
		summary: "list, show, lock, unlock, revert and compare versions",
		subs: []*command{
			{
				name: "ls", summary: "list a workflow's versions, highest first", args: "WORKFLOW", minArgs: 1, maxArgs: 1,
				flags:    []flagDef{jsonFlag},
				examples: []string{"edgeflow versions ls orders"},
				run:      runVersionsList,
			},
			{
				name: "show", summary: "show a version (default: the current one)", args: "WORKFLOW [VERSION]", minArgs: 1, maxArgs: 2,
				about: "Shows a version by number or id (default: the workflow's current version); --ir prints its IR as pull writes it, --code the generated TypeScript.",
				flags: []flagDef{
					jsonFlag,
					{name: "ir", usage: "print the IR only"},
					{name: "code", usage: "print the generated TypeScript only"},
				},
				examples: []string{"edgeflow versions show orders 3", "edgeflow versions show orders --ir > orders.ir.json"},
				run:      runVersionShow,
			},
			{
				name: "lock", summary: "lock a version (it cannot be deleted)", args: "WORKFLOW VERSION", minArgs: 2, maxArgs: 2,
				examples: []string{"edgeflow versions lock orders 3"},
				run:      func(c *call) error { return setLocked(c, true) },
			},
			{
				name: "unlock", summary: "unlock a version", args: "WORKFLOW VERSION", minArgs: 2, maxArgs: 2,
				examples: []string{"edgeflow versions unlock orders 3"},
				run:      func(c *call) error { return setLocked(c, false) },
			},
			{
				name: "revert", summary: "make a new version holding an earlier version's IR", args: "WORKFLOW VERSION", minArgs: 2, maxArgs: 2,
				examples: []string{"edgeflow versions revert orders 2"},
				run:      runVersionRevert,
			},
			{
				name: "diff", summary: "compare the IR of two versions (exit 0 whether or not they differ)", args: "WORKFLOW A B", minArgs: 3, maxArgs: 3,
				about:    "Prints a unified diff of two versions' IR (as pull writes them); nothing when they are the same. The exit status is 0 either way.",
				examples: []string{"edgeflow versions diff orders 2 3"},
				run:      runVersionDiff,
			},
		},
	}
}

func runVersionsList(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	all, err := listAll[versionSummary](c.ctx, cl, "/api/workflows/"+w.ID+"/versions", nil, 0)
	if err != nil {
		return err
	}
	if c.has("json") {
		if all == nil {
			all = []versionSummary{}
		}
		return printJSON(c.out(), all)
	}
	if len(all) == 0 {
		fmt.Fprintf(c.out(), "Workflow %q has no versions yet: edgeflow push creates one from a file.\n", w.Name)
		return nil
	}
	t := newTable(c.out(), false, "VERSION", "ID", "LOCKED", "CURRENT", "DEPLOYED", "CREATED")
	for _, v := range all {
		t.row(strconv.Itoa(v.Version), v.ID, yesNo(v.Locked), yesNo(w.CurrentVersionID == v.ID),
			yesNo(w.ActiveVersionID == v.ID), stamp(v.CreatedAt))
	}
	return t.flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}

// versionArg resolves the workflow and the version the arguments name
// (the current version when the version is not given).
func versionArg(c *call, cl *client, wref string, vref string) (*workflow, *version, error) {
	w, err := workflowByRef(c.ctx, cl, wref)
	if err != nil {
		return nil, nil, err
	}
	if vref == "" {
		v, err := currentVersion(c.ctx, cl, w)
		if err != nil {
			return nil, nil, err
		}
		if v == nil {
			return nil, nil, notFound("workflow %q has no versions yet", w.Name)
		}
		return w, v, nil
	}
	v, err := versionByRef(c.ctx, cl, w, vref)
	return w, v, err
}

func runVersionShow(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	vref := ""
	if len(c.args) == 2 {
		vref = c.args[1]
	}
	w, v, err := versionArg(c, cl, c.args[0], vref)
	if err != nil {
		return err
	}
	switch {
	case c.has("ir") && c.has("code"):
		return usageError("give --ir or --code, not both")
	case c.has("ir"):
		ir, err := canonicalIR(v.IR)
		if err != nil {
			return err
		}
		_, err = c.out().Write(ir)
		return err
	case c.has("code"):
		_, err := fmt.Fprintln(c.out(), strings.TrimRight(v.Code, "\n"))
		return err
	case c.has("json"):
		return printJSON(c.out(), v)
	}
	t := newTable(c.out(), false, "", "")
	t.row("workflow", w.Name)
	t.row("version", strconv.Itoa(v.Version))
	t.row("id", v.ID)
	t.row("locked", yesNo(v.Locked))
	t.row("marketplace nodes", orDash(strings.Join(v.NodeTypes, ", ")))
	t.row("created", stamp(v.CreatedAt))
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintf(c.out(), "\nRun with --ir for the IR, --code for the generated TypeScript.\n")
	return nil
}

func setLocked(c *call, locked bool) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, v, err := versionArg(c, cl, c.args[0], c.args[1])
	if err != nil {
		return err
	}
	if err := cl.request(c.ctx, http.MethodPatch, "/api/workflows/"+w.ID+"/versions/"+v.ID, nil, map[string]bool{"locked": locked}, nil); err != nil {
		return err
	}
	word := "Unlocked"
	if locked {
		word = "Locked"
	}
	fmt.Fprintf(c.out(), "%s version %d of %q.\n", word, v.Version, w.Name)
	return nil
}

func runVersionRevert(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, v, err := versionArg(c, cl, c.args[0], c.args[1])
	if err != nil {
		return err
	}
	var nv versionSummary
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+w.ID+"/versions/"+v.ID+"/revert", nil, nil, &nv); err != nil {
		return err
	}
	fmt.Fprintf(c.out(), "Version %d of %q holds the IR of version %d.\n", nv.Version, w.Name, v.Version)
	return nil
}

func runVersionDiff(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, a, err := versionArg(c, cl, c.args[0], c.args[1])
	if err != nil {
		return err
	}
	b, err := versionByRef(c.ctx, cl, w, c.args[2])
	if err != nil {
		return err
	}
	ia, err := canonicalIR(a.IR)
	if err != nil {
		return err
	}
	ib, err := canonicalIR(b.IR)
	if err != nil {
		return err
	}
	d := unifiedDiff(fmt.Sprintf("%s version %d", w.Name, a.Version), fmt.Sprintf("%s version %d", w.Name, b.Version), ia, ib)
	if d == "" {
		fmt.Fprintf(c.env.Stderr, "Versions %d and %d of %q have the same IR.\n", a.Version, b.Version, w.Name)
		return nil
	}
	if c.env.color() {
		d = colorDiff(d)
	}
	_, err = fmt.Fprint(c.out(), d)
	return err
}

// colorDiff paints removed lines red and added lines green.
func colorDiff(d string) string {
	lines := strings.SplitAfter(d, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			lines[i] = ansiRed + strings.TrimSuffix(l, "\n") + ansiReset + "\n"
		case strings.HasPrefix(l, "+"):
			lines[i] = ansiGreen + strings.TrimSuffix(l, "\n") + ansiReset + "\n"
		}
	}
	return strings.Join(lines, "")
}
