package api_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

// testClock is a server clock the test moves by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func signInBody(email, password string) string {
	return fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)
}

// TestAttackSignInBruteForce guesses passwords for a known and an unknown
// email with the per-address rate limits off: after 10 failures both get 429
// with the same Retry-After, doubling up to 15 minutes, even for the right
// password, so the back-off neither lets guessing go on nor tells which
// account exists.
func TestAttackSignInBruteForce(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, now: clock.Now})
	const victim, nobody = "victim@example.com", "nobody@example.com"
	w.signUp(victim)
	for i := range api.SignInFreeFailures {
		for _, email := range []string{victim, nobody} {
			checkError(t, w.do("POST", "/api/auth/sign-in", signInBody(email, fmt.Sprintf("guess-%d-xyz", i)), cred{}), 401, "unauthorized", "")
		}
	}
	wantRetry := func(email, password string, seconds int) {
		t.Helper()
		r := w.do("POST", "/api/auth/sign-in", signInBody(email, password), cred{})
		checkError(t, r, 429, "rate_limited", "")
		if got := r.header.Get("Retry-After"); got != fmt.Sprint(seconds) {
			t.Fatalf("%s: Retry-After %q, want %d", email, got, seconds)
		}
		if r.header.Get("Set-Cookie") != "" {
			t.Fatalf("%s: a refused sign-in set a cookie", email)
		}
	}
	// The right password is refused too while backing off.
	wantRetry(victim, "password-1", 30)
	wantRetry(nobody, "password-1", 30)
	clock.advance(10 * time.Second)
	wantRetry(victim, "password-1", 20)
	wantRetry(nobody, "password-1", 20)
	// Each failure after a back-off doubles the next, up to 15 minutes.
	delay := 30 * time.Second
	for range 8 {
		clock.advance(delay)
		for _, email := range []string{victim, nobody} {
			checkError(t, w.do("POST", "/api/auth/sign-in", signInBody(email, "another-guess"), cred{}), 401, "unauthorized", "")
		}
		delay = min(2*delay, 15*time.Minute)
		wantRetry(victim, "password-1", int(delay.Seconds()))
		wantRetry(nobody, "password-1", int(delay.Seconds()))
	}
	if delay != 15*time.Minute {
		t.Fatalf("delay %v never reached the cap", delay)
	}
	// Another email is not affected.
	w.signUp("other@example.com")
	w.must(200, "POST", "/api/auth/sign-in", signInBody("other@example.com", "password-1"), cred{})
}

// TestAttackConcurrentWrongPasswords sends many wrong passwords for one
// email at once: the back-off's check and count are one step, so exactly
// SignInFreeFailures of them are checked (401) and the rest refused (429),
// however they interleave. Twin: under the limit, concurrent mistakes and
// then the right password sign in.
func TestAttackConcurrentWrongPasswords(t *testing.T) {
	t.Parallel()
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}})
	const victim, typist = "race@example.com", "typist@example.com"
	w.signUp(victim)
	w.signUp(typist)
	const attempts = 3 * api.SignInFreeFailures
	statuses := make([]int, attempts)
	var wg sync.WaitGroup
	for i := range attempts {
		wg.Go(func() {
			statuses[i] = w.do("POST", "/api/auth/sign-in", signInBody(victim, fmt.Sprintf("guess-%d-xyz", i)), cred{}).status
		})
	}
	wg.Wait()
	count := map[int]int{}
	for _, st := range statuses {
		count[st]++
	}
	if count[401] != api.SignInFreeFailures || count[429] != attempts-api.SignInFreeFailures {
		t.Fatalf("%d concurrent wrong passwords: %v, want %d checked (401) and the rest 429", attempts, count, api.SignInFreeFailures)
	}
	checkError(t, w.do("POST", "/api/auth/sign-in", signInBody(victim, "password-1"), cred{}), 429, "rate_limited", "")

	// Twin: fewer mistakes than the limit, at once, then the right password.
	mistakes := make([]int, api.SignInFreeFailures-1)
	for i := range mistakes {
		wg.Go(func() {
			mistakes[i] = w.do("POST", "/api/auth/sign-in", signInBody(typist, "pasword-1"), cred{}).status
		})
	}
	wg.Wait()
	for _, st := range mistakes {
		if st != 401 {
			t.Fatalf("a mistake under the limit: %d, want 401 (%v)", st, mistakes)
		}
	}
	w.must(200, "POST", "/api/auth/sign-in", signInBody(typist, "password-1"), cred{})
}

// TestLegitSignInAfterFailures: a user who mistypes a few times signs in,
// which clears the count; after a back-off ends the right password works.
func TestLegitSignInAfterFailures(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)}
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, now: clock.Now})
	const email = "typo@example.com"
	w.signUp(email)
	for range api.SignInFreeFailures - 1 {
		checkError(t, w.do("POST", "/api/auth/sign-in", signInBody(email, "pasword-1"), cred{}), 401, "unauthorized", "")
	}
	w.must(200, "POST", "/api/auth/sign-in", signInBody(email, "password-1"), cred{})
	// The success reset the count: nine more mistakes are still 401, not 429.
	for range api.SignInFreeFailures - 1 {
		checkError(t, w.do("POST", "/api/auth/sign-in", signInBody(email, "pasword-1"), cred{}), 401, "unauthorized", "")
	}
	w.must(200, "POST", "/api/auth/sign-in", signInBody(strings.ToUpper(email), "password-1"), cred{})
	// Ten failures, then the back-off runs out and the right password works.
	for range api.SignInFreeFailures {
		w.do("POST", "/api/auth/sign-in", signInBody(email, "pasword-1"), cred{})
	}
	checkError(t, w.do("POST", "/api/auth/sign-in", signInBody(email, "password-1"), cred{}), 429, "rate_limited", "")
	clock.advance(api.SignInBaseDelay)
	w.must(200, "POST", "/api/auth/sign-in", signInBody(email, "password-1"), cred{})
	// A day without failures forgets old ones.
	for range api.SignInFreeFailures - 1 {
		w.do("POST", "/api/auth/sign-in", signInBody(email, "pasword-1"), cred{})
	}
	clock.advance(api.SignInForgetAfter + time.Minute)
	for range api.SignInFreeFailures - 1 {
		checkError(t, w.do("POST", "/api/auth/sign-in", signInBody(email, "pasword-1"), cred{}), 401, "unauthorized", "")
	}
	w.must(200, "POST", "/api/auth/sign-in", signInBody(email, "password-1"), cred{})
}

// TestAttackWeakPasswords signs up with passwords an attacker guesses first:
// each is 422 at /password with a message, and no account is made.
func TestAttackWeakPasswords(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, tc := range []struct{ email, password, want string }{
		{"weak1@example.com", "short", "at least 8"},
		{"weak2@example.com", "          ", "whitespace"},
		{"weak3@example.com", "\t\n  \u00a0\u2003\t\n", "whitespace"},
		{"Weak.Four@example.com", "weak.four@example.com", "email"},
		{"Weak.Five@example.com", "WEAK.FIVE", "email"},
		{"weak6@example.com", "password", "too common"},
		{"weak7@example.com", "Password123", "too common"},
		{"weak8@example.com", "qwertyuiop", "too common"},
		{"weak9@example.com", "iloveyou1", "too common"},
		{"weak10@example.com", strings.Repeat("x", 1025), "at most"},
	} {
		r := w.do("POST", "/api/auth/sign-up", signInBody(tc.email, tc.password), cred{})
		checkError(t, r, 422, "validation_failed", "/password")
		if !strings.Contains(string(r.body), tc.want) {
			t.Errorf("%q: message %s lacks %q", tc.password, r.body, tc.want)
		}
		checkError(t, w.do("POST", "/api/auth/sign-in", signInBody(tc.email, tc.password), cred{}), 401, "unauthorized", "")
	}
}

// TestLegitPasswords: ordinary and long passphrases sign up and sign in; all
// of a passphrase over bcrypt's 72 bytes counts.
func TestLegitPasswords(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	long := strings.Repeat("correct horse battery staple ", 4) + "end"
	for i, pw := range []string{"password-1", "e2e-password-1", "Tr0ub4dor&3 horse", "пароль-очень-длинный", long} {
		email := fmt.Sprintf("legit%d@example.com", i)
		w.must(201, "POST", "/api/auth/sign-up", signInBody(email, pw), cred{})
		w.must(200, "POST", "/api/auth/sign-in", signInBody(email, pw), cred{})
	}
	// The same first 72 bytes with another ending is another password.
	checkError(t, w.do("POST", "/api/auth/sign-in", signInBody("legit4@example.com", long[:72]), cred{}), 401, "unauthorized", "")
	checkError(t, w.do("POST", "/api/auth/sign-in", signInBody("legit4@example.com", long[:len(long)-1]+"X"), cred{}), 401, "unauthorized", "")
}
