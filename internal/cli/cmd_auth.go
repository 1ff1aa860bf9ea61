package cli

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func loginCommand() *command {
	return &command{
		name:    "login",
		summary: "log in to a server with an API key or email and password",
		about: `Stores a login for the other commands: the server's URL (the address edgeflow serve prints; a
trailing /api is accepted) and an API key, or a session made with email and password. The credential is
checked against the server first, then written to the user's configuration directory
(edgeflow/credentials.json, readable by the user only). EDGEFLOW_URL and EDGEFLOW_API_KEY override the
stored login; EDGEFLOW_PROJECT then names the project an organization key acts in.`,
		flags: []flagDef{
			{name: "url", value: "URL", usage: "the server, e.g. http://127.0.0.1:8080 (default: EDGEFLOW_URL)"},
			{name: "api-key", value: "KEY", usage: "an API key (visible to other users of this machine in the process list: prefer --api-key-stdin)"},
			{name: "api-key-stdin", usage: "read the API key from standard input"},
			{name: "email", value: "EMAIL", usage: "sign in as this user (with --password-stdin)"},
			{name: "password-stdin", usage: "read the password from standard input"},
		},
		examples: []string{
			"edgeflow login --url http://127.0.0.1:8080 --api-key-stdin < key.txt",
			"echo \"$PASSWORD\" | edgeflow login --url http://127.0.0.1:8080 --email ada@example.com --password-stdin",
		},
		run: runLogin,
	}
}

func runLogin(c *call) error {
	base := c.flag("url")
	if base == "" {
		base = c.env.Getenv("EDGEFLOW_URL")
	}
	if base == "" {
		return usageError("--url is required (or set EDGEFLOW_URL)")
	}
	base, err := normalizeURL(base)
	if err != nil {
		return err
	}
	ways := 0
	for _, f := range []string{"api-key", "api-key-stdin", "email"} {
		if c.has(f) {
			ways++
		}
	}
	if ways != 1 {
		return usageError("give one of --api-key, --api-key-stdin or --email with --password-stdin")
	}
	if c.has("password-stdin") && !c.has("email") {
		return usageError("--password-stdin goes with --email")
	}
	cl := &client{base: base, http: c.env.HTTP}
	creds := credentials{URL: base}
	switch {
	case c.has("email"):
		if !c.has("password-stdin") {
			return usageError("--email needs --password-stdin (a password is never given as a flag)")
		}
		password, err := readSecretLine(c.env.Stdin)
		if err != nil {
			return err
		}
		if creds, err = signIn(c, cl, c.flag("email"), password); err != nil {
			return err
		}
	default:
		key := c.flag("api-key")
		if c.has("api-key-stdin") {
			if key, err = readSecretLine(c.env.Stdin); err != nil {
				return err
			}
		}
		if strings.TrimSpace(key) == "" {
			return usageError("the API key is empty")
		}
		creds.APIKey = strings.TrimSpace(key)
		cl.apiKey = creds.APIKey
	}
	who, err := whoami(c, cl)
	if isStatus(err, http.StatusUnauthorized) {
		return failed("the server rejected the credentials")
	}
	if err != nil {
		return err
	}
	path, err := c.env.saveCredentials(creds)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out(), "Logged in to %s as %s.\n", base, describeCaller(who))
	fmt.Fprintf(c.out(), "Credentials saved in %s.\n", path)
	return nil
}

// readSecretLine reads one line (a key, a password) from r, without its
// line ending.
func readSecretLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, 64<<10)).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", usageError("nothing on standard input")
	}
	return line, nil
}

// signIn starts a session with email and password and returns it as
// credentials.
func signIn(c *call, cl *client, email, password string) (credentials, error) {
	resp, err := cl.send(c.ctx, http.MethodPost, "/api/auth/sign-in", nil, map[string]string{"email": email, "password": password}, "application/json")
	if isStatus(err, http.StatusUnauthorized) {
		return credentials{}, failed("wrong email or password")
	}
	if err != nil {
		return credentials{}, err
	}
	defer resp.Body.Close()
	var body edgeflow.SignedIn
	if err := decodeJSON(resp.Body, &body); err != nil {
		return credentials{}, err
	}
	var token string
	for _, ck := range resp.Cookies() {
		if ck.Name == sessionCookie {
			token = ck.Value
		}
	}
	if token == "" || body.CSRFToken == "" {
		return credentials{}, failed("the server answered sign-in without a session")
	}
	cl.session, cl.csrf = token, body.CSRFToken
	return credentials{URL: cl.base, Session: token, CSRFToken: body.CSRFToken, Email: email}, nil
}

// whoami is GET /api/whoami: the caller and where it acts.
func whoami(c *call, cl *client) (*edgeflow.Whoami, error) {
	var w edgeflow.Whoami
	if err := cl.request(c.ctx, http.MethodGet, "/api/whoami", nil, nil, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// joinScopes lists an API key's scopes, separated by commas.
func joinScopes(scopes []edgeflow.Scope) string {
	names := make([]string, len(scopes))
	for i, s := range scopes {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// describeCaller is the caller in one phrase.
func describeCaller(w *edgeflow.Whoami) string {
	s := w.User.Email
	if w.APIKey != nil {
		s += fmt.Sprintf(" with API key %q", w.APIKey.Name)
	}
	if w.Organization != nil {
		s += fmt.Sprintf(", organization %q", w.Organization.Name)
	}
	if w.Project != nil {
		s += fmt.Sprintf(", project %q", w.Project.Name)
	}
	return s
}

func logoutCommand() *command {
	return &command{
		name:     "logout",
		summary:  "forget the stored login (and end its session)",
		about:    "Deletes the stored credentials; a login made with email and password also ends its session on the server.",
		examples: []string{"edgeflow logout"},
		run: func(c *call) error {
			stored, ok, err := c.env.loadCredentials()
			if err != nil {
				return err
			}
			if !ok {
				fmt.Fprintln(c.out(), "Not logged in.")
				return nil
			}
			if stored.Session != "" {
				cl := &client{base: stored.URL, session: stored.Session, csrf: stored.CSRFToken, http: c.env.HTTP}
				if err := cl.request(c.ctx, http.MethodPost, "/api/auth/sign-out", nil, nil, nil); err != nil && !isStatus(err, http.StatusUnauthorized) {
					fmt.Fprintf(c.env.Stderr, "edgeflow logout: could not end the session on the server (%v); the local login is deleted anyway\n", err)
				}
			}
			if _, err := c.env.deleteCredentials(); err != nil {
				return err
			}
			fmt.Fprintf(c.out(), "Logged out of %s.\n", stored.URL)
			return nil
		},
	}
}

func whoamiCommand() *command {
	return &command{
		name:     "whoami",
		summary:  "show the logged-in user or key, organization and project",
		flags:    []flagDef{jsonFlag},
		examples: []string{"edgeflow whoami", "edgeflow whoami --json"},
		run: func(c *call) error {
			cl, err := c.client()
			if err != nil {
				return err
			}
			w, err := whoami(c, cl)
			if isStatus(err, http.StatusUnauthorized) {
				return failed("the server rejected the stored credentials: run edgeflow login again")
			}
			if err != nil {
				return err
			}
			if c.has("json") {
				return printJSON(c.out(), w)
			}
			t := newTable(c.out(), false, "", "")
			t.row("server", cl.base)
			user := w.User.Email
			if w.User.Name != "" {
				user += " (" + w.User.Name + ")"
			}
			t.row("user", user)
			if w.APIKey != nil {
				t.row("api key", fmt.Sprintf("%s (%s…, %s key, scopes %s)", w.APIKey.Name, w.APIKey.Prefix, w.APIKey.Scope, joinScopes(w.APIKey.Scopes)))
			} else {
				t.row("session", "signed in with email and password")
			}
			if w.Organization != nil {
				t.row("organization", fmt.Sprintf("%s (%s)", w.Organization.Name, w.Organization.Role))
			} else {
				t.row("organization", "-")
			}
			if w.Project != nil {
				t.row("project", w.Project.Name)
			} else {
				t.row("project", "-")
			}
			return t.flush()
		},
	}
}

func useCommand() *command {
	return &command{
		name:    "use",
		summary: "choose the organization or project the commands act in",
		subs: []*command{
			{
				name: "org", summary: "choose the organization (email login)", args: "NAME", minArgs: 1, maxArgs: 1,
				about:    "Makes the organization (by name, slug or id) the active one of the session, with its first project. An API key belongs to one organization: log in with another key instead.",
				examples: []string{"edgeflow use org \"Shop staging\""},
				run:      runUseOrg,
			},
			{
				name: "project", summary: "choose the project", args: "NAME", minArgs: 1, maxArgs: 1,
				about:    "Makes the project (by name, slug or id) the one the commands act in: the session's active project, or for an organization API key the project it names in every request.",
				examples: []string{"edgeflow use project staging"},
				run:      runUseProject,
			},
		},
	}
}

func runUseOrg(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	if cl.session == "" {
		return failed("an API key belongs to one organization: log in with a key of the other organization")
	}
	var orgs edgeflow.OrganizationList
	if err := cl.request(c.ctx, http.MethodGet, "/api/organizations", nil, nil, &orgs); err != nil {
		return err
	}
	ref := c.args[0]
	for _, o := range orgs.Data {
		if o.ID == ref || o.Name == ref || o.Slug == ref {
			if err := cl.request(c.ctx, http.MethodPut, "/api/session/active", nil, map[string]string{"organizationId": o.ID}, nil); err != nil {
				return err
			}
			fmt.Fprintf(c.out(), "Now using organization %q.\n", o.Name)
			return nil
		}
	}
	return notFound("you are not a member of an organization named %q", ref)
}

func runUseProject(c *call) error {
	cl, err := c.client()
	if err != nil {
		return err
	}
	projects, err := listAll[project](c.ctx, cl, "/api/projects", nil, 0)
	if err != nil {
		return err
	}
	ref := c.args[0]
	var p *project
	for i := range projects {
		if projects[i].ID == ref || projects[i].Name == ref || projects[i].Slug == ref {
			p = &projects[i]
			break
		}
	}
	if p == nil {
		return notFound("no project named %q in this organization", ref)
	}
	if cl.session != "" {
		if err := cl.request(c.ctx, http.MethodPut, "/api/session/active", nil, map[string]string{"organizationId": p.OrganizationID, "projectId": p.ID}, nil); err != nil {
			return err
		}
		fmt.Fprintf(c.out(), "Now using project %q.\n", p.Name)
		return nil
	}
	if c.env.Getenv("EDGEFLOW_API_KEY") != "" {
		return failed("the API key comes from EDGEFLOW_API_KEY: set EDGEFLOW_PROJECT=%s instead", p.ID)
	}
	cl.project = p.ID
	w, err := whoami(c, cl)
	if isStatus(err, http.StatusNotFound) || isStatus(err, http.StatusForbidden) {
		return failed("this API key is bound to another project")
	}
	if err != nil {
		return err
	}
	if w.Project == nil || w.Project.ID != p.ID {
		return failed("this API key is bound to another project")
	}
	stored, _, err := c.env.loadCredentials()
	if err != nil {
		return err
	}
	stored.ProjectID = p.ID
	if _, err := c.env.saveCredentials(stored); err != nil {
		return err
	}
	fmt.Fprintf(c.out(), "Now using project %q.\n", p.Name)
	return nil
}
