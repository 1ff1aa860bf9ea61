package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

// Long-lived responses (docs/api.md, "Streams"; decision 333). Each open
// Server-Sent Events stream holds a connection, its file descriptor and a
// goroutine. One read key once opened 19,975 run streams, the process ran
// out of file descriptors and /healthz stopped answering. Every stream is
// now admitted against the streams already open of its user, its API key,
// its client address and the whole process (Config.Streams), and ends after
// the stream lifetime; the process's total is at most half its file
// descriptors, so that the health checks and the other requests always find
// one. The counts are this process's: with several replicas each counts its
// own streams.

// streamRoutes are the routes whose answer may be a long-lived stream, each
// with whether a request of it asks for one (the run logs stream only with
// Accept: text/event-stream).
var streamRoutes = map[string]func(r *http.Request) bool{
	"GET /api/runs/stream":                              always,
	"GET /api/workflows/{workflowId}/runs/{runId}/logs": acceptsEventStream,
	"POST /api/workflows/{workflowId}/deploy-stream":    always,
	"POST /api/mcp": always,
	"GET /api/mcp":  always,
}

func always(*http.Request) bool { return true }

func acceptsEventStream(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// isStreamRoute reports whether rt answers with a stream.
func isStreamRoute(rt Route) bool { return streamRoutes[rt.Method+" "+rt.Pattern] != nil }

// streamed admits the streams of route rt (openStream) before its handler
// h runs, and lets the handler find the stream's lifetime (streamOf).
func (s *Server) streamed(rt Route, h func(w http.ResponseWriter, r *http.Request) error) func(w http.ResponseWriter, r *http.Request) error {
	wants := streamRoutes[rt.Method+" "+rt.Pattern]
	if wants == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		if !wants(r) {
			return h(w, r)
		}
		slot, err := s.openStream(w, r)
		if err != nil {
			return err
		}
		defer slot.close()
		return h(w, r.WithContext(context.WithValue(r.Context(), ctxStreamSlot{}, slot)))
	}
}

type ctxStreamSlot struct{}

// streamOf returns the admitted stream of r: its lifetime's end (a stream
// the route table did not admit, as in a test calling a handler directly,
// gets the default lifetime from now).
func streamOf(r *http.Request) *streamSlot {
	if sl, ok := r.Context().Value(ctxStreamSlot{}).(*streamSlot); ok {
		return sl
	}
	d := ratelimit.DefaultStreamLifetime
	return &streamSlot{end: time.After(d), deadline: time.Now().Add(d)}
}

// streamEndComment is the last line of a run stream that reaches its
// lifetime; the client opens it again with Last-Event-ID and loses nothing.
const streamEndComment = ": the stream reached its lifetime; reconnect with Last-Event-ID\n\n"

// streamSlot is an admitted stream: its place in the counts and its
// lifetime.
type streamSlot struct {
	release func()
	timer   *time.Timer
	// end fires when the stream reaches its lifetime.
	end <-chan time.Time
	// deadline is when it does.
	deadline time.Time
}

// openStream admits a stream of r's caller, or refuses it with 429
// rate_limited, Retry-After (when the oldest stream counted where the limit
// was reached ends, at the latest) and Connection: close (a refused client
// keeps no connection open either). The caller must close the slot when the
// stream ends.
func (s *Server) openStream(w http.ResponseWriter, r *http.Request) (*streamSlot, error) {
	l := s.Streams
	keys := make([]ratelimit.StreamKey, 0, 4)
	if p := PrincipalFrom(r); p != nil {
		keys = append(keys, ratelimit.StreamKey{Name: "user:" + p.UserID, Limit: l.User})
		if p.APIKey != nil {
			keys = append(keys, ratelimit.StreamKey{Name: "key:" + p.APIKey.ID, Limit: l.Key})
		}
	}
	keys = append(keys,
		ratelimit.StreamKey{Name: "address:" + s.clientIP(r), Limit: l.Address},
		ratelimit.StreamKey{Name: streamTotalKey, Limit: l.Total})
	release, refused := s.streams.Acquire(keys...)
	if refused != nil {
		s.metrics.streamsRefused.Add(1)
		retry := int(math.Ceil(refused.RetryAfter.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(retry))
		w.Header().Set("Connection", "close")
		return nil, edgeflow.Errorf(edgeflow.ERateLimited, "%s; close one, or retry in %d s, when the oldest reaches the %s stream lifetime",
			streamLimitText(refused.Key), retry, l.Lifetime)
	}
	t := time.NewTimer(l.Lifetime)
	return &streamSlot{release: release, timer: t, end: t.C, deadline: time.Now().Add(l.Lifetime)}, nil
}

// streamTotalKey counts every stream of the process.
const streamTotalKey = "total"

// streamLimitText says which limit refused a stream.
func streamLimitText(k ratelimit.StreamKey) string {
	switch name := k.Name; {
	case name == streamTotalKey:
		return fmt.Sprintf("the server has %d streams open, as many as it allows", k.Limit)
	case len(name) > 4 && name[:4] == "key:":
		return fmt.Sprintf("too many streams open: at most %d per API key", k.Limit)
	case len(name) > 5 && name[:5] == "user:":
		return fmt.Sprintf("too many streams open: at most %d per user", k.Limit)
	}
	return fmt.Sprintf("too many streams open: at most %d from one client address", k.Limit)
}

// close ends the stream's place in the counts.
func (sl *streamSlot) close() {
	sl.timer.Stop()
	sl.release()
}

// streamsOpen is how many streams this process has open.
func (s *Server) streamsOpen() int { return s.streams.Open(streamTotalKey) }
