package webhook_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/webhook"
)

// TestSign checks the signature against the example of the Standard
// Webhooks specification's documentation.
func TestSign(t *testing.T) {
	t.Parallel()
	got, err := webhook.Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil || got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("Sign = %q, %v", got, err)
	}
	if _, err := webhook.Sign("not-a-secret", "m", time.Now(), nil); err == nil {
		t.Fatal("a secret without whsec_ signed")
	}
}

func TestNewSecret(t *testing.T) {
	t.Parallel()
	a, b := webhook.NewSecret(), webhook.NewSecret()
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(a, "whsec_"))
	if a == b || !strings.HasPrefix(a, "whsec_") || err != nil || len(raw) != 24 {
		t.Fatalf("secrets %q %q (%v)", a, b, err)
	}
}

func TestNextAttempt(t *testing.T) {
	t.Parallel()
	first := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	last, n := first, 1
	var waits []time.Duration
	for {
		next, ok := webhook.NextAttempt(first, last, n)
		if !ok {
			break
		}
		waits = append(waits, next.Sub(last))
		last, n = next, n+1
	}
	want := []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour}
	for i := 0; i < 11; i++ {
		want = append(want, 2*time.Hour)
	}
	if len(waits) != len(want) {
		t.Fatalf("waits %v, want %v", waits, want)
	}
	for i := range want {
		if waits[i] != want[i] {
			t.Fatalf("waits %v, want %v", waits, want)
		}
	}
	if last.Sub(first) > 24*time.Hour {
		t.Fatalf("the last attempt is %s after the first", last.Sub(first))
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	allow, _ := netguard.ParseAllowList("127.0.0.1, hooks.internal")
	cases := []struct {
		url   string
		guard *netguard.Guard
		ok    bool
	}{
		{"https://93.184.215.14/hook", nil, true},
		{"http://127.0.0.1:8080/hook", nil, false},
		{"http://127.0.0.1:8080/hook", netguard.New(allow), true},
		{"http://hooks.internal/x", netguard.New(allow), true},
		{"http://localhost/", nil, false},
		{"http://169.254.169.254/", nil, false},
		{"http://[fd00::1]/", nil, false},
		{"http://[::ffff:10.0.0.1]/", nil, false},
		{"ftp://93.184.215.14/", nil, false},
		{"https://u:p@93.184.215.14/", nil, false},
		{"/relative", nil, false},
		{"https://93.184.215.14/#frag", nil, false},
		{"https://" + strings.Repeat("a", 2100) + ".example/", nil, false},
	}
	for _, c := range cases {
		if msg := webhook.CheckURL(ctx, c.url, c.guard, nil); (msg == "") != c.ok {
			t.Errorf("CheckURL(%.60q) = %q, want ok=%v", c.url, msg, c.ok)
		}
	}
}
