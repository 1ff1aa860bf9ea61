package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
)

// One tool set, two backends (docs/decisions.md 410). Every tool does its
// work as requests of edgeflow's HTTP API made by the caller: on the HTTP
// transport each request goes in-process through the API server's own
// handler chain (Local) with the caller's Authorization header, so that
// authentication, the key's scopes, tenancy, rate limits and the audit log
// are exactly the API's; on stdio (`edgeflow mcp`) the same requests go over
// HTTP to the server the CLI is logged in to (Remote).

// Request is one API request of a tool.
type Request struct {
	Method string
	// Path is the request's path, "/api/…", its parameters escaped.
	Path  string
	Query url.Values
	// Body is marshalled to JSON (a json.RawMessage is sent as it is); nil
	// sends no body.
	Body any
	// Accept is the media type asked for; "" means application/json.
	Accept string
}

// Response is the API's answer to a Request.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Backend sends a tool's API requests as one caller. An answer with a
// status that is not 2xx is a Response, not an error; an error means the
// request was not answered (the server unreachable, the answer too large).
type Backend interface {
	Do(ctx context.Context, req Request) (*Response, error)
}

// MaxAnswer is the largest API answer a tool reads (a version with its
// generated code is the largest).
const MaxAnswer = 32 << 20

// ClientAddressHeader carries, from the HTTP transport to the tools, the
// address the API admitted the MCP request from, so that the tools' own
// requests count against that address's limits. The transport sets it on
// every request it serves, replacing whatever the client sent (http.go).
const ClientAddressHeader = "X-Edgeflow-Mcp-Client-Address"

// projectHeader selects the project of an organization API key
// (internal/api's ProjectHeader).
const projectHeader = "X-Edgeflow-Project"

// Local sends the requests in-process to the API server's handler, as the
// caller whose request headers are Header: its Authorization and project
// header, from its client address.
type Local struct {
	Handler http.Handler
	Header  http.Header
	// RequestID names the MCP request the tool call came in; each API
	// request gets it with a counter appended, so that the access log ties
	// them together.
	RequestID string
	n         atomic.Int64
}

// Do implements Backend.
func (b *Local) Do(ctx context.Context, req Request) (*Response, error) {
	body, err := requestBody(req.Body)
	if err != nil {
		return nil, err
	}
	r, err := http.NewRequestWithContext(ctx, req.Method, "http://edgeflow.internal"+requestURI(req), body)
	if err != nil {
		return nil, err
	}
	addr := b.Header.Get(ClientAddressHeader)
	if addr == "" {
		addr = "127.0.0.1"
	}
	r.RemoteAddr = net.JoinHostPort(addr, "0")
	for _, h := range []string{"Authorization", projectHeader} {
		if v := b.Header.Get(h); v != "" {
			r.Header.Set(h, v)
		}
	}
	setHeaders(r, req)
	if b.RequestID != "" {
		r.Header.Set("X-Request-Id", b.RequestID+"-"+strconv.FormatInt(b.n.Add(1), 10))
	}
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	b.Handler.ServeHTTP(rec, r)
	if rec.tooLarge {
		return nil, fmt.Errorf("the answer of %s %s is larger than %d MiB", req.Method, req.Path, MaxAnswer>>20)
	}
	return &Response{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()}, nil
}

// recorder is the http.ResponseWriter of an in-process request: it keeps
// the answer, up to MaxAnswer bytes.
type recorder struct {
	header      http.Header
	status      int
	wroteHeader bool
	body        bytes.Buffer
	tooLarge    bool
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(status int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = status, true
	}
}

func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.body.Len()+len(p) > MaxAnswer {
		w.tooLarge = true
		return 0, errors.New("mcp: answer too large")
	}
	return w.body.Write(p)
}

// Flush lets a handler that streams (deploy-stream) flush; the answer is
// read when the handler returns.
func (w *recorder) Flush() {}

// Remote sends the requests over HTTP to a server, with the credentials
// Authorize sets (an API key, or the CLI's session cookie and CSRF token).
type Remote struct {
	// BaseURL is the server's address, without /api.
	BaseURL   string
	Client    *http.Client
	Authorize func(r *http.Request)
}

// Do implements Backend.
func (b *Remote) Do(ctx context.Context, req Request) (*Response, error) {
	body, err := requestBody(req.Body)
	if err != nil {
		return nil, err
	}
	r, err := http.NewRequestWithContext(ctx, req.Method, strings.TrimRight(b.BaseURL, "/")+requestURI(req), body)
	if err != nil {
		return nil, err
	}
	setHeaders(r, req)
	if b.Authorize != nil {
		b.Authorize(r)
	}
	client := b.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(r)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("cannot reach the edgeflow server at %s: %v", b.BaseURL, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswer+1))
	if err != nil {
		return nil, fmt.Errorf("reading the answer of %s %s: %w", req.Method, req.Path, err)
	}
	if len(raw) > MaxAnswer {
		return nil, fmt.Errorf("the answer of %s %s is larger than %d MiB", req.Method, req.Path, MaxAnswer>>20)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}, nil
}

func requestURI(req Request) string {
	if len(req.Query) == 0 {
		return req.Path
	}
	return req.Path + "?" + req.Query.Encode()
}

func requestBody(v any) (io.Reader, error) {
	if v == nil {
		return nil, nil
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	return bytes.NewReader(raw), nil
}

func setHeaders(r *http.Request, req Request) {
	accept := req.Accept
	if accept == "" {
		accept = "application/json"
	}
	r.Header.Set("Accept", accept)
	r.Header.Set("User-Agent", "edgeflow-mcp")
	if req.Body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
}
