// Package ratelimit counts requests in fixed one-minute windows per key
// (client IP, or user and class) and decides whether a request may pass. The
// counter is in memory for one process or store-backed (edgeflow.Store.Hit)
// so that limits hold across replicas sharing PostgreSQL.
package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Window is the length of a counting window.
const Window = time.Minute

// Limits are requests per minute per class; 0 means unlimited. Off disables
// every limit.
type Limits struct {
	Global int // per client IP, every request
	Write  int // per user: create, update, delete, trigger, run control
	Deploy int // per user: deploy, deploy-stream, takedown
	Verify int // per user: credential verification
	IR     int // per user: IR validation and compilation for editors
	Off    bool
}

// Defaults are the limits docs/api.md ("Rate limits") documents.
func Defaults() Limits { return Limits{Global: 200, Write: 30, Deploy: 10, Verify: 10, IR: 120} }

// Parse reads "global=200,write=30,deploy=10,verify=10,ir=120" (any subset; the
// rest keep their defaults) or "off". The empty string is Defaults().
func Parse(text string) (Limits, error) {
	l := Defaults()
	text = strings.TrimSpace(text)
	if text == "" {
		return l, nil
	}
	if text == "off" {
		return Limits{Off: true}, nil
	}
	for part := range strings.SplitSeq(text, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if !ok || err != nil || n < 0 {
			return Limits{}, fmt.Errorf("ratelimit: %q: want name=count with a count >= 0 (e.g. global=200,write=30,deploy=10,verify=10,ir=120) or off", part)
		}
		switch strings.TrimSpace(name) {
		case "global":
			l.Global = n
		case "write":
			l.Write = n
		case "deploy":
			l.Deploy = n
		case "verify":
			l.Verify = n
		case "ir":
			l.IR = n
		default:
			return Limits{}, fmt.Errorf("ratelimit: unknown class %q (global, write, deploy, verify, ir)", name)
		}
	}
	return l, nil
}

// String formats l the way Parse reads it.
func (l Limits) String() string {
	if l.Off {
		return "off"
	}
	return fmt.Sprintf("global=%d,write=%d,deploy=%d,verify=%d,ir=%d", l.Global, l.Write, l.Deploy, l.Verify, l.IR)
}

// Counter counts one hit of key in the window starting at windowStart and
// returns the count so far in that window. edgeflow.Store implements it.
type Counter interface {
	Hit(ctx context.Context, key string, windowStart time.Time) (int, error)
}

// Decision is the outcome of Allow, with what the RateLimit-* headers say.
type Decision struct {
	Allowed   bool
	Limit     int
	Remaining int
	// Reset is the end of the current window.
	Reset time.Time
}

// Limiter applies limits with a Counter.
type Limiter struct {
	counter Counter
	now     func() time.Time
}

// New returns a Limiter; now nil means time.Now.
func New(counter Counter, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{counter: counter, now: now}
}

// Allow counts one request of key against limit per minute. A limit of 0
// always allows without counting. A counter error is returned with an
// allowing decision: the caller decides whether to fail open.
func (l *Limiter) Allow(ctx context.Context, key string, limit int) (Decision, error) {
	if limit <= 0 {
		return Decision{Allowed: true}, nil
	}
	start := l.now().UTC().Truncate(Window)
	d := Decision{Allowed: true, Limit: limit, Remaining: limit, Reset: start.Add(Window)}
	n, err := l.counter.Hit(ctx, key, start)
	if err != nil {
		return d, err
	}
	d.Remaining = max(limit-n, 0)
	d.Allowed = n <= limit
	return d, nil
}

// Memory is an in-process Counter. It keeps only the current window, so its
// size is bounded by the number of distinct keys seen in one minute.
type Memory struct {
	mu     sync.Mutex
	start  time.Time
	counts map[string]int
}

// NewMemory returns an empty in-memory counter.
func NewMemory() *Memory { return &Memory{counts: map[string]int{}} }

// Hit implements Counter. Hits of a window older than the current one count
// as the first of their window.
func (m *Memory) Hit(_ context.Context, key string, windowStart time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case windowStart.After(m.start):
		m.start = windowStart
		clear(m.counts)
	case windowStart.Before(m.start):
		return 1, nil
	}
	m.counts[key]++
	return m.counts[key], nil
}
