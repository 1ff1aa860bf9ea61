// Package testenv decides, in one place, what a test does when something it needs from the machine is missing: a
// program (node, npm, chromium), installed npm packages, or a PostgreSQL server. Locally the test skips and says
// what is missing and how to get it; under CI (CI set to anything but "", "0" or "false") or with
// EDGEFLOW_TEST_STRICT=1 it fails, so a CI run never passes by skipping. Inputs that live in the repository (the
// benchmark IRs under testdata/) are never a reason to skip: a test that cannot read them fails.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Strict reports whether a missing requirement fails the test rather than skips it.
func Strict() bool {
	if os.Getenv("EDGEFLOW_TEST_STRICT") == "1" {
		return true
	}
	switch os.Getenv("CI") {
	case "", "0", "false":
		return false
	}
	return true
}

// Missing ends the test for a missing requirement: t.Fatalf when Strict, t.Skipf otherwise. The message should
// name what is missing and how to install it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if Strict() {
		t.Fatalf("missing requirement (CI fails rather than skips): "+format, args...)
	}
	t.Skipf("skipped, missing requirement: "+format, args...)
}

// Command returns the path of the program name, or ends the test (Missing) when it is not on PATH.
func Command(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "%s is not installed (%v)", name, err)
	}
	return p
}

// NodeModules ends the test (Missing) unless node is installed and `npm ci` has installed pkg in dir.
func NodeModules(t testing.TB, dir, pkg string) {
	t.Helper()
	Command(t, "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg)); err != nil {
		Missing(t, "the npm packages of %s are not installed: run `npm ci` there (make deps)", dir)
	}
}

// PostgresURL returns EDGEFLOW_TEST_POSTGRES_URL, or ends the test (Missing) when it is unset. With
// EDGEFLOW_TEST_REQUIRE_POSTGRES=1 a missing URL fails even outside CI.
func PostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("EDGEFLOW_TEST_POSTGRES_URL")
	if u == "" {
		if os.Getenv("EDGEFLOW_TEST_REQUIRE_POSTGRES") == "1" {
			t.Fatal("EDGEFLOW_TEST_POSTGRES_URL is not set and EDGEFLOW_TEST_REQUIRE_POSTGRES=1")
		}
		Missing(t, "EDGEFLOW_TEST_POSTGRES_URL is not set (a PostgreSQL URL the tests may create schemas in; .ci/run starts one)")
	}
	return u
}

// Root is the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// BenchIRDir is the directory of the benchmark IRs (linear-N.json and mixed-N.json, N = 10, 100, 1000, 5000):
// testdata/bench/ir in the repository, or EDGEFLOW_BENCH_IR when set.
func BenchIRDir() string {
	if d := os.Getenv("EDGEFLOW_BENCH_IR"); d != "" {
		return d
	}
	return filepath.Join(Root(), "testdata", "bench", "ir")
}

// BenchIR reads the benchmark IR name (without .json); a missing file fails the test.
func BenchIR(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(BenchIRDir(), name+".json"))
	if err != nil {
		t.Fatalf("benchmark input missing: %v", err)
	}
	return b
}

// PostgresSchema creates an empty schema in the database of PostgresURL (ending the test as PostgresURL does when
// there is none), drops it when the test ends, and returns the URL with its search_path set to it: a fresh database
// for one test, which several stores (replicas) may open at once.
func PostgresSchema(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	ctx := context.Background()
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	name := "edgeflow_test_" + hex.EncodeToString(b[:])
	exec := func(sql string) error {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	if err := exec("CREATE SCHEMA " + name); err != nil {
		t.Fatalf("create a test schema: %v", err)
	}
	t.Cleanup(func() {
		if err := exec("DROP SCHEMA " + name + " CASCADE"); err != nil {
			t.Errorf("drop test schema %s: %v", name, err)
		}
	})
	if !strings.HasPrefix(base, "postgres://") && !strings.HasPrefix(base, "postgresql://") {
		return base + " search_path=" + name // keyword/value form
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// WaitFor waits on a fact: it asks done every interval until done reports true, and fails the test (t.Fatalf,
// naming what it waited for and the state done saw last) when within passes first. It is how a test waits for a
// state of a real component (a run's status, a process's answer) instead of sleeping for a time it guesses; a
// check of its own (internal/testwaits) fails on a time.Sleep in a test.
func WaitFor(t testing.TB, within, interval time.Duration, what string, done func() (ok bool, seen string)) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		ok, seen := done()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s; last seen: %s", within, what, seen)
		}
		<-tick.C
	}
}
