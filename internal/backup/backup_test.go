package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// newSource makes a data dir with a migrated SQLite database holding a user
// and a stopped edge's files.
func newSource(t *testing.T) (string, *sqlite.Store) {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(t.Context(), filepath.Join(dir, SQLiteFile), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.CreateUser(t.Context(), &edgeflow.User{Email: "a@example.com", PasswordHash: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	for p, body := range map[string]string{"edge/registry.json": "{}", "edge/miniflare/kv/ns/blobs/b1": "hello", "edge/token": "secret-token", "edge/run/x": "sock"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir, st
}

func TestBackupVerifyRestoreSQLite(t *testing.T) {
	dir, st := newSource(t)
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	m, err := Create(t.Context(), Source{DataDir: dir, Store: st, Version: "test"}, out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Tables["users"] != 1 || m.MigrationLevel == 0 {
		t.Fatalf("manifest counts users %d, level %d", m.Tables["users"], m.MigrationLevel)
	}
	for _, mem := range m.Members {
		if strings.HasSuffix(mem.Name, "token") || strings.HasPrefix(mem.Name, "edge/run") {
			t.Fatalf("member %s must not be in an archive", mem.Name)
		}
	}
	if _, err := Verify(t.Context(), out); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "data")
	if _, err := Restore(t.Context(), out, Target{DataDir: target, Key: make([]byte, 32)}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(target, "edge/miniflare/kv/ns/blobs/b1")); err != nil || string(b) != "hello" {
		t.Fatalf("restored blob: %q %v", b, err)
	}
	rst, err := sqlite.Open(t.Context(), filepath.Join(target, SQLiteFile), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rst.Close()
	if _, err := rst.FindUserByEmail(t.Context(), "a@example.com"); err != nil {
		t.Fatalf("restored user: %v", err)
	}
	// A second restore into it is refused, and it is left as it was.
	_, err = Restore(t.Context(), out, Target{DataDir: target, Key: make([]byte, 32)})
	if !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("restore into a non-empty data dir: %v", err)
	}
}

// rewrite copies the archive in to a new file with fn applied to each member's bytes.
func rewrite(t *testing.T, in string, fn func(name string, b []byte) []byte) string {
	t.Helper()
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var buf bytes.Buffer
	gw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gw)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		b = fn(h.Name, b)
		h.Size = int64(len(b))
		tw.WriteHeader(h)
		tw.Write(b)
	}
	tw.Close()
	gw.Close()
	out := filepath.Join(t.TempDir(), "changed.tar.gz")
	if err := os.WriteFile(out, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRestoreRefusesDamagedArchives(t *testing.T) {
	dir, st := newSource(t)
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	if _, err := Create(t.Context(), Source{DataDir: dir, Store: st}, out); err != nil {
		t.Fatal(err)
	}
	whole, _ := os.ReadFile(out)
	truncated := filepath.Join(t.TempDir(), "t.tar.gz")
	os.WriteFile(truncated, whole[:len(whole)/2], 0o600)
	cases := map[string]struct{ file, member string }{
		"database":  {rewrite(t, out, flipIn(SQLiteMember)), SQLiteMember},
		"edge blob": {rewrite(t, out, flipIn("edge/miniflare/kv/ns/blobs/b1")), "edge/miniflare/kv/ns/blobs/b1"},
		"registry":  {rewrite(t, out, flipIn("edge/registry.json")), "edge/registry.json"},
		"truncated": {truncated, ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "data")
			_, err := Restore(t.Context(), c.file, Target{DataDir: target, Key: make([]byte, 32)})
			var d *DamagedError
			if !errors.As(err, &d) || (c.member != "" && d.Member != c.member) {
				t.Fatalf("restore of a damaged archive: %v (want member %q)", err, c.member)
			}
			if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the target was written: %v", err)
			}
			if _, err := Verify(t.Context(), c.file); !errors.As(err, &d) {
				t.Fatalf("verify of a damaged archive: %v", err)
			}
		})
	}
}

func flipIn(member string) func(string, []byte) []byte {
	return func(name string, b []byte) []byte {
		if name == member && len(b) > 0 {
			b[len(b)/2] ^= 0x01
		}
		return b
	}
}

// TestRestoreRefusesWrongKey: an archive of a database with a connection
// whose credentials are sealed is refused with another key (ErrWrongKey,
// nothing written) and restored with the key it was sealed with. (The
// manifest once held the store's JSON of the connection, which leaves the
// sealed credentials out: every key was refused.)
func TestRestoreRefusesWrongKey(t *testing.T) {
	dir, st := newSource(t)
	ctx := t.Context()
	key := bytes.Repeat([]byte{3}, secret.KeySize)
	sealer, err := secret.New(key)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.FindUserByEmail(ctx, "a@example.com")
	if err != nil {
		t.Fatal(err)
	}
	org := &edgeflow.Organization{Name: "Org", Slug: "org"}
	if err := st.CreateOrganization(ctx, org, u.ID); err != nil {
		t.Fatal(err)
	}
	c := &edgeflow.Connection{ID: "con_sealed", OrganizationID: org.ID, Provider: edgeflow.ProviderLocal, Name: "sealed"}
	if err := sealer.SealCredentials(c, secret.Credentials{APIToken: "tok", AccountID: "acct"}); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateConnection(ctx, c); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "b.tar.gz")
	if _, err := Create(ctx, Source{DataDir: dir, Store: st}, out); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "data")
	if _, err := Restore(ctx, out, Target{DataDir: target, Key: bytes.Repeat([]byte{4}, secret.KeySize)}); !errors.Is(err, ErrWrongKey) {
		t.Fatalf("restore with another key: %v", err)
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused restore wrote the target: %v", err)
	}
	if _, err := Restore(ctx, out, Target{DataDir: target, Key: key}); err != nil {
		t.Fatalf("restore with the key: %v", err)
	}
}
