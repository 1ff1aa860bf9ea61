package ratelimit_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

func TestParseStreamLimits(t *testing.T) {
	t.Parallel()
	def := ratelimit.DefaultStreamLimits()
	tests := []struct {
		in   string
		want ratelimit.StreamLimits
	}{
		{"", def},
		{"user=4", ratelimit.StreamLimits{User: 4, Key: def.Key, Address: def.Address, Total: def.Total, Lifetime: def.Lifetime}},
		{" user = 1 , key=2,address=3,total=9,lifetime=90s ", ratelimit.StreamLimits{User: 1, Key: 2, Address: 3, Total: 9, Lifetime: 90 * time.Second}},
		{"off", ratelimit.StreamLimits{Total: def.Total, Lifetime: def.Lifetime}},
	}
	for _, tt := range tests {
		got, err := ratelimit.ParseStreamLimits(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseStreamLimits(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
		if again, err := ratelimit.ParseStreamLimits(got.String()); err != nil || again != got {
			t.Errorf("String %q does not read back: %+v, %v", got.String(), again, err)
		}
	}
	for _, bad := range []string{"user", "user=-1", "users=3", "total=0", "lifetime=0s", "lifetime=forever", "key=x"} {
		if _, err := ratelimit.ParseStreamLimits(bad); err == nil {
			t.Errorf("ParseStreamLimits(%q) accepted", bad)
		}
	}
}

func TestStreamLimitsWithFileLimit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		total  int
		nofile uint64
		want   int
	}{{0, 0, ratelimit.DefaultStreamTotal}, {0, 1024, 512}, {100, 1024, 100}, {5000, 1 << 20, 5000}, {10, 1, 1}} {
		got := ratelimit.StreamLimits{Total: tt.total}.WithFileLimit(tt.nofile)
		if got.Total != tt.want || got.Lifetime != ratelimit.DefaultStreamLifetime {
			t.Errorf("total %d, nofile %d: %+v, want total %d", tt.total, tt.nofile, got, tt.want)
		}
	}
	if ratelimit.FileLimit() == 0 {
		t.Error("FileLimit is 0 on this system")
	}
}

func TestStreams(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := ratelimit.NewStreams(time.Minute, func() time.Time { return now })
	user := ratelimit.StreamKey{Name: "user:u1", Limit: 2}
	total := ratelimit.StreamKey{Name: "total", Limit: 3}
	r1, refused := s.Acquire(user, total)
	if refused != nil {
		t.Fatal(refused)
	}
	now = now.Add(20 * time.Second)
	r2, _ := s.Acquire(user, total)
	// The user is at its limit: refused until the oldest stream's lifetime
	// ends (40 s from now), and nothing is counted.
	_, refused = s.Acquire(user, total)
	if diff := cmp.Diff(&ratelimit.StreamRefusal{Key: user, RetryAfter: 40 * time.Second}, refused); diff != "" {
		t.Errorf("refusal (-want +got):\n%s", diff)
	}
	if s.Open("total") != 2 {
		t.Errorf("total = %d after a refusal, want 2", s.Open("total"))
	}
	// Another user takes the last place of the total.
	other := ratelimit.StreamKey{Name: "user:u2", Limit: 2}
	r3, refused := s.Acquire(other, total)
	if refused != nil {
		t.Fatal(refused)
	}
	if _, refused = s.Acquire(other, total); refused == nil || refused.Key != total {
		t.Errorf("past the total: %+v", refused)
	}
	// Closing a stream frees its place, once however often it is called.
	r1()
	r1()
	if s.Open("user:u1") != 1 || s.Open("total") != 2 {
		t.Errorf("after release: user %d, total %d", s.Open("user:u1"), s.Open("total"))
	}
	r4, refused := s.Acquire(user, total)
	if refused != nil {
		t.Fatal(refused)
	}
	r2()
	r3()
	r4()
	if s.Open("user:u1")+s.Open("user:u2")+s.Open("total") != 0 {
		t.Error("streams left counted")
	}
	// A key without a limit never refuses.
	free := ratelimit.StreamKey{Name: "key:k", Limit: 0}
	for range 10 {
		if _, refused := s.Acquire(free); refused != nil {
			t.Fatal(refused)
		}
	}
}
