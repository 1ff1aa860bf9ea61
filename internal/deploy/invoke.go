package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Invoking a deployed function on the caller's behalf (POST
// /api/workflows/:id/invoke; docs/deploy.md, "Functions"; decisions 225–227).

// Limits of an invocation.
const (
	// MaxInvokeBodyBytes is the most of the request body sent to the function.
	MaxInvokeBodyBytes = MaxParamsBytes
	// MaxInvokeAnswerBytes is the most of the function's answer returned;
	// the rest is cut and the answer marked bodyTruncated.
	MaxInvokeAnswerBytes = 1 << 20
	// MaxInvokeHeaders is the most request headers a caller may add.
	MaxInvokeHeaders = 20
	// maxInvokeHeaderValue is the longest request header value accepted.
	maxInvokeHeaderValue = 4096
	// maxInvokePath is the longest path (with its query) accepted.
	maxInvokePath = 2048
)

// InvokeRequest asks edgeflow to call a function's active deployment.
type InvokeRequest struct {
	// ConnectionID is the connection the function is deployed on.
	ConnectionID string
	// Method is POST (default), GET, PUT or DELETE.
	Method string
	// Path is the path (and query) below the deployment's URL; default "/".
	Path string
	// Body is sent as the JSON request body (not for GET).
	Body json.RawMessage
	// Headers are extra request headers.
	Headers map[string]string
}

// InvokeResult is the function's answer.
type InvokeResult struct {
	Status        int               `json:"status"`
	Headers       map[string]string `json:"headers"`
	Body          string            `json:"body"`
	BodyTruncated bool              `json:"bodyTruncated"`
	DurationMs    int64             `json:"durationMs"`
}

// invokeMethods are the methods an invocation may use.
var invokeMethods = map[string]bool{"POST": true, "GET": true, "PUT": true, "DELETE": true}

// forbiddenInvokeHeaders are request headers a caller may not set: they
// carry credentials, decide where or how the request travels, or belong to
// edgeflow and the platform.
var forbiddenInvokeHeaders = map[string]bool{
	"host": true, "authorization": true, "proxy-authorization": true, "cookie": true,
	"connection": true, "content-length": true, "transfer-encoding": true, "te": true, "trailer": true,
	"upgrade": true, "keep-alive": true, "expect": true, "forwarded": true, "via": true,
	"x-real-ip": true, "true-client-ip": true, "max-forwards": true,
}

// forbiddenInvokePrefixes are header name prefixes a caller may not set.
// "mf-" are miniflare's instructions to the local edge's workerd
// (MF-CF-Blob would replace the function's request.cf, MF-Route-Override
// pick another worker); the edge's gateway also drops them.
var forbiddenInvokePrefixes = []string{"x-edgeflow-", "proxy-", "sec-", "cf-", "x-forwarded-", "mf-"}

// safeAnswerHeaders are the answer headers returned to the caller; others
// (cookies, platform internals) are left out.
var safeAnswerHeaders = []string{
	"Content-Type", "Content-Language", "Content-Disposition", "Cache-Control", "Etag", "Last-Modified",
	"Location", "Retry-After", "Vary", "Expires",
}

// CheckInvokePath checks the path of an invocation: it starts with one "/",
// and has no scheme, host, backslash, fragment, control or space
// characters, dot segments or encoded slashes, backslashes or dots, so that
// it stays below the deployment's URL.
func CheckInvokePath(p string) error {
	const field = "/path"
	switch {
	case len(p) > maxInvokePath:
		return edgeflow.Invalid(field, fmt.Sprintf("path must be at most %d characters", maxInvokePath))
	case !strings.HasPrefix(p, "/"):
		return edgeflow.Invalid(field, `path must start with "/"`)
	case strings.HasPrefix(p, "//"):
		return edgeflow.Invalid(field, `path must not start with "//"`)
	case !utf8.ValidString(p):
		return edgeflow.Invalid(field, "path must be UTF-8")
	}
	for _, r := range p {
		if r <= ' ' || r == 0x7f || r == '\\' || r == '#' {
			return edgeflow.Invalid(field, "path must not hold spaces, control characters, backslashes or \"#\"")
		}
	}
	pathPart, _, _ := strings.Cut(p, "?")
	if strings.Contains(pathPart, "//") {
		return edgeflow.Invalid(field, `path must not hold "//"`)
	}
	lower := strings.ToLower(pathPart)
	for _, enc := range []string{"%2f", "%5c", "%2e", "%00"} {
		if strings.Contains(lower, enc) {
			return edgeflow.Invalid(field, "path must not hold encoded slashes, backslashes, dots or NUL ("+enc+")")
		}
	}
	for _, seg := range strings.Split(pathPart, "/") {
		if seg == "." || seg == ".." {
			return edgeflow.Invalid(field, `path must not hold "." or ".." segments`)
		}
	}
	if _, err := url.ParseRequestURI(p); err != nil {
		return edgeflow.Invalid(field, "path is not a valid URL path")
	}
	return nil
}

// checkInvokeHeaders checks the caller's request headers.
func checkInvokeHeaders(h map[string]string) error {
	if len(h) > MaxInvokeHeaders {
		return edgeflow.Invalid("/headers", fmt.Sprintf("at most %d headers", MaxInvokeHeaders))
	}
	names := make([]string, 0, len(h))
	for n := range h {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := h[n]
		field := "/headers/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(n)
		if n == "" || !isToken(n) {
			return edgeflow.Invalid(field, "a header name is letters, digits and !#$%&'*+-.^_`|~")
		}
		l := strings.ToLower(n)
		if forbiddenInvokeHeaders[l] {
			return edgeflow.Invalid(field, "header "+n+" may not be set")
		}
		for _, p := range forbiddenInvokePrefixes {
			if strings.HasPrefix(l, p) {
				return edgeflow.Invalid(field, "headers starting with "+p+" may not be set")
			}
		}
		if len(v) > maxInvokeHeaderValue {
			return edgeflow.Invalid(field, fmt.Sprintf("a header value is at most %d bytes", maxInvokeHeaderValue))
		}
		for i := 0; i < len(v); i++ {
			if c := v[i]; (c < ' ' && c != '\t') || c == 0x7f {
				return edgeflow.Invalid(field, "a header value must not hold control characters")
			}
		}
	}
	return nil
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// invokeURL joins the deployment's URL and a checked path, and confirms
// that the result is still the deployment's scheme and host, below its
// path.
func invokeURL(base, p string) (string, error) {
	b, err := url.Parse(base)
	if err != nil || b.Host == "" || (b.Scheme != "http" && b.Scheme != "https") {
		return "", &edgeflow.Error{Code: edgeflow.EInternal, Message: "the deployment URL is invalid", Err: err}
	}
	root := strings.TrimSuffix(b.Path, "/")
	joined := b.Scheme + "://" + b.Host + root + p
	u, err := url.Parse(joined)
	if err != nil || u.Scheme != b.Scheme || u.Host != b.Host || u.User != nil || !strings.HasPrefix(u.Path, root+"/") {
		return "", edgeflow.Invalid("/path", "path must stay below the function's URL")
	}
	return joined, nil
}

// Invoke calls the function's active deployment on the connection with the
// request's method, path, body and headers, and returns its answer. Errors:
// unknown workflow or connection → not_found; not a function → bad_request;
// bad method, path or headers → validation_failed; not deployed there →
// conflict; the worker could not be reached → provider_unavailable.
func (s *Service) Invoke(ctx context.Context, tw *TenantWorkflow, req InvokeRequest) (*InvokeResult, error) {
	wf, t := tw.Workflow(), tw.Tenant()
	w := &wf
	if strings.TrimSpace(req.ConnectionID) == "" {
		return nil, edgeflow.Invalid("/connectionId", "connectionId is required")
	}
	method := req.Method
	if method == "" {
		method = http.MethodPost
	}
	if !invokeMethods[method] {
		return nil, edgeflow.Invalid("/method", "method must be POST, GET, PUT or DELETE")
	}
	p := req.Path
	if p == "" {
		p = "/"
	}
	if err := CheckInvokePath(p); err != nil {
		return nil, err
	}
	if err := checkInvokeHeaders(req.Headers); err != nil {
		return nil, err
	}
	body := bytes.TrimSpace(req.Body)
	if method == http.MethodGet && len(body) > 0 && string(body) != "null" {
		return nil, edgeflow.Invalid("/body", "a GET sends no body")
	}
	if len(body) > MaxInvokeBodyBytes {
		return nil, edgeflow.Errorf(edgeflow.EPayloadTooLarge, "body must be at most 100 KB when serialized (got %d bytes)", len(body))
	}
	if w.Kind != edgeflow.KindScript {
		return nil, edgeflow.Errorf(edgeflow.EBadRequest,
			"only a function can be invoked: start a run of workflow %s with POST /api/workflows/%s/trigger", w.ID, w.ID)
	}
	c, err := s.connection(ctx, t.OrganizationID, t.ProjectID, req.ConnectionID)
	if err != nil {
		return nil, err
	}
	d, err := s.store.FindActiveDeployment(ctx, w.ID, c.ID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "the function is not deployed on this connection")
		}
		return nil, err
	}
	if d.URL == "" {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "the function's deployment has no URL")
	}
	target, err := invokeURL(d.URL, p)
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var rd io.Reader
	if len(body) > 0 && method != http.MethodGet {
		rd = bytes.NewReader(body)
	}
	hreq, err := http.NewRequestWithContext(rctx, method, target, rd)
	if err != nil {
		return nil, &edgeflow.Error{Code: edgeflow.EInternal, Message: "the deployment URL is invalid", Err: err}
	}
	for n, v := range req.Headers {
		hreq.Header.Set(n, v)
	}
	if rd != nil && hreq.Header.Get("Content-Type") == "" {
		hreq.Header.Set("Content-Type", "application/json")
	}
	// A function is public (docs/deploy.md, "Functions"): it gets no
	// deployment token. Redirects are answered, never followed, so the
	// request cannot be led to another host.
	client := *s.http
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	start := s.now()
	res, err := client.Do(hreq)
	if err != nil {
		msg := "the function's worker could not be reached"
		if errors.Is(rctx.Err(), context.DeadlineExceeded) {
			msg = fmt.Sprintf("the function's worker did not answer within %s", s.timeout)
		}
		return nil, &edgeflow.Error{Code: edgeflow.EProviderUnavailable, Message: msg, Err: err}
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(res.Body, MaxInvokeAnswerBytes+1))
	if err != nil {
		return nil, &edgeflow.Error{Code: edgeflow.EProviderUnavailable, Message: "the function's answer could not be read", Err: err}
	}
	out := &InvokeResult{Status: res.StatusCode, Headers: map[string]string{}, DurationMs: s.now().Sub(start).Milliseconds()}
	if len(answer) > MaxInvokeAnswerBytes {
		answer = answer[:MaxInvokeAnswerBytes]
		// Do not end inside a UTF-8 sequence.
		for i := 0; i < utf8.UTFMax-1 && len(answer) > 0; i++ {
			if r, size := utf8.DecodeLastRune(answer); r != utf8.RuneError || size != 1 {
				break
			}
			answer = answer[:len(answer)-1]
		}
		out.BodyTruncated = true
	}
	out.Body = strings.ToValidUTF8(string(answer), "\uFFFD")
	for _, h := range safeAnswerHeaders {
		if v := res.Header.Values(h); len(v) > 0 {
			out.Headers[strings.ToLower(h)] = strings.Join(v, ", ")
		}
	}
	return out, nil
}
