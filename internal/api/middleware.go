package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/studio"
	"go.opentelemetry.io/otel/trace"
)

type ctxKey int

const (
	ctxRequestID ctxKey = iota
	ctxPrincipal
)

// responseWriter records the status and size of a response.
type responseWriter struct {
	http.ResponseWriter
	status      int
	bytes       int
	wroteHeader bool
	// capture, when set, keeps the start of the body (the audit log reads
	// a created record's id from it).
	capture *bytes.Buffer
}

func (w *responseWriter) WriteHeader(status int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *responseWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	if w.capture != nil && w.capture.Len() < maxCapture {
		w.capture.Write(b[:min(n, maxCapture-w.capture.Len())])
	}
	w.bytes += n
	return n, err
}

// Flush lets streaming handlers (SSE) flush through the wrapper.
func (w *responseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		if !w.wroteHeader {
			w.WriteHeader(http.StatusOK)
		}
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// requestIDFrom returns the request's id ("" outside the server).
func requestIDFrom(r *http.Request) string {
	id, _ := r.Context().Value(ctxRequestID).(string)
	return id
}

// RequestID returns the id the server gave r (the X-Request-Id header of its response).
func RequestID(r *http.Request) string { return requestIDFrom(r) }

// validRequestID accepts a client's X-Request-Id when it is short and plain.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func newRequestID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ServeHTTP runs every request through request id, panic recovery, logging
// and the per-IP rate limit, then the route table. Unknown paths and methods
// get JSON 404 and 405.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := r.Header.Get("X-Request-Id")
	if !validRequestID(id) {
		id = newRequestID()
	}
	rw := &responseWriter{ResponseWriter: w, status: http.StatusOK}
	rw.Header().Set("X-Request-Id", id)
	studio.Headers(rw.Header())
	r = r.WithContext(context.WithValue(r.Context(), ctxRequestID, id))
	s.metrics.inFlight.Add(1)
	var pattern string // the route that matched, for the metrics
	defer func() {     // runs last: after a panic's 500 is written
		s.metrics.inFlight.Add(-1)
		s.metrics.observe(pattern, rw.status, time.Since(start))
	}()
	// A state-changing route's request is audited however it ends: refused
	// by a rate limit, authentication or validation, failed, or done.
	var audited *Route
	var info *auditInfo
	defer func() { // runs after the panic recovery below has answered
		if audited != nil && !(info != nil && info.deferred) {
			s.audit.add(s.auditEntry(r, audited, info, rw))
		}
	}()

	var span trace.Span // the request's server span (tracing.go); ended after a panic's 500
	defer func() {
		if span != nil {
			endServerSpan(span, r, rw.status)
		}
	}()
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.Logger.Error("panic", "requestId", id, "method", r.Method, "path", r.URL.Path,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if !rw.wroteHeader {
				s.writeError(rw, r, fmt.Errorf("panic: %v", v))
			}
		}
		s.logRequest(r, rw, start)
	}()

	// Studio's files come from memory and are not rate limited (decision 151);
	// a path Studio does not serve goes on to the routes (a JSON 404).
	if s.Studio != nil && studio.IsClientPath(r.URL.Path) && s.Studio.Serve(rw, r) {
		pattern = studioMetricsRoute
		return
	}
	h, matched := s.mux.Handler(r)
	if rt := s.byPattern[matched]; rt != nil && !unlimitedPaths[r.URL.Path] { // probes and scrapes are not traced
		span = s.startServerSpan(r, rt)
	}
	if rt := s.byPattern[matched]; rt != nil && rt.Audit != "" {
		audited, info = rt, &auditInfo{}
		*r = *r.WithContext(context.WithValue(r.Context(), ctxAuditKey{}, info))
		if rt.capturesID() {
			rw.capture = &bytes.Buffer{}
		}
	}
	if !s.Limits.Off && !unlimitedPaths[r.URL.Path] {
		if err := s.rateLimit(rw, r, "ip:"+s.clientIP(r), s.Limits.Global); err != nil {
			s.writeError(rw, r, err)
			return
		}
	}
	pattern = matched
	if pattern == "" {
		s.serveUnmatched(rw, r, h)
		return
	}
	s.mux.ServeHTTP(rw, r)
}

// studioMetricsRoute is the metrics' route of Studio's answers.
const studioMetricsRoute = "studio"

// serveUnmatched answers paths no route matches: JSON 404 or 405 (with
// Allow), or the mux's own redirect (e.g. a cleaned path).
func (s *Server) serveUnmatched(w http.ResponseWriter, r *http.Request, h http.Handler) {
	probe := &statusProbe{header: http.Header{}}
	h.ServeHTTP(probe, r)
	switch probe.status {
	case http.StatusMethodNotAllowed:
		w.Header().Set("Allow", probe.header.Get("Allow"))
		s.writeError(w, r, edgeflow.Errorf(codeMethodNotAllowed, "method %s is not allowed on %s", r.Method, r.URL.Path))
	case http.StatusNotFound, 0:
		s.writeError(w, r, edgeflow.Errorf(edgeflow.ENotFound, "no such endpoint: %s %s", r.Method, r.URL.Path))
	default:
		h.ServeHTTP(w, r)
	}
}

// statusProbe captures what the mux's fallback handler would answer.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header { return p.header }
func (p *statusProbe) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
}
func (p *statusProbe) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return len(b), nil
}

// unlimitedPaths are the probes of load balancers, orchestrators and
// monitoring: never rate limited nor counted against the per-address budget,
// so that a proxy's health checks and scrapes neither get 429 nor use up its
// clients' budget.
var unlimitedPaths = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// rateLimit counts one request of key and sets the RateLimit-* headers;
// over the limit it returns rate_limited and sets Retry-After. A counter
// failure lets the request through (logged): the database being slow must not
// turn every request into an error.
func (s *Server) rateLimit(w http.ResponseWriter, r *http.Request, key string, limit int) error {
	if limit <= 0 {
		return nil
	}
	d, err := s.limiter.Allow(r.Context(), key, limit)
	if err != nil {
		s.Logger.Warn("rate limit counter failed", "requestId", requestIDFrom(r), "error", err.Error())
		return nil
	}
	reset := max(int(time.Until(d.Reset).Seconds()+0.999), 0)
	if s.Now != nil {
		reset = max(int(d.Reset.Sub(s.now()).Seconds()+0.999), 0)
	}
	h := w.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(d.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.Remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(reset))
	h.Set("RateLimit-Policy", strconv.Itoa(d.Limit)+";w=60")
	if !d.Allowed {
		h.Set("Retry-After", strconv.Itoa(max(reset, 1)))
		return edgeflow.Errorf(edgeflow.ERateLimited, "rate limit exceeded: %d requests per minute; retry in %d s", d.Limit, max(reset, 1))
	}
	return nil
}

func (s *Server) classLimit(c LimitClass) int {
	if s.Limits.Off {
		return 0
	}
	switch c {
	case LimitWrite:
		return s.Limits.Write
	case LimitDeploy:
		return s.Limits.Deploy
	case LimitVerify:
		return s.Limits.Verify
	case LimitIR:
		return s.Limits.IR
	}
	return 0
}

// wrap applies a route's authentication, CSRF check, scope and rate limit
// class around its handler, and answers the handler's error.
func (s *Server) wrap(rt Route) http.Handler {
	handler := s.streamed(rt, rt.Handler) // streams are admitted against the open ones (streamlimit.go)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.admit(w, r, rt); err != nil {
			s.writeError(w, r, err)
			return
		}
		if err := checkInput(r, rt); err != nil {
			s.writeError(w, r, err)
			return
		}
		if slices.Contains(rt.Query, "cursor") {
			r = withCursors(r, s.Sealer)
		}
		if rt.ReadsBody() {
			limitBodyTime(w, r, s.BodyReadTimeout)
		}
		if err := handler(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}

func (s *Server) admit(w http.ResponseWriter, r *http.Request, rt Route) error {
	if rt.Auth == AuthNone {
		if c := s.classLimit(rt.Limit); c > 0 {
			return s.rateLimit(w, r, rt.Limit.String()+":ip:"+s.clientIP(r), c)
		}
		return nil
	}
	p, err := s.authenticate(r)
	if err != nil {
		return err
	}
	*r = *r.WithContext(context.WithValue(r.Context(), ctxPrincipal, p))
	switch {
	case rt.Auth == AuthSession && p.Session == nil:
		return errForbidden("%s %s accepts session authentication only, not API keys", rt.Method, rt.Pattern)
	case rt.Auth == AuthKey && p.APIKey == nil:
		return errForbidden("%s %s accepts API keys only", rt.Method, rt.Pattern)
	}
	if p.Session != nil && r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
		if !checkCSRF(r, p.Session) {
			return errForbidden("missing or invalid CSRF token: send the session's csrfToken in the X-CSRF-Token header")
		}
	}
	if need := rt.MinRole(); need != "" {
		if p.OrganizationID == "" {
			return edgeflow.NotFound("organization")
		}
		if !p.RoleAtLeast(need) {
			return errForbidden("%s %s needs the %s role in the organization (%s)", rt.Method, rt.Pattern, need, roleOfCaller(p))
		}
	}
	if rt.Scope != "" && !p.HasScope(rt.Scope) {
		switch {
		case p.Session != nil:
			return errForbidden("%s %s needs the %q scope, which the %s role does not include", rt.Method, rt.Pattern, rt.Scope, p.Role)
		case slices.Contains(p.APIKey.Scopes, rt.Scope):
			return errForbidden("this API key's %q scope exceeds the %s role its creator now has in the organization", rt.Scope, p.Role)
		}
		return errForbidden("this API key lacks the %q scope", rt.Scope)
	}
	if c := s.classLimit(rt.Limit); c > 0 {
		return s.rateLimit(w, r, rt.Limit.String()+":user:"+p.UserID, c)
	}
	return nil
}

// roleOfCaller says whose role a refusal compared.
func roleOfCaller(p *Principal) string {
	if p.APIKey != nil {
		return "the key's creator is " + string(p.Role)
	}
	return "you are " + string(p.Role)
}
