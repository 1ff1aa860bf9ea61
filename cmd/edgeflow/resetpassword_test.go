package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestResetPassword: admin reset-password sets the password read from
// standard input and signs out every session of that user (not another
// user's), on an SQLite data dir and on PostgreSQL; it never echoes the
// password.
func TestResetPassword(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	type engine struct {
		name string
		open func(t *testing.T) (edgeflow.Store, []string)
	}
	engines := []engine{
		{name: "sqlite", open: func(t *testing.T) (edgeflow.Store, []string) {
			dir := t.TempDir()
			st, err := sqlite.Open(ctx, filepath.Join(dir, sqliteFileName), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return st, []string{"--data-dir", dir}
		}},
		{name: "postgres", open: func(t *testing.T) (edgeflow.Store, []string) {
			dsn := testenv.PostgresSchema(t)
			st, err := postgres.Open(ctx, dsn, postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return st, []string{"--data-dir", t.TempDir(), "--database-url", dsn}
		}},
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			st, flags := e.open(t)
			defer st.Close()
			user := func(email string) (*edgeflow.User, *edgeflow.Session) {
				hash, err := auth.HashPassword("old-password-1", 4)
				if err != nil {
					t.Fatal(err)
				}
				u := &edgeflow.User{Email: email, PasswordHash: hash}
				if err := st.CreateUser(ctx, u); err != nil {
					t.Fatal(err)
				}
				s := &edgeflow.Session{UserID: u.ID, TokenHash: []byte("token-" + email), ExpiresAt: time.Now().Add(time.Hour)}
				if err := st.CreateSession(ctx, s); err != nil {
					t.Fatal(err)
				}
				return u, s
			}
			ada, adaSession := user("ada@example.com")
			_, bobSession := user("bob@example.com")

			run := func(stdin string, args ...string) (int, string, string) {
				var out, errOut strings.Builder
				code := runResetPassword(ctx, append(append([]string{}, flags...), args...), strings.NewReader(stdin), &out, &errOut)
				return code, out.String(), errOut.String()
			}
			// Refusals change nothing.
			for _, c := range []struct {
				stdin string
				args  []string
				code  int
				msg   string
			}{
				{"brand new passphrase\n", []string{"--email", "ada@example.com"}, 2, "--password-stdin"},
				{"", []string{"--email", "ada@example.com", "--password-stdin"}, 2, "no password"},
				{"password\n", []string{"--email", "ada@example.com", "--password-stdin"}, 2, "refused"},
				{"brand new passphrase\n", []string{"--email", "nobody@example.com", "--password-stdin"}, 1, "no user"},
				{strings.Repeat("x", 5000), []string{"--email", "ada@example.com", "--password-stdin"}, 2, "longer than"},
			} {
				code, out, errOut := run(c.stdin, c.args...)
				if code != c.code || !strings.Contains(errOut, c.msg) || out != "" {
					t.Errorf("%v: exit %d, %q %q; want %d and %q", c.args, code, out, errOut, c.code, c.msg)
				}
			}
			if _, err := st.FindSessionByTokenHash(ctx, adaSession.TokenHash, time.Now()); err != nil {
				t.Fatalf("a refused reset signed the user out: %v", err)
			}

			code, out, errOut := run("brand new passphrase\r\n", "--email", "ADA@example.com", "--password-stdin")
			if code != 0 || !strings.Contains(out, ada.ID) {
				t.Fatalf("exit %d, %q %q", code, out, errOut)
			}
			if strings.Contains(out+errOut, "brand new passphrase") {
				t.Error("the password was printed")
			}
			u, err := st.FindUserByID(ctx, ada.ID)
			if err != nil {
				t.Fatal(err)
			}
			if auth.CheckPassword(u.PasswordHash, "brand new passphrase") != nil {
				t.Error("the new password does not check")
			}
			if _, err := st.FindSessionByTokenHash(ctx, adaSession.TokenHash, time.Now()); !edgeflow.IsNotFound(err) {
				t.Errorf("the user's session survived the reset: %v", err)
			}
			if _, err := st.FindSessionByTokenHash(ctx, bobSession.TokenHash, time.Now()); err != nil {
				t.Errorf("another user's session was signed out: %v", err)
			}
		})
	}
}

func TestParseRetention(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{"365d": 365 * 24 * time.Hour, "1d": 24 * time.Hour, "720h": 720 * time.Hour, " 90d ": 90 * 24 * time.Hour} {
		if got, err := parseRetention(in); err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0d", "-3d", "1.5d", "soon", "30m", "d"} {
		if _, err := parseRetention(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestServeRefusesBadProxyAndRetention: serve refuses a trusted proxy list
// or an audit retention it cannot read, naming the option, before it opens
// anything.
func TestServeRefusesBadProxyAndRetention(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--trusted-proxies", "10.0.0.0/8,proxy.internal"},
		{"--audit-retention", "10m"},
	} {
		dir := t.TempDir()
		code, out, errOut := runCLI(append([]string{"serve", "--data-dir", dir, "--no-edge"}, args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, args[0]) {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
}
