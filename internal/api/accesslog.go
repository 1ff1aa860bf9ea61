package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// AccessLogMode chooses which requests get a line of their own in the log.
type AccessLogMode int

const (
	// AccessLogSummary logs every error (4xx, 5xx) and every write in full,
	// and counts successful reads (GET and HEAD answered 1xx-3xx) into one
	// summary line per AccessLog.SummaryEvery; with SampleEvery n > 0 one
	// successful read in n is also logged in full.
	AccessLogSummary AccessLogMode = iota
	// AccessLogAll logs every request in full.
	AccessLogAll
)

// DefaultSummaryEvery is how often the summary of successful reads is
// written when AccessLog.SummaryEvery is 0.
const DefaultSummaryEvery = time.Minute

// AccessLog configures the access log (docs/operations.md).
type AccessLog struct {
	Mode AccessLogMode
	// SampleEvery n > 0 logs one successful read in n in full (summary mode).
	SampleEvery int
	// SummaryEvery is the period of the summary line; 0 means
	// DefaultSummaryEvery.
	SummaryEvery time.Duration
}

// ParseAccessLog reads the serve option: "summary" (the default, also for
// ""), "all", or "sample:N" (summary, plus one successful read in N in full).
func ParseAccessLog(text string) (AccessLog, error) {
	switch text = strings.TrimSpace(text); {
	case text == "" || text == "summary":
		return AccessLog{Mode: AccessLogSummary}, nil
	case text == "all":
		return AccessLog{Mode: AccessLogAll}, nil
	case strings.HasPrefix(text, "sample:"):
		n, err := strconv.Atoi(strings.TrimPrefix(text, "sample:"))
		if err != nil || n < 1 || n > 1_000_000 {
			return AccessLog{}, fmt.Errorf("%q: N of sample:N must be a whole number from 1 to 1000000", text)
		}
		return AccessLog{Mode: AccessLogSummary, SampleEvery: n}, nil
	}
	return AccessLog{}, fmt.Errorf("%q: want summary, all or sample:N", text)
}

// String is the option's text form (ParseAccessLog's input).
func (a AccessLog) String() string {
	switch {
	case a.Mode == AccessLogAll:
		return "all"
	case a.SampleEvery > 0:
		return "sample:" + strconv.Itoa(a.SampleEvery)
	}
	return "summary"
}

// readSummary counts the successful reads not logged in full since the
// last summary line.
type readSummary struct {
	mu      sync.Mutex
	since   time.Time
	reads   int64 // successful reads in the window
	sampled int64 // of which logged in full
	bytes   int64
	totalMs float64
	maxMs   float64
	seq     int64 // successful reads ever, for sampling
}

// successfulRead reports whether a request is summarized rather than logged
// in full: GET or HEAD answered below 400.
func successfulRead(method string, status int) bool {
	return (method == http.MethodGet || method == http.MethodHead) && status < 400
}

// logRequest writes the request's access log line, or counts it into the
// summary of successful reads (AccessLogSummary).
func (s *Server) logRequest(r *http.Request, rw *responseWriter, start time.Time) {
	ms := float64(time.Since(start).Microseconds()) / 1000
	if s.AccessLog.Mode == AccessLogAll || !successfulRead(r.Method, rw.status) {
		s.logRequestLine(r, rw, ms)
		return
	}
	now := time.Now()
	a := &s.reads
	a.mu.Lock()
	if a.since.IsZero() {
		a.since = now
	}
	a.seq++
	a.reads++
	a.bytes += int64(rw.bytes)
	a.totalMs += ms
	a.maxMs = max(a.maxMs, ms)
	full := s.AccessLog.SampleEvery > 0 && a.seq%int64(s.AccessLog.SampleEvery) == 0
	if full {
		a.sampled++
	}
	due := now.Sub(a.since) >= s.summaryEvery()
	a.mu.Unlock()
	if full {
		s.logRequestLine(r, rw, ms)
	}
	if due {
		s.FlushAccessLog()
	}
}

func (s *Server) summaryEvery() time.Duration {
	if s.AccessLog.SummaryEvery > 0 {
		return s.AccessLog.SummaryEvery
	}
	return DefaultSummaryEvery
}

// FlushAccessLog writes the summary of the successful reads counted since
// the last one, if any, and starts a new window. serve calls it every
// summary period and at shutdown; requests call it when a window is over.
func (s *Server) FlushAccessLog() {
	a := &s.reads
	a.mu.Lock()
	if a.reads == 0 {
		a.since = time.Time{}
		a.mu.Unlock()
		return
	}
	reads, sampled, bytes, totalMs, maxMs, since := a.reads, a.sampled, a.bytes, a.totalMs, a.maxMs, a.since
	a.reads, a.sampled, a.bytes, a.totalMs, a.maxMs, a.since = 0, 0, 0, 0, 0, time.Time{}
	a.mu.Unlock()
	s.Logger.LogAttrs(context.Background(), slog.LevelInfo, "successful reads",
		slog.Int64("reads", reads),
		slog.Int64("sampled", sampled),
		slog.Int64("bytes", bytes),
		slog.Float64("msAvg", float64(int64(totalMs/float64(reads)*1000))/1000),
		slog.Float64("msMax", maxMs),
		slog.Time("since", since.UTC()),
	)
}

// logRequestLine writes one request's full access log line.
func (s *Server) logRequestLine(r *http.Request, rw *responseWriter, ms float64) {
	attrs := []slog.Attr{
		slog.String("requestId", requestIDFrom(r)),
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path), // never the query or headers: no secrets in logs
		slog.Int("status", rw.status),
		slog.Int("bytes", rw.bytes),
		slog.Float64("ms", ms),
		slog.String("ip", s.clientIP(r)),
	}
	if p := PrincipalFrom(r); p != nil {
		attrs = append(attrs, slog.String("user", p.UserID))
		if p.APIKey != nil {
			attrs = append(attrs, slog.String("apiKey", p.APIKey.ID))
		}
	}
	s.Logger.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
}
