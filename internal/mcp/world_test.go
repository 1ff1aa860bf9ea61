package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/crypto/bcrypt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// world is an edgeflow API server on its own SQLite database with two
// tenants, each signed up through the API.
type world struct {
	t    *testing.T
	url  string
	a, b *tenant
}

// tenant is a user with their organization and project, a session, and
// API keys.
type tenant struct {
	w         *world
	projectID string
	cookie    string
	csrf      string
}

// newWorld starts a server with its config changed by each of with (no
// rate limits unless one sets them).
func newWorld(t *testing.T, with ...func(*api.Config)) *world {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sealer, err := secret.New(bytes.Repeat([]byte{3}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	cfg := api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}, BcryptCost: bcrypt.MinCost}
	for _, f := range with {
		f(&cfg)
	}
	s, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	w := &world{t: t, url: srv.URL}
	w.a = w.signUp("alice@example.com")
	w.b = w.signUp("bob@example.com")
	return w
}

// response is an API answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.body)
	}
	return m
}

// do sends an API request with the given headers.
func (w *world) do(method, path, body string, header map[string]string) response {
	w.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, w.url+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{res.StatusCode, res.Header, b}
}

// must sends a request that has to answer status.
func (w *world) must(status int, method, path, body string, header map[string]string) response {
	w.t.Helper()
	r := w.do(method, path, body, header)
	if r.status != status {
		w.t.Fatalf("%s %s = %d, want %d\n%s", method, path, r.status, status, r.body)
	}
	return r
}

func (w *world) signUp(email string) *tenant {
	w.t.Helper()
	r := w.must(201, "POST", "/api/auth/sign-up", fmt.Sprintf(`{"email":%q,"password":"blue-harbor-lantern-7","name":"T"}`, email), nil)
	tn := &tenant{w: w}
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == api.SessionCookie {
			tn.cookie = c.Value
		}
	}
	m := r.json(w.t)
	tn.projectID, _ = m["activeProjectId"].(string)
	tn.csrf, _ = m["csrfToken"].(string)
	if tn.cookie == "" || tn.projectID == "" {
		w.t.Fatalf("sign-up answered no session or project: %s", r.body)
	}
	return tn
}

// session is the tenant's session headers (a cookie and its CSRF token).
func (tn *tenant) session() map[string]string {
	return map[string]string{"Cookie": api.SessionCookie + "=" + tn.cookie, api.CSRFHeader: tn.csrf}
}

// key creates an API key of the tenant's project with the scopes.
func (tn *tenant) key(scopes ...string) string {
	tn.w.t.Helper()
	list, _ := json.Marshal(scopes)
	r := tn.w.must(201, "POST", "/api/api-keys", fmt.Sprintf(`{"name":"mcp %s","projectId":%q,"scopes":%s}`, strings.Join(scopes, " "), tn.projectID, list), tn.session())
	k, _ := r.json(tn.w.t)["key"].(string)
	return k
}

// bearer is the header of an API key.
func bearer(key string) map[string]string { return map[string]string{"Authorization": "Bearer " + key} }

// keyTransport adds an API key to every request of the MCP client.
type keyTransport struct{ key string }

func (k keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+k.key)
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens an MCP session over the HTTP transport with the key.
func (w *world) connect(key string) *session {
	w.t.Helper()
	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "edgeflow-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: w.url + "/api/mcp",
		HTTPClient: &http.Client{Transport: keyTransport{key}}}, nil)
	if err != nil {
		w.t.Fatalf("connect: %v", err)
	}
	w.t.Cleanup(func() { cs.Close() })
	return newSession(w.t, cs)
}

// session is a client's MCP session, with the output schemas of the
// server's tools, against which every result is checked.
type session struct {
	t       *testing.T
	cs      *sdk.ClientSession
	tools   map[string]*sdk.Tool
	outputs map[string]*jsonschema.Schema
	// texts are every text and structured content the session received.
	texts []string
}

func newSession(t *testing.T, cs *sdk.ClientSession) *session {
	t.Helper()
	s := &session{t: t, cs: cs, tools: map[string]*sdk.Tool{}, outputs: map[string]*jsonschema.Schema{}}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, tool := range res.Tools {
		s.tools[tool.Name] = tool
		s.outputs[tool.Name] = compileSchema(t, tool.Name+" output", tool.OutputSchema)
	}
	return s
}

// compileSchema compiles a schema a tool declares (draft 2020-12, formats
// asserted), failing the test when it is not a valid schema.
func compileSchema(t *testing.T, name string, schema any) *jsonschema.Schema {
	t.Helper()
	raw, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	url := "mem://" + strings.ReplaceAll(name, " ", "-") + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s is not a valid JSON Schema: %v\n%s", name, err, raw)
	}
	return sch
}

// result is a tool's answer.
type result struct {
	isError    bool
	text       string          // every text content, joined
	structured json.RawMessage // the structured content
}

// call calls a tool; a result that is not an error must fit the tool's
// output schema, and its JSON text must be its structured content.
func (s *session) call(name string, args map[string]any) result {
	s.t.Helper()
	res, err := s.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: a protocol error, not a tool result: %v", name, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	r := result{isError: res.IsError, text: strings.Join(texts, "\n")}
	if res.StructuredContent != nil {
		r.structured, _ = json.Marshal(res.StructuredContent)
	}
	s.texts = append(s.texts, r.text, string(r.structured))
	if r.isError {
		return r
	}
	if r.structured == nil {
		s.t.Fatalf("%s answered no structured content: %s", name, r.text)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(r.structured))
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.outputs[name].Validate(v); err != nil {
		s.t.Fatalf("%s: the structured content does not fit the output schema: %v\n%s", name, err, r.structured)
	}
	if len(texts) != 2 || !jsonEqual(texts[1], string(r.structured)) {
		s.t.Fatalf("%s: want a short text and the structured content as JSON text, got %q", name, texts)
	}
	return r
}

// ok calls a tool that has to succeed and decodes its structured content.
func (s *session) ok(name string, args map[string]any) map[string]any {
	s.t.Helper()
	r := s.call(name, args)
	if r.isError {
		s.t.Fatalf("%s failed: %s", name, r.text)
	}
	var m map[string]any
	if err := json.Unmarshal(r.structured, &m); err != nil {
		s.t.Fatal(err)
	}
	return m
}

// fails calls a tool that has to fail, with a text holding every want.
func (s *session) fails(name string, args map[string]any, want ...string) string {
	s.t.Helper()
	r := s.call(name, args)
	if !r.isError {
		s.t.Fatalf("%s succeeded, want a tool error: %s", name, r.structured)
	}
	for _, w := range want {
		if !strings.Contains(r.text, w) {
			s.t.Fatalf("%s: the error does not say %q:\n%s", name, w, r.text)
		}
	}
	return r.text
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// httpClient sends the tests' raw requests.
var httpClient = http.DefaultClient

// newRequest is a request with the given headers.
func newRequest(method, url string, header map[string]string) (*http.Request, error) {
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return req, nil
}
