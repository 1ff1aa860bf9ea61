package ratelimit_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want ratelimit.Limits
		bad  bool
	}{
		{"", ratelimit.Defaults(), false},
		{"off", ratelimit.Limits{Off: true}, false},
		{"global=200,write=30,deploy=10,verify=10", ratelimit.Limits{Global: 200, Write: 30, Deploy: 10, Verify: 10, IR: 120}, false},
		{"global=200,write=30,deploy=10,verify=10,ir=60", ratelimit.Limits{Global: 200, Write: 30, Deploy: 10, Verify: 10, IR: 60}, false},
		{"write=5", ratelimit.Limits{Global: 200, Write: 5, Deploy: 10, Verify: 10, IR: 120}, false},
		{" global = 0 , verify=3", ratelimit.Limits{Global: 0, Write: 30, Deploy: 10, Verify: 3, IR: 120}, false},
		{"global", ratelimit.Limits{}, true},
		{"global=-1", ratelimit.Limits{}, true},
		{"reads=3", ratelimit.Limits{}, true},
		{"global=x", ratelimit.Limits{}, true},
	}
	for _, tt := range tests {
		got, err := ratelimit.Parse(tt.in)
		if (err != nil) != tt.bad {
			t.Errorf("Parse(%q) err = %v, want bad=%v", tt.in, err, tt.bad)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
		}
		if err == nil {
			again, err := ratelimit.Parse(got.String())
			if err != nil || again != got {
				t.Errorf("Parse(String()) of %q = %v, %v", tt.in, again, err)
			}
		}
	}
}

func TestLimiterWindow(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { return now }
	l := ratelimit.New(ratelimit.NewMemory(), clock)
	ctx := context.Background()
	for i := 1; i <= 3; i++ {
		d, err := l.Allow(ctx, "ip:1", 3)
		if err != nil || !d.Allowed || d.Remaining != 3-i {
			t.Fatalf("hit %d: %+v, %v", i, d, err)
		}
	}
	d, _ := l.Allow(ctx, "ip:1", 3)
	if d.Allowed || d.Remaining != 0 || !d.Reset.Equal(time.Date(2026, 1, 2, 3, 5, 0, 0, time.UTC)) {
		t.Fatalf("4th hit: %+v", d)
	}
	if d, _ := l.Allow(ctx, "ip:2", 3); !d.Allowed {
		t.Fatal("another key was limited")
	}
	if d, _ := l.Allow(ctx, "ip:1", 0); !d.Allowed {
		t.Fatal("limit 0 did not allow")
	}
	now = now.Add(time.Minute)
	if d, _ := l.Allow(ctx, "ip:1", 3); !d.Allowed || d.Remaining != 2 {
		t.Fatalf("next window: %+v", d)
	}
}

func TestMemoryConcurrent(t *testing.T) {
	t.Parallel()
	m := ratelimit.NewMemory()
	start := time.Unix(600, 0)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				m.Hit(context.Background(), "k", start)
			}
		})
	}
	wg.Wait()
	if n, _ := m.Hit(context.Background(), "k", start); n != 801 {
		t.Fatalf("count = %d, want 801", n)
	}
}

// TestLimiterWindowsFollowTheClock: windows are the clock's minutes, in memory and in the store alike. Within a
// minute the limit holds to its last instant and Reset names the minute's end; at the next minute the count
// starts again. It runs in a synctest bubble: the limiter reads the bubble's clock, whose minutes pass at once.
func TestLimiterWindowsFollowTheClock(t *testing.T) {
	t.Parallel()
	counters := map[string]func(t *testing.T) ratelimit.Counter{
		"memory": func(*testing.T) ratelimit.Counter { return ratelimit.NewMemory() },
		"sqlite": func(t *testing.T) ratelimit.Counter {
			st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			return st
		},
	}
	for name, counter := range counters {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				ctx := context.Background()
				l := ratelimit.New(counter(t), time.Now)
				minute := time.Now().UTC().Truncate(time.Minute)
				allow := func(what string, allowed bool, remaining int, reset time.Time) {
					t.Helper()
					d, err := l.Allow(ctx, "ip:1", 2)
					if err != nil || d.Allowed != allowed || d.Remaining != remaining || !d.Reset.Equal(reset) {
						t.Fatalf("%s at %s: %+v, %v; want allowed %v, remaining %d, reset %s", what, time.Now().UTC(), d, err,
							allowed, remaining, reset)
					}
				}
				time.Sleep(30 * time.Second)
				allow("1st hit", true, 1, minute.Add(time.Minute))
				allow("2nd hit", true, 0, minute.Add(time.Minute))
				allow("3rd hit", false, 0, minute.Add(time.Minute))
				time.Sleep(30*time.Second - time.Nanosecond) // the window's last instant
				allow("a hit at the window's end", false, 0, minute.Add(time.Minute))
				time.Sleep(time.Nanosecond) // the next minute
				allow("the next window's 1st hit", true, 1, minute.Add(2*time.Minute))
				time.Sleep(59 * time.Minute) // an hour after the first window, which the store prunes
				allow("an hour later", true, 1, minute.Add(61*time.Minute))
				allow("an hour later, 2nd hit", true, 0, minute.Add(61*time.Minute))
				allow("an hour later, 3rd hit", false, 0, minute.Add(61*time.Minute))
			})
		})
	}
}
