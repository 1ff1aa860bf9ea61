package cloudflare

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"path"
	"strings"

	cf "github.com/cloudflare/cloudflare-go/v6"
	"github.com/cloudflare/cloudflare-go/v6/option"
	"github.com/cloudflare/cloudflare-go/v6/workers"
)

// Script is an ES-module worker to upload.
type Script struct {
	// MainModule is the name of the entry module; it must be one of Modules.
	MainModule string
	Modules    []Module
	// CompatibilityDate is YYYY-MM-DD; Cloudflare defaults to 2021-11-02 without it.
	CompatibilityDate  string
	CompatibilityFlags []string
	Bindings           []Binding
	// KeepBindings lists binding types to keep from the previous version, e.g. "secret_text".
	KeepBindings []string
}

// Module is one file of a script. Name is its path (the multipart part's name and filename); ContentType
// defaults from the extension: .js/.mjs → application/javascript+module, .cjs → application/javascript,
// .wasm → application/wasm, .map → application/source-map, .txt/.html/.css/.md → text/plain,
// anything else → application/octet-stream.
type Module struct {
	Name        string
	Content     []byte
	ContentType string
}

// Binding is one entry of the upload metadata's bindings; build it with the constructors. Its String method
// hides secret text.
type Binding struct {
	Type         string `json:"type"`
	Name         string `json:"name"`
	Text         string `json:"text,omitempty"`
	NamespaceID  string `json:"namespace_id,omitempty"`
	ID           string `json:"id,omitempty"`
	DatabaseID   string `json:"database_id,omitempty"`
	BucketName   string `json:"bucket_name,omitempty"`
	WorkflowName string `json:"workflow_name,omitempty"`
	ClassName    string `json:"class_name,omitempty"`
	ScriptName   string `json:"script_name,omitempty"`
	Service      string `json:"service,omitempty"`
	Entrypoint   string `json:"entrypoint,omitempty"`
}

// String describes the binding; the text of a secret_text binding is replaced by "[redacted]".
func (b Binding) String() string {
	c := b
	if c.Type == "secret_text" && c.Text != "" {
		c.Text = "[redacted]"
	}
	raw, _ := json.Marshal(c)
	return string(raw)
}

// GoString is String, so %#v does not print secrets either.
func (b Binding) GoString() string { return b.String() }

// LogValue keeps secrets out of slog output.
func (b Binding) LogValue() slog.Value { return slog.StringValue(b.String()) }

// PlainText binds an environment variable.
func PlainText(name, text string) Binding { return Binding{Type: "plain_text", Name: name, Text: text} }

// SecretText binds a secret environment variable.
func SecretText(name, text string) Binding {
	return Binding{Type: "secret_text", Name: name, Text: text}
}

// WorkflowBinding binds a Workflow whose class (className) is exported by the uploaded script.
func WorkflowBinding(name, workflowName, className string) Binding {
	return Binding{Type: "workflow", Name: name, WorkflowName: workflowName, ClassName: className}
}

// KVBinding binds a KV namespace by id.
func KVBinding(name, namespaceID string) Binding {
	return Binding{Type: "kv_namespace", Name: name, NamespaceID: namespaceID}
}

// D1Binding binds a D1 database by uuid (sent both as "id", as wrangler does, and as "database_id", as the
// OpenAPI schema names it).
func D1Binding(name, databaseID string) Binding {
	return Binding{Type: "d1", Name: name, ID: databaseID, DatabaseID: databaseID}
}

// R2Binding binds an R2 bucket by name.
func R2Binding(name, bucket string) Binding {
	return Binding{Type: "r2_bucket", Name: name, BucketName: bucket}
}

// ServiceBinding binds another worker (entrypoint may be empty for its default export).
func ServiceBinding(name, service, entrypoint string) Binding {
	return Binding{Type: "service", Name: name, Service: service, Entrypoint: entrypoint}
}

type scriptMetadata struct {
	MainModule         string    `json:"main_module"`
	CompatibilityDate  string    `json:"compatibility_date,omitempty"`
	CompatibilityFlags []string  `json:"compatibility_flags,omitempty"`
	Bindings           []Binding `json:"bindings"`
	KeepBindings       []string  `json:"keep_bindings,omitempty"`
}

func moduleType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".js", ".mjs":
		return "application/javascript+module"
	case ".cjs":
		return "application/javascript"
	case ".wasm":
		return "application/wasm"
	case ".map":
		return "application/source-map"
	case ".txt", ".html", ".css", ".md":
		return "text/plain"
	}
	return "application/octet-stream"
}

func checkScriptName(name string) error {
	if !validSegment(name) || len(name) > 255 {
		return argErr("scriptName", "must be 1-255 characters without '/', '?', '#', '%%' or spaces")
	}
	return nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"")

// UploadScript uploads (creates or replaces) the worker name as ES modules with its metadata:
// PUT accounts/{a}/workers/scripts/{name}, multipart with a "metadata" JSON part and one part per module whose
// name and filename are the module name. It is retried (the upload is idempotent). A script that fails to
// start or a bad binding is an *APIError 400 (code 10021) carrying Cloudflare's reason.
func (c *Client) UploadScript(ctx context.Context, name string, s Script) error {
	acct, err := c.account()
	if err != nil {
		return err
	}
	if err := checkScriptName(name); err != nil {
		return err
	}
	if len(s.Modules) == 0 {
		return argErr("script.modules", "at least one module is required")
	}
	seen := map[string]bool{}
	for i, m := range s.Modules {
		if m.Name == "" || strings.ContainsAny(m.Name, "\r\n") {
			return argErr(fmt.Sprintf("script.modules[%d].name", i), "must be a non-empty single line")
		}
		if seen[m.Name] {
			return argErr(fmt.Sprintf("script.modules[%d].name", i), "duplicate module %q", m.Name)
		}
		seen[m.Name] = true
	}
	if !seen[s.MainModule] {
		return argErr("script.mainModule", "%q is not one of the modules", s.MainModule)
	}
	for i, b := range s.Bindings {
		if b.Type == "" || b.Name == "" {
			return argErr(fmt.Sprintf("script.bindings[%d]", i), "type and name are required")
		}
	}
	bindings := s.Bindings
	if bindings == nil {
		bindings = []Binding{}
	}
	meta, err := json.Marshal(scriptMetadata{
		MainModule:         s.MainModule,
		CompatibilityDate:  s.CompatibilityDate,
		CompatibilityFlags: s.CompatibilityFlags,
		Bindings:           bindings,
		KeepBindings:       s.KeepBindings,
	})
	if err != nil {
		return fmt.Errorf("cloudflare: encode script metadata: %w", err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="metadata"`)
	h.Set("Content-Type", "application/json")
	pw, _ := mw.CreatePart(h)
	_, _ = pw.Write(meta)
	for _, m := range s.Modules {
		ct := m.ContentType
		if ct == "" {
			ct = moduleType(m.Name)
		}
		q := quoteEscaper.Replace(m.Name)
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, q, q))
		h.Set("Content-Type", ct)
		pw, _ := mw.CreatePart(h)
		_, _ = pw.Write(m.Content)
	}
	if err := mw.Close(); err != nil {
		return fmt.Errorf("cloudflare: encode upload: %w", err)
	}
	_, err = c.do(ctx, request{
		method: http.MethodPut, path: acct + "/workers/scripts/" + url.PathEscape(name),
		body: body.Bytes(), contentType: mw.FormDataContentType(), idempotent: true,
	})
	return err
}

// DeleteScript deletes the worker name with force=true (its bindings' users are not checked):
// DELETE accounts/{a}/workers/scripts/{name}?force=true. A missing script is an *APIError 404 (IsNotFound).
func (c *Client) DeleteScript(ctx context.Context, name string) error {
	if _, err := c.account(); err != nil {
		return err
	}
	if err := checkScriptName(name); err != nil {
		return err
	}
	return c.run(ctx, "DELETE accounts/{a}/workers/scripts/"+name, true, func(ctx context.Context, opts ...option.RequestOption) error {
		_, err := c.sdk.Workers.Scripts.Delete(ctx, name, workers.ScriptDeleteParams{
			AccountID: cf.F(c.accountID), Force: cf.F(true),
		}, opts...)
		return err
	})
}

// ListScriptSecrets returns the names of the worker's secrets: GET accounts/{a}/workers/scripts/{s}/secrets.
// A worker that does not exist has none (nil, nil). Cloudflare keeps a worker's secrets across uploads that do not
// name them, so an uploader that wants an exact set of secrets reads them and deletes the others.
func (c *Client) ListScriptSecrets(ctx context.Context, script string) ([]string, error) {
	acct, err := c.account()
	if err != nil {
		return nil, err
	}
	if err := checkScriptName(script); err != nil {
		return nil, err
	}
	var res []struct {
		Name string `json:"name"`
	}
	if _, err := c.do(ctx, request{method: http.MethodGet, path: acct + "/workers/scripts/" + url.PathEscape(script) + "/secrets", idempotent: true, result: &res}); err != nil {
		if IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	out := make([]string, 0, len(res))
	for _, r := range res {
		out = append(out, r.Name)
	}
	return out, nil
}

// DeleteScriptSecret deletes the worker's secret name (DELETE accounts/{a}/workers/scripts/{s}/secrets/{name};
// retried: idempotent). A secret or worker that does not exist is not an error.
func (c *Client) DeleteScriptSecret(ctx context.Context, script, name string) error {
	acct, err := c.account()
	if err != nil {
		return err
	}
	if err := checkScriptName(script); err != nil {
		return err
	}
	if name == "" {
		return argErr("name", "is required")
	}
	_, err = c.do(ctx, request{
		method: http.MethodDelete, path: acct + "/workers/scripts/" + url.PathEscape(script) + "/secrets/" + url.PathEscape(name), idempotent: true,
	})
	if IsNotFound(err) {
		return nil
	}
	return err
}

// GetAccountSubdomain returns the account's workers.dev subdomain (GET accounts/{a}/workers/subdomain); an
// account without one is an *APIError 404 with code 10007.
func (c *Client) GetAccountSubdomain(ctx context.Context) (string, error) {
	acct, err := c.account()
	if err != nil {
		return "", err
	}
	var res struct {
		Subdomain string `json:"subdomain"`
	}
	if _, err := c.do(ctx, request{method: http.MethodGet, path: acct + "/workers/subdomain", idempotent: true, result: &res}); err != nil {
		return "", err
	}
	if res.Subdomain == "" {
		return "", &MalformedResponseError{Op: "GET " + acct + "/workers/subdomain", Status: 200, Reason: "empty subdomain"}
	}
	return res.Subdomain, nil
}

// WorkersDevURL is the URL the script answers at once its workers.dev URL is enabled: with
// Options.WorkersBaseURL set, WorkersBaseURL/<script> (no request is sent); otherwise
// https://<script>.<account subdomain>.workers.dev.
func (c *Client) WorkersDevURL(ctx context.Context, script string) (string, error) {
	if err := checkScriptName(script); err != nil {
		return "", err
	}
	if c.workersURL != "" {
		return c.workersURL + "/" + url.PathEscape(script), nil
	}
	sub, err := c.GetAccountSubdomain(ctx)
	if err != nil {
		return "", err
	}
	return "https://" + strings.ToLower(script) + "." + sub + ".workers.dev", nil
}

// SetScriptSubdomain enables or disables the script's workers.dev URL:
// POST accounts/{a}/workers/scripts/{s}/subdomain {"enabled":…,"previews_enabled":…} (retried: idempotent).
func (c *Client) SetScriptSubdomain(ctx context.Context, script string, enabled bool) error {
	acct, err := c.account()
	if err != nil {
		return err
	}
	if err := checkScriptName(script); err != nil {
		return err
	}
	_, err = c.do(ctx, request{
		method: http.MethodPost, path: acct + "/workers/scripts/" + url.PathEscape(script) + "/subdomain",
		body: map[string]bool{"enabled": enabled, "previews_enabled": enabled}, idempotent: true,
	})
	return err
}

// Zone is a DNS zone of the account.
type Zone struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// FindZone finds the zone that holds host (a hostname or a zone name): it asks GET zones?name=…&account.id=…
// for host, then for host without its first label, and so on down to two labels. Nothing found is a
// *NotFoundError (IsNotFound).
func (c *Client) FindZone(ctx context.Context, host string) (Zone, error) {
	if _, err := c.account(); err != nil {
		return Zone{}, err
	}
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	if host == "" || strings.ContainsAny(host, "/?#* ") {
		return Zone{}, argErr("zone", "must be a hostname")
	}
	for name := host; strings.Contains(name, "."); {
		var zones []Zone
		q := url.Values{"name": {name}, "account.id": {c.accountID}}
		if _, err := c.do(ctx, request{method: http.MethodGet, path: "zones", query: q, idempotent: true, result: &zones}); err != nil {
			return Zone{}, err
		}
		for _, z := range zones {
			if strings.EqualFold(z.Name, name) {
				return z, nil
			}
		}
		_, rest, _ := strings.Cut(name, ".")
		name = rest
	}
	return Zone{}, &NotFoundError{What: "zone for " + host}
}

// Route is a route pattern of a script; ZoneName may be empty (Cloudflare infers the zone).
type Route struct {
	Pattern  string `json:"pattern"`
	ZoneName string `json:"zone_name,omitempty"`
}

// PutScriptRoutes replaces all routes of the script: PUT accounts/{a}/workers/scripts/{s}/routes with the
// array of routes (retried: idempotent).
func (c *Client) PutScriptRoutes(ctx context.Context, script string, routes []Route) error {
	acct, err := c.account()
	if err != nil {
		return err
	}
	if err := checkScriptName(script); err != nil {
		return err
	}
	for i, r := range routes {
		if r.Pattern == "" {
			return argErr(fmt.Sprintf("routes[%d].pattern", i), "is required")
		}
	}
	if routes == nil {
		routes = []Route{}
	}
	_, err = c.do(ctx, request{
		method: http.MethodPut, path: acct + "/workers/scripts/" + url.PathEscape(script) + "/routes",
		body: routes, idempotent: true,
	})
	return err
}

// ListScripts returns the names of the account's workers: GET accounts/{a}/workers/scripts (one answer, not
// paginated).
func (c *Client) ListScripts(ctx context.Context) ([]string, error) {
	acct, err := c.account()
	if err != nil {
		return nil, err
	}
	var res []struct {
		ID string `json:"id"`
	}
	if _, err := c.do(ctx, request{method: http.MethodGet, path: acct + "/workers/scripts", idempotent: true, result: &res}); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(res))
	for _, r := range res {
		out = append(out, r.ID)
	}
	return out, nil
}
