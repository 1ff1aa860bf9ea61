package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// call is one call of a tool: its arguments and the backend its API
// requests go through.
type call struct {
	ctx  context.Context
	tool *tool
	api  Backend
	args map[string]json.RawMessage
}

// argError is an argument the tool cannot use; the call answers a tool
// error naming it.
type argError struct {
	name, msg string
}

func (e *argError) Error() string { return fmt.Sprintf("argument %q: %s", e.name, e.msg) }

// apiError is an error answer of the API: the one error shape of
// docs/api.md, with its status.
type apiError struct {
	Status    int             `json:"-"`
	Message   string          `json:"error"`
	Code      string          `json:"code"`
	Details   json.RawMessage `json:"details,omitempty"`
	RequestID string          `json:"requestId,omitempty"`
}

func (e *apiError) Error() string { return e.describe() }

// describe is the error in words: the message, the code and status, and
// each problem of its details on its own line (an IR's problems with their
// JSON pointer, node and rule).
func (e *apiError) describe() string {
	var b strings.Builder
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	fmt.Fprintf(&b, "%s (%s, HTTP %d)", msg, e.Code, e.Status)
	var problems []struct {
		Path    string `json:"path"`
		Message string `json:"message"`
		NodeID  string `json:"nodeId"`
		Rule    string `json:"rule"`
	}
	if json.Unmarshal(e.Details, &problems) == nil {
		for _, p := range problems {
			b.WriteString("\n  ")
			if p.Path != "" {
				b.WriteString(p.Path)
			}
			var at []string
			if p.NodeID != "" {
				at = append(at, "node "+p.NodeID)
			}
			if p.Rule != "" {
				at = append(at, "rule "+p.Rule)
			}
			if len(at) > 0 {
				fmt.Fprintf(&b, " (%s)", strings.Join(at, ", "))
			}
			if p.Path != "" || len(at) > 0 {
				b.WriteString(": ")
			}
			b.WriteString(p.Message)
		}
	}
	return b.String()
}

// readAPIError reads a non-2xx answer.
func readAPIError(resp *Response) *apiError {
	e := &apiError{Status: resp.Status}
	if json.Unmarshal(resp.Body, e) != nil || e.Code == "" {
		e.Code = "http_error"
		e.Message = strings.TrimSpace(string(resp.Body))
		if len(e.Message) > 300 {
			e.Message = e.Message[:300] + "…"
		}
	}
	return e
}

// do sends an API request and decodes a 2xx JSON answer into out (nil:
// ignored); any other answer is an *apiError.
func (c *call) do(method, path string, query url.Values, body, out any) error {
	resp, err := c.api.Do(c.ctx, Request{Method: method, Path: path, Query: query, Body: body})
	if err != nil {
		return err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return readAPIError(resp)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return fmt.Errorf("reading the answer of %s %s: %w", method, path, err)
	}
	return nil
}

// has reports whether the argument was given (null counts as not given).
func (c *call) has(name string) bool {
	v, ok := c.args[name]
	return ok && !bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

// str returns a string argument ("" when not given).
func (c *call) str(name string) (string, error) {
	if !c.has(name) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(c.args[name], &s); err != nil {
		return "", &argError{name, "must be a string"}
	}
	return s, nil
}

// id returns a required id argument: a non-empty string, escaped for a
// path.
func (c *call) id(name string) (string, error) {
	s, err := c.str(name)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", &argError{name, "is required"}
	}
	return url.PathEscape(s), nil
}

// integer returns an integer argument from lo to hi (def when not given).
func (c *call) integer(name string, lo, hi, def int) (int, error) {
	if !c.has(name) {
		return def, nil
	}
	var f float64
	if err := json.Unmarshal(c.args[name], &f); err != nil || f != float64(int(f)) {
		return 0, &argError{name, "must be an integer"}
	}
	if n := int(f); n < lo || n > hi {
		return 0, &argError{name, fmt.Sprintf("must be from %d to %d", lo, hi)}
	} else {
		return n, nil
	}
}

// query collects the given string arguments as query parameters.
func (c *call) query(names ...string) (url.Values, error) {
	q := url.Values{}
	for _, name := range names {
		if !c.has(name) {
			continue
		}
		var v any
		if err := json.Unmarshal(c.args[name], &v); err != nil {
			return nil, &argError{name, "is not JSON"}
		}
		switch v := v.(type) {
		case string:
			q.Set(name, v)
		case float64:
			q.Set(name, fmt.Sprint(v))
		default:
			return nil, &argError{name, "must be a string or a number"}
		}
	}
	return q, nil
}

// body collects the given arguments, as they were sent, into a request
// body: the API checks their types and values as it checks any client's.
func (c *call) body(names ...string) map[string]json.RawMessage {
	b := map[string]json.RawMessage{}
	for _, name := range names {
		if c.has(name) {
			b[name] = c.args[name]
		}
	}
	return b
}

// outcome is what a tool answers: the structured result (the schema of the
// tool's output) and a short text saying what happened.
type outcome struct {
	value   any
	summary string
}

// handle runs a tool call: the arguments are read as an object whose names
// the input schema lists, the tool runs, and its outcome or its error
// becomes the result. Every failure of the tool is a tool error (isError),
// with the API's error in words and as JSON, never a protocol error.
func (t *tool) handle(backend func(*sdk.CallToolRequest) Backend) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		c := &call{ctx: ctx, tool: t, api: backend(req), args: map[string]json.RawMessage{}}
		if raw := req.Params.Arguments; len(raw) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			if err := json.Unmarshal(raw, &c.args); err != nil {
				return toolError(t.name, fmt.Errorf("the arguments must be a JSON object: %v", err)), nil
			}
		}
		for name := range c.args {
			if _, ok := t.params[name]; !ok {
				return toolError(t.name, &argError{name, "is not an argument of " + t.name + "; it takes " + strings.Join(slices.Sorted(maps.Keys(t.params)), ", ")}), nil
			}
		}
		out, err := t.run(c)
		if err != nil {
			return toolError(t.name, err), nil
		}
		return success(out), nil
	}
}

// success is a tool's result: the short text, the structured content and,
// as the MCP specification asks of a tool with an output schema, the same
// content serialized as JSON text for clients that read only text.
func success(out *outcome) *sdk.CallToolResult {
	raw, err := json.Marshal(out.value)
	if err != nil {
		return toolError("", err)
	}
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: out.summary}, &sdk.TextContent{Text: string(raw)}},
		StructuredContent: json.RawMessage(raw),
	}
}

// toolError is the result of a failed call: what failed in words and, for
// an error of the API, its JSON (code, message, details with JSON pointers).
func toolError(name string, err error) *sdk.CallToolResult {
	var text string
	switch e := err.(type) {
	case *apiError:
		text = name + ": " + e.describe()
		if raw, merr := json.Marshal(e); merr == nil {
			text += "\n" + string(raw)
		}
	default:
		text = name + ": " + err.Error()
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}
