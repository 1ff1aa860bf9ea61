package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The project's environments, promotion between them (docs/environments.md).

func envsCommand() *command {
	envFlags := []flagDef{
		{name: "connection", short: "c", value: "CONNECTION", usage: "the connection (name or id) the environment deploys to"},
		{name: "protected", value: "true|false", usage: "whether only admins and owners may deploy, promote and roll back there"},
		jsonFlag,
	}
	return &command{
		name:    "envs",
		summary: "list, create, change and delete the project's environments",
		subs: []*command{
			{name: "ls", summary: "list the project's environments", maxArgs: 0, flags: []flagDef{jsonFlag},
				examples: []string{"edgeflow envs ls"}, run: runEnvsList},
			{name: "create", summary: "create an environment", args: "NAME", minArgs: 1, maxArgs: 1, flags: envFlags,
				examples: []string{"edgeflow envs create staging --connection staging-edge"}, run: runEnvsCreate},
			{name: "set", summary: "bind an environment to a connection, or protect it", args: "NAME", minArgs: 1, maxArgs: 1,
				flags:    envFlags,
				examples: []string{"edgeflow envs set production --connection cf-prod --protected true"}, run: runEnvsSet},
			{name: "rm", summary: "delete an environment (not production)", args: "NAME", minArgs: 1, maxArgs: 1,
				examples: []string{"edgeflow envs rm staging"}, run: runEnvsRemove},
		},
	}
}

// envsPath is the environments path of the caller's project.
func envsPath(c *call, cl *client) (string, error) {
	who, err := whoami(c, cl)
	if err != nil {
		return "", err
	}
	if who.Project == nil {
		return "", usageError("no project is selected: choose one with edgeflow projects use, or use an API key of a project")
	}
	return "/api/projects/" + url.PathEscape(who.Project.ID) + "/environments", nil
}

// environmentConnection is the connection the project's environment name
// is bound to.
func environmentConnection(c *call, cl *client, name string) (*connection, error) {
	path, err := envsPath(c, cl)
	if err != nil {
		return nil, err
	}
	var page struct {
		Data []edgeflow.Environment `json:"data"`
	}
	if err := cl.request(c.ctx, http.MethodGet, path, nil, nil, &page); err != nil {
		return nil, err
	}
	for _, e := range page.Data {
		if e.Name != name {
			continue
		}
		if e.ConnectionID == "" {
			return nil, failed("environment %s is bound to no connection: edgeflow envs set %s --connection CONNECTION", name, name)
		}
		return connectionByRef(c.ctx, cl, e.ConnectionID)
	}
	return nil, notFound("the project has no environment %q (edgeflow envs ls)", name)
}

func runEnvsList(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	path, err := envsPath(c, cl)
	if err != nil {
		return err
	}
	var page struct {
		Data []edgeflow.Environment `json:"data"`
	}
	var raw json.RawMessage
	if err := cl.request(c.ctx, http.MethodGet, path, nil, nil, &raw); err != nil {
		return err
	}
	if c.has("json") {
		writeIndented(c.out(), raw)
		return nil
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return fmt.Errorf("reading the environments: %w", err)
	}
	names := map[string]string{}
	if conns, err := listAll[connection](c.ctx, cl, "/api/connections", nil, 0); err == nil {
		for _, cn := range conns {
			names[cn.ID] = cn.Name
		}
	}
	t := newTable(c.out(), false, "NAME", "CONNECTION", "PROTECTED")
	for _, e := range page.Data {
		conn := "-"
		if e.ConnectionID != "" {
			conn = e.ConnectionID
			if n := names[e.ConnectionID]; n != "" {
				conn = n
			}
		}
		t.row(e.Name, conn, strconv.FormatBool(e.Protected))
	}
	return t.flush()
}

// environmentBody is the body of envs create and set from the flags.
func environmentBody(c *call, cl *client) (map[string]any, error) {
	body := map[string]any{}
	if c.has("connection") {
		id := ""
		if ref := c.flag("connection"); ref != "" {
			conn, err := connectionByRef(c.ctx, cl, ref)
			if err != nil {
				return nil, err
			}
			id = conn.ID
		}
		body["connectionId"] = id
	}
	if c.has("protected") {
		b, err := strconv.ParseBool(c.flag("protected"))
		if err != nil {
			return nil, usageError("--protected takes true or false, not %q", c.flag("protected"))
		}
		body["protected"] = b
	}
	return body, nil
}

func runEnvsCreate(c *call) error { return changeEnvironment(c, http.MethodPost) }

func runEnvsSet(c *call) error {
	if !c.has("connection") && !c.has("protected") {
		return usageError("give --connection or --protected")
	}
	return changeEnvironment(c, http.MethodPatch)
}

func changeEnvironment(c *call, method string) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	path, err := envsPath(c, cl)
	if err != nil {
		return err
	}
	body, err := environmentBody(c, cl)
	if err != nil {
		return err
	}
	if method == http.MethodPost {
		body["name"] = c.args[0]
	} else {
		path += "/" + url.PathEscape(c.args[0])
	}
	var raw json.RawMessage
	if err := cl.request(c.ctx, method, path, nil, body, &raw); err != nil {
		return err
	}
	if c.has("json") {
		writeIndented(c.out(), raw)
		return nil
	}
	var e edgeflow.Environment
	if err := json.Unmarshal(raw, &e); err != nil {
		return fmt.Errorf("reading the environment: %w", err)
	}
	conn := "no connection"
	if e.ConnectionID != "" {
		conn = "connection " + e.ConnectionID
	}
	verb := "Changed"
	if method == http.MethodPost {
		verb = "Created"
	}
	fmt.Fprintf(c.out(), "%s environment %s: %s, protected %v\n", verb, e.Name, conn, e.Protected)
	return nil
}

func runEnvsRemove(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	path, err := envsPath(c, cl)
	if err != nil {
		return err
	}
	if err := cl.request(c.ctx, http.MethodDelete, path+"/"+url.PathEscape(c.args[0]), nil, nil, nil); err != nil {
		return err
	}
	fmt.Fprintf(c.out(), "Deleted environment %s\n", c.args[0])
	return nil
}

func promoteCommand() *command {
	return &command{
		name: "promote", summary: "deploy to one environment the version active in another", args: "WORKFLOW", minArgs: 1, maxArgs: 1,
		about: `Deploys to --to exactly the version active in --from, with --to's variables (docs/environments.md,
"Promotion"), and prints how the two environments' variables differ. Refused (exit 1, nothing deployed)
when the version reads a variable --to lacks, or when --to is protected and you are below admin.`,
		flags: []flagDef{
			{name: "from", value: "ENV", usage: "the environment whose active version is promoted"},
			{name: "to", value: "ENV", usage: "the environment it goes to"},
			{name: "in-flight", value: "pin|migrate|drain", usage: "what happens to runs in flight in --to (default pin)"},
			jsonFlag,
		},
		examples: []string{"edgeflow promote orders --from staging --to production"},
		run:      runPromote,
	}
}

func runPromote(c *call) error {
	if !c.has("from") || !c.has("to") {
		return usageError("--from and --to are required")
	}
	body := map[string]any{"from": c.flag("from"), "to": c.flag("to")}
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
	var raw json.RawMessage
	if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+w.ID+"/promote", nil, body, &raw); err != nil {
		return err
	}
	if c.has("json") {
		writeIndented(c.out(), raw)
		return nil
	}
	var res struct {
		Deployment edgeflow.Deployment `json:"deployment"`
		EnvDiff    struct {
			Missing []string `json:"missing"`
			Extra   []string `json:"extra"`
		} `json:"envDiff"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("reading the promotion: %w", err)
	}
	label := res.Deployment.VersionID
	if v, err := versionByRef(c.ctx, cl, w, res.Deployment.VersionID); err == nil {
		label = strconv.Itoa(v.Version)
	}
	fmt.Fprintf(c.out(), "Promoted %q version %s from %s to %s (deployment %s)\n", w.Name, label, c.flag("from"), c.flag("to"),
		res.Deployment.ID)
	for _, n := range res.EnvDiff.Missing {
		fmt.Fprintf(c.out(), "  variable %s: in %s, not in %s\n", n, c.flag("from"), c.flag("to"))
	}
	for _, n := range res.EnvDiff.Extra {
		fmt.Fprintf(c.out(), "  variable %s: in %s, not in %s\n", n, c.flag("to"), c.flag("from"))
	}
	return nil
}
