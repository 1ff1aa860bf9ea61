package mcp

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The HTTP transport's sessions (docs/decisions.md 412). Streamable HTTP
// keeps a session per client in the process that initialized it: the SDK's
// state, a goroutine, and a stream while the client listens (GET). A session
// belongs to the API key that opened it (another key naming its id gets
// 403), ends after SessionTimeout without a request or when the client
// ends it (DELETE), and one key holds at most MaxSessionsPerKey of them, the
// process MaxSessions: an initialize past either is refused with 429.
const (
	DefaultSessionTimeout    = 30 * time.Minute
	DefaultMaxSessionsPerKey = 16
	DefaultMaxSessions       = 1024
)

// sessionIDHeader is the transport's session header.
const sessionIDHeader = "Mcp-Session-Id"

// HTTPOptions configure the HTTP transport.
type HTTPOptions struct {
	// API is the API server the tools send their requests to, in-process
	// (required).
	API http.Handler
	// OpenAPI is the API's OpenAPI document (required).
	OpenAPI []byte
	// Version is edgeflow's version.
	Version string
	// Logger receives the SDK's diagnostics; nil discards them.
	Logger *slog.Logger
	// SessionTimeout closes a session idle that long; 0 means
	// DefaultSessionTimeout.
	SessionTimeout time.Duration
	// MaxSessionsPerKey and MaxSessions bound the open sessions; 0 means
	// the default.
	MaxSessionsPerKey, MaxSessions int
}

// HTTPHandler serves the Streamable HTTP transport for callers the API has
// admitted (Serve).
type HTTPHandler struct {
	opts    HTTPOptions
	server  *sdk.Server
	handler http.Handler

	mu      sync.Mutex
	owners  map[string]string // session id → the API key id that opened it
	opening map[string]int    // API key id → its initializations in progress
}

// Caller is who the API admitted for a request of the transport.
type Caller struct {
	// KeyID is the API key's id: the sessions it opens are its own.
	KeyID string
	// Address is the client address the API counted the request against;
	// the tools' API requests count against it too.
	Address string
	// RequestID is the API's id of the request.
	RequestID string
}

type ctxCaller struct{}

// NewHTTPHandler builds the HTTP transport over a new MCP server whose
// tools call opts.API in-process.
func NewHTTPHandler(opts HTTPOptions) (*HTTPHandler, error) {
	if opts.SessionTimeout == 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.MaxSessionsPerKey == 0 {
		opts.MaxSessionsPerKey = DefaultMaxSessionsPerKey
	}
	if opts.MaxSessions == 0 {
		opts.MaxSessions = DefaultMaxSessions
	}
	server, err := NewServer(Options{
		OpenAPI: opts.OpenAPI, Version: opts.Version, Logger: opts.Logger,
		Backend: func(req *sdk.CallToolRequest) Backend {
			var h http.Header
			if req.Extra != nil {
				h = req.Extra.Header
			}
			return &Local{Handler: opts.API, Header: h, RequestID: h.Get("X-Request-Id")}
		},
	})
	if err != nil {
		return nil, err
	}
	h := &HTTPHandler{opts: opts, server: server, owners: map[string]string{}, opening: map[string]int{}}
	streamable := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, &sdk.StreamableHTTPOptions{
		Logger:         opts.Logger,
		SessionTimeout: opts.SessionTimeout,
		// The API admitted the request (an API key, never a cookie: no
		// cross-site request can carry one) and answers for the host.
		DisableLocalhostProtection: true,
	})
	// The SDK binds a session to the token's user: a request naming a
	// session with another key's credentials is refused with 403.
	h.handler = auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		c, _ := r.Context().Value(ctxCaller{}).(Caller)
		return &auth.TokenInfo{UserID: "key:" + c.KeyID}, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(streamable)
	return h, nil
}

// Serve answers one request of the transport (POST, GET or DELETE) from a
// caller the API admitted with an API key. It returns a rate_limited error,
// before anything is written, when the request would open a session past
// the limits.
func (h *HTTPHandler) Serve(w http.ResponseWriter, r *http.Request, c Caller) error {
	r = r.Clone(context.WithValue(r.Context(), ctxCaller{}, c))
	// What the tools read of the request's headers is set here, never
	// taken from the client (Local).
	r.Header.Set(ClientAddressHeader, c.Address)
	r.Header.Set("X-Request-Id", c.RequestID)
	// A request without Accept takes any media type (RFC 9110, 12.5.1).
	if len(r.Header.Values("Accept")) == 0 {
		r.Header.Set("Accept", "application/json, text/event-stream")
	}
	opens := r.Method == http.MethodPost && r.Header.Get(sessionIDHeader) == ""
	if opens {
		if err := h.admitSession(c.KeyID); err != nil {
			return err
		}
		defer h.opened(c.KeyID)
		w = &sessionRecorder{ResponseWriter: w, record: func(id string) { h.recordSession(id, c.KeyID) }}
	}
	h.handler.ServeHTTP(w, r)
	return nil
}

// admitSession refuses a new session of key past the limits, or counts it
// as opening until opened is called. Sessions the SDK has closed (idle,
// ended by the client) are forgotten first.
func (h *HTTPHandler) admitSession(key string) error {
	live := map[string]bool{}
	for ss := range h.server.Sessions() {
		live[ss.ID()] = true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	mine, total := h.opening[key], 0
	for _, n := range h.opening {
		total += n
	}
	for id, owner := range h.owners {
		switch {
		case !live[id]:
			delete(h.owners, id)
		case owner == key:
			mine++
		}
	}
	switch {
	case mine >= h.opts.MaxSessionsPerKey:
		return edgeflow.Errorf(edgeflow.ERateLimited, "this API key has %d MCP sessions open, as many as one key may: end one (DELETE /api/mcp with its Mcp-Session-Id) or let one idle out (%s)",
			mine, h.opts.SessionTimeout)
	case len(h.owners)+total >= h.opts.MaxSessions:
		return edgeflow.Errorf(edgeflow.ERateLimited, "the server has %d MCP sessions open, as many as it allows; retry later", len(h.owners)+total)
	}
	h.opening[key]++
	return nil
}

// opened ends an initialization admitSession counted: its session, when
// the SDK made one, is counted by its id from now on.
func (h *HTTPHandler) opened(key string) {
	h.mu.Lock()
	if h.opening[key]--; h.opening[key] <= 0 {
		delete(h.opening, key)
	}
	h.mu.Unlock()
}

func (h *HTTPHandler) recordSession(id, key string) {
	h.mu.Lock()
	h.owners[id] = key
	h.mu.Unlock()
}

// Close ends every session (and so every stream a client listens on), for
// a server shutting down.
func (h *HTTPHandler) Close() {
	for ss := range h.server.Sessions() {
		ss.Close()
	}
}

// sessionRecorder notes the session id the SDK gives a new session.
type sessionRecorder struct {
	http.ResponseWriter
	record func(id string)
	done   bool
}

func (w *sessionRecorder) WriteHeader(status int) {
	if !w.done {
		w.done = true
		if id := strings.TrimSpace(w.Header().Get(sessionIDHeader)); id != "" && status < 300 {
			w.record(id)
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *sessionRecorder) Write(p []byte) (int, error) {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

// Flush passes the SDK's flushes of a stream through.
func (w *sessionRecorder) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *sessionRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
