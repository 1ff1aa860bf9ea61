package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// sessionCookie and the two headers are the server's (internal/api).
const (
	sessionCookie = "edgeflow_session"
	csrfHeader    = "X-CSRF-Token"
	projectHeader = "X-Edgeflow-Project"
)

// maxAnswer caps an API answer the client reads (a version with its code is
// the largest; runs with 64 KiB step outputs come next).
const maxAnswer = 64 << 20

// client calls the edgeflow API as one caller: an API key, or a session
// (cookie and CSRF token) made by `login --email`.
type client struct {
	base    string // http(s)://host[:port], without /api
	apiKey  string
	session string
	csrf    string
	project string // X-Edgeflow-Project for API keys (`use project`)
	http    *http.Client
}

// APIError is an error answer of the API.
type APIError struct {
	Status    int
	Code      string
	Message   string
	Details   json.RawMessage
	RequestID string
}

func (e *APIError) Error() string { return e.Describe() }

// Describe is the error in words: the message, the code and status, and
// each field problem on its own line.
func (e *APIError) Describe() string {
	var b strings.Builder
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	fmt.Fprintf(&b, "%s (%s, HTTP %d)", msg, e.Code, e.Status)
	for _, p := range e.fieldProblems() {
		b.WriteString("\n  ")
		if p.Path != "" {
			b.WriteString(p.Path)
			if p.NodeID != "" {
				fmt.Fprintf(&b, " (node %s)", p.NodeID)
			}
			b.WriteString(": ")
		}
		b.WriteString(p.Message)
	}
	return b.String()
}

// fieldProblems are the entries of an error's details: a bad field (path
// and message) or an IR problem (with its node and rule), both of which
// edgeflow.IRProblem holds.
// rawDetails is an error's details as JSON (nil when it has none).
func rawDetails(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func (e *APIError) fieldProblems() []edgeflow.IRProblem {
	var list []edgeflow.IRProblem
	if json.Unmarshal(e.Details, &list) != nil {
		return nil
	}
	return list
}

// normalizeURL turns what the user typed (the address serve prints, with or
// without a trailing /api) into the base the client joins paths to.
func normalizeURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", usageError("the server URL is empty")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", usageError("%q is not a server URL: give http://host:port (the address edgeflow serve prints)", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", usageError("%q is not a server URL: no query, fragment or user name", raw)
	}
	p := strings.TrimRight(u.Path, "/")
	p = strings.TrimSuffix(p, "/api")
	u.Path = strings.TrimRight(p, "/")
	return u.String(), nil
}

// request sends one API request and decodes a 2xx JSON answer into out
// (nil: ignored). query may be nil; body is marshalled to JSON unless it is
// a json.RawMessage.
func (c *client) request(ctx context.Context, method, path string, query url.Values, body, out any) error {
	resp, err := c.send(ctx, method, path, query, body, "application/json")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
		return nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(out); err != nil {
		return fmt.Errorf("reading the answer of %s %s: %w", method, path, err)
	}
	return nil
}

// send sends a request and returns the response of a 2xx answer; any other
// status is read into an *APIError.
func (c *client) send(ctx context.Context, method, path string, query url.Values, body any, accept string) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		raw, ok := body.(json.RawMessage)
		if !ok {
			var err error
			if raw, err = json.Marshal(body); err != nil {
				return nil, err
			}
		}
		rd = bytes.NewReader(raw)
	}
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", "edgeflow-cli")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	c.authorize(req)
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, failed("cannot reach the server at %s: %v", c.base, err)
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, nil
	}
	defer resp.Body.Close()
	return nil, readAPIError(resp)
}

// authorize sets the caller's credentials on req: the API key (and the
// project an organization key acts in), or the session cookie with the CSRF
// token on a write.
func (c *client) authorize(req *http.Request) {
	switch {
	case c.apiKey != "":
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
		if c.project != "" {
			req.Header.Set(projectHeader, c.project)
		}
	case c.session != "":
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: c.session})
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			req.Header.Set(csrfHeader, c.csrf)
		}
	}
}

func readAPIError(resp *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	e := &APIError{Status: resp.StatusCode}
	var body edgeflow.ErrorBody
	if json.Unmarshal(raw, &body) == nil && body.Code != "" {
		e.Code, e.Message, e.Details, e.RequestID = body.Code, body.Error, rawDetails(body.Details), body.RequestID
	} else {
		e.Code = "http_error"
		e.Message = strings.TrimSpace(string(raw))
		if len(e.Message) > 200 {
			e.Message = e.Message[:200] + "…"
		}
	}
	return e
}

// isStatus reports whether err is an API error with that status.
func isStatus(err error, status int) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status == status
}

// listAll reads every page of a list (at most max items; 0: no bound).
func listAll[T any](ctx context.Context, c *client, path string, query url.Values, max int) ([]T, error) {
	var all []T
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	q.Set("limit", "100")
	for {
		var p edgeflow.ListPage[T]
		if err := c.request(ctx, http.MethodGet, path, q, nil, &p); err != nil {
			return nil, err
		}
		all = append(all, p.Data...)
		if p.NextCursor == nil || *p.NextCursor == "" || (max > 0 && len(all) >= max) {
			if max > 0 && len(all) > max {
				all = all[:max]
			}
			return all, nil
		}
		q.Set("cursor", *p.NextCursor)
	}
}

// decodeJSON reads one JSON value of at most maxAnswer bytes.
func decodeJSON(r io.Reader, out any) error {
	if err := json.NewDecoder(io.LimitReader(r, maxAnswer)).Decode(out); err != nil {
		return fmt.Errorf("reading the server's answer: %w", err)
	}
	return nil
}
