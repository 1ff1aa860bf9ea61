package api

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The endpoint reference of docs/api.md is generated from the route table:
// `make apidoc` (go run ./internal/api/cmd/apidoc) rewrites the part of
// docs/api.md between DocBegin and DocEnd with Reference(), and
// TestAPIDocCurrent fails when the file and the table differ. The same
// command writes Studio's API types from OpenAPI() (cmd/apidoc).

//go:generate go run ./cmd/apidoc -file ../../docs/api.md -ts ../../web/src/api/schema.gen.ts -generator ./cmd/apidoc/ts

// Example is one request to a route and the answer it gets.
type Example struct {
	// Path is the request's path and query string, with the example ids of
	// route_examples.go.
	Path string
	// Body is the JSON request body ("" for none).
	Body string
	// Session sends the request with the session cookie instead of an API
	// key (routes that accept only sessions always use it).
	Session bool
	// Answer is the answer's body ("" for none). It shows every field of the
	// real answer unless Partial is set (long documents and lists).
	Answer string
	// Partial marks an Answer that shows only some of the answer's fields
	// or items.
	Partial bool
	// Archive lists, for an answer that is a gzipped tar (Answer empty),
	// the files it holds; the reference shows the list and CheckAnswer
	// finds each in the real archive.
	Archive []string
}

// ErrorCase is one refusal a route can answer.
type ErrorCase struct {
	Status int
	Code   string
	// When says in which case, in Markdown.
	When string
}

// Markers around the generated reference in docs/api.md.
const (
	DocBegin = "<!-- routes:begin: generated from internal/api/routes.go by `go run ./internal/api/cmd/apidoc`; do not edit by hand -->"
	DocEnd   = "<!-- routes:end -->"
)

// DocRoutes is the route table, for documentation: the routes' handlers
// belong to no running server and must not be called.
func DocRoutes() []Route { return (&Server{}).routeTable() }

// Refusals are the errors the route can answer: those of every route of its
// kind, then its own (Errors), ordered by status.
func (rt Route) Refusals() []ErrorCase {
	var out []ErrorCase
	if rt.ReadsBody() && rt.Protocol == "" {
		out = append(out,
			ErrorCase{400, "bad_request", "the body is not one JSON object: malformed, empty, `null`, data after it, a repeated key, text that is not UTF-8, or a Content-Type other than `application/json`"},
			ErrorCase{413, "payload_too_large", "the body is over " + byteSize(rt.BodyLimit())},
			ErrorCase{422, "validation_failed", "a field is missing, unknown, of the wrong type or invalid; `details` name every one by its path"})
	}
	if rt.listsWithCursor() {
		out = append(out,
			ErrorCase{400, "bad_request", "`cursor` belongs to another list"},
			ErrorCase{422, "validation_failed", "`limit` is not an integer from 1 to " + fmt.Sprint(rt.maxLimit()) + ", or `cursor` is not one this server made"})
	}
	if rt.Auth != AuthNone {
		out = append(out, ErrorCase{401, "unauthorized", "no credentials, or an unknown, revoked or expired API key or session"})
		var why []string
		switch {
		case rt.Auth == AuthSession:
			why = append(why, "an API key (the route takes a session only)")
		case rt.Auth == AuthKey:
			why = append(why, "a session (the route takes API keys only)")
			if rt.Scope != edgeflow.ScopeRead {
				why = append(why, "an API key without the `"+string(rt.Scope)+"` scope")
			}
		case rt.Scope != "":
			why = append(why, "an API key without the `"+string(rt.Scope)+"` scope")
		}
		if role := rt.MinRole(); role != "" && role != edgeflow.RoleViewer {
			why = append(why, "a caller whose role in the organization is below `"+string(role)+"` (for an API key: its creator's current role)")
		}
		if rt.Method != http.MethodGet && rt.Auth != AuthKey {
			why = append(why, "a session request without the session's CSRF token in `"+CSRFHeader+"`")
		}
		if len(why) > 0 {
			out = append(out, ErrorCase{403, "forbidden", strings.Join(why, "; ")})
		}
		what := "`organizationId` or `projectId` names an organization or project the caller cannot reach"
		if strings.Contains(rt.Pattern, "{") {
			what = "the record in the path does not exist, or belongs to another organization or project; or " + what
		}
		if rt.namesConnection() {
			what = "`connectionId` names no connection the project may use; " + what
		}
		out = append(out, ErrorCase{404, "not_found", what})
	}
	limit := "the per-IP limit is spent"
	if rt.Limit != LimitGlobal {
		limit = "the user's " + rt.Limit.String() + " limit or the per-IP limit is spent"
	}
	if isStreamRoute(rt) {
		limit += "; or as many streams are open as the user, the API key, the client address or the server allows (`Retry-After`: when the oldest of them ends at the latest; see Streams)"
	}
	out = append(out, ErrorCase{429, "rate_limited", limit})
	out = append(out, rt.Errors...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Status < out[j].Status })
	return out
}

// namesConnection reports whether the request names a connection, in the
// query or in the body.
func (rt Route) namesConnection() bool {
	for _, q := range rt.Query {
		if q == "connectionId" {
			return true
		}
	}
	if rt.ReadsBody() && rt.Body != nil {
		props, _ := schemaOf(reflect.TypeOf(rt.Body), "")["properties"].(map[string]any)
		return props["connectionId"] != nil
	}
	return false
}

// listsWithCursor reports whether the route is a paginated list.
func (rt Route) listsWithCursor() bool {
	for _, q := range rt.Query {
		if q == "cursor" {
			return true
		}
	}
	return false
}

// maxLimit is the largest limit of a list (KV keys: Cloudflare's 1000).
func (rt Route) maxLimit() int {
	if strings.HasSuffix(rt.Pattern, "/keys") {
		return 1000
	}
	return MaxPageLimit
}

func byteSize(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// docGroups sorts routes into the reference's sections, by path; the first
// group whose test matches wins.
var docGroups = []struct {
	title string
	match func(p string) bool
}{
	{"Operations", func(p string) bool { return !strings.HasPrefix(p, "/api/") }},
	{"Authentication and session", func(p string) bool {
		return strings.HasPrefix(p, "/api/auth/") || strings.HasPrefix(p, "/api/session/") || p == "/api/whoami"
	}},
	{"Organizations, members and invitations", func(p string) bool {
		return strings.HasPrefix(p, "/api/organizations") || strings.HasPrefix(p, "/api/invitations/")
	}},
	{"Projects", func(p string) bool { return strings.HasPrefix(p, "/api/projects") }},
	{"Import and export", func(p string) bool {
		return strings.HasPrefix(p, "/api/import/") || strings.HasSuffix(p, "/export")
	}},
	{"Versions", func(p string) bool { return strings.Contains(p, "/versions") }},
	{"Deployments", func(p string) bool {
		return strings.Contains(p, "/deploy") || strings.HasSuffix(p, "/takedown")
	}},
	{"Trigger and runs", func(p string) bool { return strings.Contains(p, "/trigger") || strings.Contains(p, "/runs") }},
	{"Events", func(p string) bool { return strings.HasPrefix(p, "/api/events") }},
	{"Workflows and functions", func(p string) bool { return strings.HasPrefix(p, "/api/workflows") }},
	{"Node definitions and schemas", func(p string) bool {
		return strings.HasPrefix(p, "/api/nodes") || p == "/api/openapi.json" || p == irSchemaRef
	}},
	{"IR validation and compilation", func(p string) bool { return p == "/api/ir/validate" || p == "/api/ir/compile" }},
	{"Marketplace", func(p string) bool { return strings.HasPrefix(p, "/api/marketplace") }},
	{"Provider resources", func(p string) bool { return strings.HasPrefix(p, "/api/resources/") }},
	{"Connections", func(p string) bool { return strings.HasPrefix(p, "/api/connections") }},
	{"Environment variables", func(p string) bool { return strings.HasPrefix(p, "/api/env-vars") }},
	{"API keys", func(p string) bool { return strings.HasPrefix(p, "/api/api-keys") }},
	{"Audit log", func(p string) bool { return p == "/api/audit" }},
	{"Webhooks", func(p string) bool { return strings.HasPrefix(p, "/api/webhooks") }},
	{"MCP (assistants)", func(p string) bool { return strings.HasPrefix(p, "/api/mcp") }},
}

func docGroup(pattern string) (int, error) {
	for i, g := range docGroups {
		if g.match(pattern) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("apidoc: route %s is in no section of docGroups (apidoc.go)", pattern)
}

// Reference renders the endpoint reference of docs/api.md from the route
// table.
func Reference() ([]byte, error) { return renderReference(DocRoutes()) }

func renderReference(routes []Route) ([]byte, error) {
	byGroup := make([][]Route, len(docGroups))
	var order []int
	for _, rt := range routes {
		g, err := docGroup(rt.Pattern)
		if err != nil {
			return nil, err
		}
		if byGroup[g] == nil {
			order = append(order, g)
		}
		byGroup[g] = append(byGroup[g], rt)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "## Endpoint reference\n\n")
	fmt.Fprintf(&b, "All %d routes, in the order of the route table. Auth: `none` (public), `session` (the session cookie only), "+
		"`key or session`; Scope: the API key scope needed (a session holds every scope); Role: the least role in the organization "+
		"(viewer < member < admin < owner; an API key acts with its creator's current role; docs/security.md); Rate: the per-user rate-limit "+
		"class besides the per-IP limit (see Rate limits). Paths are relative to the host; `{name}` is a path parameter.\n\n", len(routes))
	b.WriteString("| Method | Path | Auth | Scope | Role | Rate | Success |\n|---|---|---|---|---|---|---|\n")
	for _, g := range order {
		for _, rt := range byGroup[g] {
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s | %d |\n", rt.Method, rt.Pattern, authWords(rt.Auth), orDash(string(rt.Scope)), orDash(string(rt.MinRole())), rt.Limit, rt.Status)
		}
	}
	for _, g := range order {
		fmt.Fprintf(&b, "\n### %s\n", docGroups[g].title)
		for _, rt := range byGroup[g] {
			if err := renderRoute(&b, rt); err != nil {
				return nil, err
			}
		}
	}
	return b.Bytes(), nil
}

func authWords(a AuthMode) string {
	switch a {
	case AuthNone:
		return "none"
	case AuthSession:
		return "session"
	case AuthKey:
		return "key"
	}
	return "key or session"
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return "`" + s + "`"
}

func renderRoute(b *bytes.Buffer, rt Route) error {
	name := rt.Method + " " + rt.Pattern
	fmt.Fprintf(b, "\n#### `%s`\n\n%s\n\n", name, rt.Summary)
	switch rt.Auth {
	case AuthNone:
		b.WriteString("- Auth: none.")
	case AuthSession:
		b.WriteString("- Auth: a session only (an API key gets 403).")
	case AuthKey:
		fmt.Fprintf(b, "- Auth: an API key with scope `%s`.", rt.Scope)
	case AuthAny:
		fmt.Fprintf(b, "- Auth: an API key with scope `%s`, or a session.", rt.Scope)
	}
	if role := rt.MinRole(); role != "" {
		fmt.Fprintf(b, " Role: `%s` or above.", role)
	}
	fmt.Fprintf(b, " Rate class: %s.\n", rt.Limit)
	if rt.Audit != "" {
		fmt.Fprintf(b, "- Audit log: `%s`, allowed or refused (see Audit log).\n", rt.Audit)
	}
	if len(rt.Query) > 0 {
		b.WriteString("- Query:")
		for i, q := range rt.Query {
			p := routeQueryParam(rt, q)
			sep := ";"
			if i == len(rt.Query)-1 {
				sep = "."
			}
			req := ""
			if p["required"] == true {
				req = " (required)"
			}
			desc, _ := p["description"].(string)
			fmt.Fprintf(b, " `%s`%s: %s%s", q, req, strings.TrimSuffix(lowerFirst(desc), "."), sep)
		}
		b.WriteString("\n")
	}
	if rt.ReadsBody() {
		if rt.Body == nil {
			return fmt.Errorf("apidoc: %s reads a body but has no Body type", name)
		}
		fmt.Fprintf(b, "- Body: a JSON object of at most %s; other fields are refused.\n\n", byteSize(rt.BodyLimit()))
		fields := bodyFields(schemaOf(reflect.TypeOf(rt.Body), ""), "")
		notes := false
		for _, f := range fields {
			notes = notes || f.note != ""
		}
		if notes {
			b.WriteString("  | Field | Type | Notes |\n  |---|---|---|\n")
		} else {
			b.WriteString("  | Field | Type |\n  |---|---|\n")
		}
		for _, f := range fields {
			if notes {
				fmt.Fprintf(b, "  | `%s` | %s | %s |\n", f.name, f.typ, f.note)
			} else {
				fmt.Fprintf(b, "  | `%s` | %s |\n", f.name, f.typ)
			}
		}
		b.WriteString("\n")
	}
	if rt.Status == 0 {
		return fmt.Errorf("apidoc: %s has no Status", name)
	}
	fmt.Fprintf(b, "- Answer: %d %s.", rt.Status, http.StatusText(rt.Status))
	if rt.Answer != "" {
		fmt.Fprintf(b, " %s", rt.Answer)
	}
	b.WriteString("\n- Errors:\n\n  | Status | Code | When |\n  |---|---|---|\n")
	for _, e := range rt.Refusals() {
		fmt.Fprintf(b, "  | %d | `%s` | %s |\n", e.Status, e.Code, e.When)
	}
	ex := rt.Example
	if ex.Path == "" {
		return fmt.Errorf("apidoc: %s has no Example", name)
	}
	fmt.Fprintf(b, "\nExample:\n\n```http\n%s %s\n", rt.Method, ex.Path)
	session := rt.Auth == AuthSession || ex.Session
	switch {
	case rt.Auth == AuthNone:
	case session:
		fmt.Fprintf(b, "Cookie: %s=…\n", SessionCookie)
		if rt.Method != http.MethodGet {
			fmt.Fprintf(b, "%s: …\n", CSRFHeader)
		}
	default:
		b.WriteString("Authorization: Bearer ask_…\n")
	}
	if ex.Body != "" {
		body, err := prettyJSON(ex.Body)
		if err != nil {
			return fmt.Errorf("apidoc: %s: the example body: %w", name, err)
		}
		fmt.Fprintf(b, "Content-Type: application/json\n\n%s\n", body)
	}
	fmt.Fprintf(b, "```\n\n```http\nHTTP/1.1 %d %s\n", rt.Status, http.StatusText(rt.Status))
	if len(ex.Archive) > 0 {
		fmt.Fprintf(b, "Content-Type: %s\n\n(a gzipped tar of %s)\n", exampleType(rt), strings.Join(ex.Archive, ", "))
	} else if ex.Answer != "" {
		ct := exampleType(rt)
		answer := strings.TrimRight(ex.Answer, "\n")
		if ct == "application/json" || ct == "application/schema+json" {
			var err error
			if answer, err = prettyJSON(ex.Answer); err != nil {
				return fmt.Errorf("apidoc: %s: the example answer: %w", name, err)
			}
		}
		fmt.Fprintf(b, "Content-Type: %s\n\n%s\n", ct, answer)
	} else if rt.Status != http.StatusNoContent {
		return fmt.Errorf("apidoc: %s: the example has no answer", name)
	}
	b.WriteString("```\n")
	if ex.Partial {
		b.WriteString("\nThe answer is shortened: it has more fields or items than shown.\n")
	}
	return nil
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// prettyJSON indents one JSON value, refusing anything else.
func prettyJSON(s string) (string, error) {
	var out bytes.Buffer
	if err := json.Indent(&out, []byte(s), "", "  "); err != nil {
		return "", err
	}
	return out.String(), nil
}

type docField struct{ name, typ, note string }

// bodyFields lists the fields of an object schema (of schemaOf), nested
// objects' fields under "parent.field" and array items' under
// "parent[].field".
func bodyFields(schema map[string]any, prefix string) []docField {
	props, _ := schema["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []docField
	for _, n := range names {
		s := props[n].(map[string]any)
		note, _ := s["description"].(string)
		out = append(out, docField{prefix + n, typeWords(s), note})
		switch {
		case s["properties"] != nil:
			out = append(out, bodyFields(s, prefix+n+".")...)
		case s["items"] != nil:
			if items := s["items"].(map[string]any); items["properties"] != nil {
				out = append(out, bodyFields(items, prefix+n+"[].")...)
			}
		}
	}
	return out
}

// typeWords says a schema's type in words.
func typeWords(s map[string]any) string {
	if s["$ref"] == irComponent {
		return "IR object (docs/ir.md)"
	}
	switch t := s["type"].(type) {
	case string:
		switch t {
		case "array":
			return "array of " + typeWords(s["items"].(map[string]any))
		case "object":
			if ap, ok := s["additionalProperties"].(map[string]any); ok {
				return "object of " + typeWords(ap)
			}
			return "object"
		case "string":
			if s["format"] == "date-time" {
				return "string (date-time)"
			}
		}
		return t
	case []string:
		return typeWords(map[string]any{"type": t[0], "items": s["items"], "format": s["format"],
			"additionalProperties": s["additionalProperties"]}) + " or null"
	}
	return "any JSON value"
}

// ReplaceReference returns doc with the part between DocBegin and DocEnd
// replaced by ref.
func ReplaceReference(doc, ref []byte) ([]byte, error) {
	begin := bytes.Index(doc, []byte(DocBegin))
	end := bytes.Index(doc, []byte(DocEnd))
	if begin < 0 || end < begin {
		return nil, errors.New("apidoc: docs/api.md lacks the markers " + DocBegin + " and " + DocEnd)
	}
	var out bytes.Buffer
	out.Write(doc[:begin+len(DocBegin)])
	out.WriteString("\n\n")
	out.Write(ref)
	out.WriteString("\n")
	out.Write(doc[end:])
	return out.Bytes(), nil
}

// CheckAnswer compares the example's answer with a real answer of the
// route to the example's request: the same field names at every depth (the
// example's may be fewer when it is Partial; a list's first item stands for
// all; an empty object matches any, as a map of data like a workflow's
// dependencies may be empty). In an event stream, every event of the
// example must be in the real stream with the same name, id and shape of
// data (a line "…" stands for events left out). Any other answer that is not
// JSON (metrics) must start with the example's first line. An id the real
// stream does not have (an opaque one) matches the real event at its place.
func (ex Example) CheckAnswer(real []byte) error {
	if len(ex.Archive) > 0 {
		return checkArchive(ex.Archive, real)
	}
	if ex.Answer == "" {
		if len(real) != 0 {
			return fmt.Errorf("the example shows no answer, the route answered %s", real)
		}
		return nil
	}
	if strings.HasPrefix(ex.Answer, "event: ") {
		return checkEventStream(ex, real)
	}
	var want, got any
	if err := json.Unmarshal([]byte(ex.Answer), &want); err != nil {
		first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
		if first(ex.Answer) != first(string(real)) {
			return fmt.Errorf("the example answer starts %q, the real one %q", first(ex.Answer), first(string(real)))
		}
		return nil
	}
	if err := json.Unmarshal(real, &got); err != nil {
		return fmt.Errorf("the example answer is JSON, the real one not: %v\n%s", err, real)
	}
	if diff := shapeDiff(want, got, ex.Partial, ""); len(diff) > 0 {
		return fmt.Errorf("the example answer's shape differs from the real one:\n%s\nreal answer: %s", strings.Join(diff, "\n"), real)
	}
	return nil
}

// shapeDiff lists where the field names of example and real differ.
func shapeDiff(example, real any, partial bool, path string) []string {
	if example == nil || real == nil {
		return nil
	}
	switch e := example.(type) {
	case map[string]any:
		r, ok := real.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: the example has an object, the answer %T", orRoot(path), real)}
		}
		if len(e) == 0 || len(r) == 0 {
			return nil
		}
		var out []string
		for k, v := range e {
			rv, ok := r[k]
			if !ok {
				out = append(out, fmt.Sprintf("%s/%s: in the example, not in the answer", path, k))
				continue
			}
			out = append(out, shapeDiff(v, rv, partial, path+"/"+k)...)
		}
		if !partial {
			for k := range r {
				if _, ok := e[k]; !ok {
					out = append(out, fmt.Sprintf("%s/%s: in the answer, not in the example", path, k))
				}
			}
		}
		sort.Strings(out)
		return out
	case []any:
		r, ok := real.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: the example has an array, the answer %T", orRoot(path), real)}
		}
		if len(e) == 0 || len(r) == 0 {
			return nil
		}
		return shapeDiff(e[0], r[0], partial, path+"/0")
	}
	switch real.(type) {
	case map[string]any, []any:
		return []string{fmt.Sprintf("%s: the example has a %T, the answer %T", orRoot(path), example, real)}
	}
	return nil
}

func orRoot(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

// sseEvent is one event of a text/event-stream answer.
type sseEvent struct{ name, id, data string }

func parseEvents(stream string) []sseEvent {
	var out []sseEvent
	for _, frame := range strings.Split(strings.TrimSpace(stream), "\n\n") {
		var e sseEvent
		for _, line := range strings.Split(frame, "\n") {
			k, v, _ := strings.Cut(line, ": ")
			switch k {
			case "event":
				e.name = v
			case "id":
				e.id = v
			case "data":
				e.data = v
			}
		}
		if e.name != "" {
			out = append(out, e)
		}
	}
	return out
}

func checkEventStream(ex Example, real []byte) error {
	got := map[string]sseEvent{}
	all := parseEvents(string(real))
	for _, e := range all {
		got[e.id] = e
	}
	want := parseEvents(ex.Answer)
	if len(want) == 0 {
		return errors.New("the example stream has no event")
	}
	for i, w := range want {
		g, ok := got[w.id]
		if !ok && w.id != "" && i < len(all) && all[i].id != "" {
			// Opaque ids (the run stream's) differ from server to server:
			// the real event at the same place stands for the example's.
			g, ok = all[i], true
		}
		if !ok || g.name != w.name {
			return fmt.Errorf("the example's event %s (id %s) is not in the real stream:\n%s", w.name, w.id, real)
		}
		var wd, gd any
		if err := json.Unmarshal([]byte(w.data), &wd); err != nil {
			return fmt.Errorf("the example's event %s (id %s): %v", w.name, w.id, err)
		}
		if err := json.Unmarshal([]byte(g.data), &gd); err != nil {
			return fmt.Errorf("the real event %s (id %s): %v", g.name, g.id, err)
		}
		if diff := shapeDiff(wd, gd, false, ""); len(diff) > 0 {
			return fmt.Errorf("the example's event %s (id %s) differs from the real one:\n%s\nreal: %s", w.name, w.id, strings.Join(diff, "\n"), g.data)
		}
	}
	return nil
}

// checkArchive finds every file of want in the gzipped tar real.
func checkArchive(want []string, real []byte) error {
	gz, err := gzip.NewReader(bytes.NewReader(real))
	if err != nil {
		return fmt.Errorf("the answer is not gzipped: %v", err)
	}
	tr := tar.NewReader(gz)
	have := map[string]bool{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("the answer is not a tar: %v", err)
		}
		have[h.Name] = true
	}
	for _, f := range want {
		if !have[f] {
			return fmt.Errorf("the archive holds no %s (it holds %v)", f, have)
		}
	}
	return nil
}
