package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// StreamLimits bound the long-lived responses (Server-Sent Events streams)
// open at once, each of which holds a connection, a file descriptor and a
// goroutine for as long as it lasts: per user, per API key, per client
// address and in the whole process, and how long one may last. A limit of
// 0 means none.
type StreamLimits struct {
	User    int // streams of one user, whatever the credentials
	Key     int // streams of one API key
	Address int // streams from one client address
	// Total is the most streams of the process. 0 means the default, and
	// WithFileLimit lowers any value to half the file descriptors the
	// process may open, keeping the rest for everything else.
	Total int
	// Lifetime is the longest one stream stays open; then it ends, and the
	// client opens it again (0 means DefaultStreamLifetime).
	Lifetime time.Duration
}

// Defaults of StreamLimits (docs/api.md, "Streams").
const (
	DefaultStreamTotal    = 4096
	DefaultStreamLifetime = 30 * time.Minute
)

// DefaultStreamLimits are the limits docs/api.md ("Streams") documents.
func DefaultStreamLimits() StreamLimits {
	return StreamLimits{User: 32, Key: 16, Address: 64, Total: DefaultStreamTotal, Lifetime: DefaultStreamLifetime}
}

// ParseStreamLimits reads "user=32,key=16,address=64,total=4096,lifetime=30m"
// (any subset; the rest keep their defaults) or "off", which lifts the
// per-user, per-key and per-address limits (the total and the lifetime
// stay: they protect the process). The empty string is DefaultStreamLimits().
func ParseStreamLimits(text string) (StreamLimits, error) {
	l := DefaultStreamLimits()
	text = strings.TrimSpace(text)
	if text == "" {
		return l, nil
	}
	if text == "off" {
		l.User, l.Key, l.Address = 0, 0, 0
		return l, nil
	}
	for part := range strings.SplitSeq(text, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok {
			return StreamLimits{}, fmt.Errorf("stream limits: %q: want name=value (e.g. user=32,key=16,address=64,total=4096,lifetime=30m) or off", part)
		}
		if name == "lifetime" {
			d, err := time.ParseDuration(value)
			if err != nil || d < time.Second {
				return StreamLimits{}, fmt.Errorf("stream limits: lifetime %q: want a duration of at least 1s, such as 30m", value)
			}
			l.Lifetime = d
			continue
		}
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return StreamLimits{}, fmt.Errorf("stream limits: %q: want a count >= 0", part)
		}
		switch name {
		case "user":
			l.User = n
		case "key":
			l.Key = n
		case "address":
			l.Address = n
		case "total":
			if n == 0 {
				return StreamLimits{}, fmt.Errorf("stream limits: total must be at least 1 (it keeps file descriptors for the rest of the server)")
			}
			l.Total = n
		default:
			return StreamLimits{}, fmt.Errorf("stream limits: unknown limit %q (user, key, address, total, lifetime)", name)
		}
	}
	return l, nil
}

// String formats l the way ParseStreamLimits reads it.
func (l StreamLimits) String() string {
	return fmt.Sprintf("user=%d,key=%d,address=%d,total=%d,lifetime=%s", l.User, l.Key, l.Address, l.Total, l.Lifetime)
}

// WithFileLimit fills in the defaults of the zero fields and lowers Total to
// half of nofile, the file descriptors the process may open (FileLimit; 0
// when unknown leaves Total as it is), so that streams can never take the
// descriptors the health checks, the other requests and the database need.
func (l StreamLimits) WithFileLimit(nofile uint64) StreamLimits {
	if l.Total <= 0 {
		l.Total = DefaultStreamTotal
	}
	if l.Lifetime <= 0 {
		l.Lifetime = DefaultStreamLifetime
	}
	if nofile > 0 {
		l.Total = max(1, min(l.Total, int(min(nofile/2, 1<<30))))
	}
	return l
}

// StreamKey is one count a stream is admitted against: Name identifies it
// ("user:u_1", "key:k_1", "address:192.0.2.7", "total"), Limit is its limit
// (0: none).
type StreamKey struct {
	Name  string
	Limit int
}

// StreamRefusal says which count refused a stream and when the oldest
// stream counted there reaches its lifetime, freeing a place at the latest.
type StreamRefusal struct {
	Key        StreamKey
	RetryAfter time.Duration
}

// Streams counts the streams open per key in this process. The zero value
// is not usable; use NewStreams.
type Streams struct {
	now      func() time.Time
	lifetime time.Duration

	mu   sync.Mutex
	next uint64
	open map[string]map[uint64]time.Time // key → open streams → when each opened
}

// NewStreams counts streams that last at most lifetime, with the clock now
// (nil: time.Now).
func NewStreams(lifetime time.Duration, now func() time.Time) *Streams {
	if now == nil {
		now = time.Now
	}
	return &Streams{now: now, lifetime: lifetime, open: map[string]map[uint64]time.Time{}}
}

// Acquire admits one stream against every key at once: when each count is
// below its limit, the stream is counted in all of them and release (to be
// called once, when the stream ends) uncounts it; otherwise nothing is
// counted and the refusal names the first key at its limit.
func (s *Streams) Acquire(keys ...StreamKey) (release func(), refused *StreamRefusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for _, k := range keys {
		if k.Limit <= 0 {
			continue
		}
		set := s.open[k.Name]
		if len(set) < k.Limit {
			continue
		}
		oldest := now
		for _, at := range set {
			if at.Before(oldest) {
				oldest = at
			}
		}
		return nil, &StreamRefusal{Key: k, RetryAfter: max(oldest.Add(s.lifetime).Sub(now), time.Second)}
	}
	s.next++
	id := s.next
	for _, k := range keys {
		set := s.open[k.Name]
		if set == nil {
			set = map[uint64]time.Time{}
			s.open[k.Name] = set
		}
		set[id] = now
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, k := range keys {
				delete(s.open[k.Name], id)
				if len(s.open[k.Name]) == 0 {
					delete(s.open, k.Name)
				}
			}
		})
	}, nil
}

// Open returns how many streams are counted under key.
func (s *Streams) Open(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open[key])
}
