package secret_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

func newSealer(t *testing.T) *secret.Sealer {
	t.Helper()
	s, err := secret.New(bytes.Repeat([]byte{7}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSealOpenRoundTrip(t *testing.T) {
	t.Parallel()
	s := newSealer(t)
	a := s.Seal([]byte("token-123"), []byte("connection:c1"))
	b := s.Seal([]byte("token-123"), []byte("connection:c1"))
	if bytes.Equal(a, b) {
		t.Fatal("two seals of the same value are equal; the nonce is not random")
	}
	if bytes.Contains(a, []byte("token-123")) {
		t.Fatal("sealed value contains the plaintext")
	}
	got, err := s.Open(a, []byte("connection:c1"))
	if err != nil || string(got) != "token-123" {
		t.Fatalf("Open = %q, %v", got, err)
	}
}

func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	s := newSealer(t)
	other, _ := secret.New(bytes.Repeat([]byte{8}, secret.KeySize))
	sealed := s.Seal([]byte("v"), []byte("row-1"))
	damaged := bytes.Clone(sealed)
	damaged[len(damaged)-1] ^= 1
	tests := []struct {
		name   string
		sealer *secret.Sealer
		sealed []byte
		ad     string
	}{
		{"other row", s, sealed, "row-2"},
		{"other key", other, sealed, "row-1"},
		{"damaged", s, damaged, "row-1"},
		{"short", s, sealed[:5], "row-1"},
		{"empty", s, nil, "row-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.sealer.Open(tt.sealed, []byte(tt.ad)); !errors.Is(err, secret.ErrOpen) {
				t.Fatalf("Open err = %v, want ErrOpen", err)
			}
		})
	}
}

func TestSealString(t *testing.T) {
	t.Parallel()
	s := newSealer(t)
	sealed := s.SealString("hunter2", "env:e1")
	if strings.Contains(sealed, "hunter2") {
		t.Fatal("sealed text contains the plaintext")
	}
	if got, err := s.OpenString(sealed, "env:e1"); err != nil || got != "hunter2" {
		t.Fatalf("OpenString = %q, %v", got, err)
	}
	if _, err := s.OpenString("not base64!", "env:e1"); !errors.Is(err, secret.ErrOpen) {
		t.Fatalf("OpenString(garbage) err = %v", err)
	}
}

func TestNewRejectsShortKey(t *testing.T) {
	t.Parallel()
	if _, err := secret.New(make([]byte, 16)); err == nil {
		t.Fatal("New accepted a 16-byte key")
	}
}

func TestParseKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in string
		ok bool
	}{
		{strings.Repeat("ab", 32), true},
		{"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", true},
		{"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", true},
		{"short", false},
		{strings.Repeat("ab", 16), false},
	}
	for _, tt := range tests {
		k, err := secret.ParseKey(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ParseKey(%q) err = %v, want ok=%v", tt.in, err, tt.ok)
		}
		if err == nil && len(k) != secret.KeySize {
			t.Errorf("ParseKey(%q) len = %d", tt.in, len(k))
		}
	}
}

func TestLoadOrCreateKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	k1, created, err := secret.LoadOrCreateKey("", dir)
	if err != nil || !created || len(k1) != secret.KeySize {
		t.Fatalf("first LoadOrCreateKey = %d bytes, created %v, %v", len(k1), created, err)
	}
	st, err := os.Stat(filepath.Join(dir, secret.KeyFileName))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode = %v, want 0600", st.Mode().Perm())
	}
	k2, created, err := secret.LoadOrCreateKey("", dir)
	if err != nil || created || !bytes.Equal(k1, k2) {
		t.Fatalf("second LoadOrCreateKey: created %v, same %v, %v", created, bytes.Equal(k1, k2), err)
	}
	env := strings.Repeat("cd", 32)
	k3, created, err := secret.LoadOrCreateKey(env, dir)
	if err != nil || created || k3[0] != 0xcd {
		t.Fatalf("LoadOrCreateKey(env) = %x, %v, %v", k3, created, err)
	}
	if _, _, err := secret.LoadOrCreateKey("bad", dir); err == nil {
		t.Fatal("LoadOrCreateKey accepted a bad env key")
	}
}

func TestCredentials(t *testing.T) {
	t.Parallel()
	s := newSealer(t)
	c := &edgeflow.Connection{ID: "con_1", OrganizationID: "org_1"}
	want := secret.Credentials{APIToken: "tok-secret", AccountID: "acc"}
	if err := s.SealCredentials(c, want); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(c.SealedCredentials, []byte("tok-secret")) {
		t.Fatal("sealed credentials contain the token")
	}
	got, err := s.OpenCredentials(c)
	if err != nil || got != want {
		t.Fatalf("OpenCredentials = %+v, %v", got, err)
	}
	moved := *c
	moved.ID = "con_2"
	if _, err := s.OpenCredentials(&moved); !errors.Is(err, secret.ErrOpen) {
		t.Fatalf("credentials copied to another row opened: %v", err)
	}
	if err := s.SealCredentials(&edgeflow.Connection{}, want); err == nil {
		t.Fatal("SealCredentials without ids succeeded")
	}
}

func TestOpenEnvVars(t *testing.T) {
	t.Parallel()
	s := newSealer(t)
	v := &edgeflow.EnvVar{ID: "env_1", OrganizationID: "org_1", IsSecret: true}
	v.Value = s.SealString("pw", secret.EnvVarAD("org_1", "env_1"))
	if got, err := s.OpenEnvVar(v); err != nil || got != "pw" {
		t.Fatalf("OpenEnvVar = %q, %v", got, err)
	}
	plain := &edgeflow.EnvVar{Value: "x"}
	if got, _ := s.OpenEnvVar(plain); got != "x" {
		t.Fatalf("OpenEnvVar(plain) = %q", got)
	}
	wv := edgeflow.WorkflowEnvVar{Name: "TOKEN", IsSecret: true, Value: s.SealString("t", secret.WorkflowEnvVarAD("wf_1", "TOKEN"))}
	if got, err := s.OpenWorkflowEnvVar("wf_1", wv); err != nil || got != "t" {
		t.Fatalf("OpenWorkflowEnvVar = %q, %v", got, err)
	}
	if _, err := s.OpenWorkflowEnvVar("wf_2", wv); !errors.Is(err, secret.ErrOpen) {
		t.Fatalf("OpenWorkflowEnvVar(other workflow) = %v", err)
	}
}

func TestMAC(t *testing.T) {
	t.Parallel()
	k1, k2 := bytes.Repeat([]byte{1}, secret.KeySize), bytes.Repeat([]byte{2}, secret.KeySize)
	s1, _ := secret.New(k1)
	s1b, _ := secret.New(k1)
	s2, _ := secret.New(k2)
	a := s1.MAC([]byte("cursor:x"))
	if len(a) != 32 || !bytes.Equal(a, s1b.MAC([]byte("cursor:x"))) {
		t.Fatal("MAC is not a deterministic 32-byte HMAC for one key")
	}
	if bytes.Equal(a, s2.MAC([]byte("cursor:x"))) || bytes.Equal(a, s1.MAC([]byte("cursor:y"))) {
		t.Fatal("MAC does not depend on the key and the data")
	}
}

// TestSealID: a token gives its number back for its scope only, is the same
// for the same number and distinct for distinct numbers, and any other
// text, or another key's token, is ErrOpen.
func TestSealID(t *testing.T) {
	t.Parallel()
	s, err := secret.New(bytes.Repeat([]byte{7}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := secret.New(bytes.Repeat([]byte{8}, secret.KeySize))
	seen := map[string]bool{}
	for n := uint64(0); n < 1000; n++ {
		tok := s.SealID("stream", n)
		if len(tok) != 22 || seen[tok] {
			t.Fatalf("token %q of %d", tok, n)
		}
		seen[tok] = true
		if got, err := s.OpenID("stream", tok); err != nil || got != n {
			t.Fatalf("OpenID(%q) = %d, %v, want %d", tok, got, err, n)
		}
		if s.SealID("stream", n) != tok {
			t.Fatal("the same number gave another token")
		}
	}
	tok := s.SealID("stream", 5)
	for _, bad := range []struct {
		s          *secret.Sealer
		scope, tok string
	}{
		{s, "other scope", tok}, {other, "stream", tok}, {s, "stream", "5"}, {s, "stream", tok + "A"}, {s, "stream", ""},
		{s, "stream", strings.Repeat("A", 22)},
	} {
		if _, err := bad.s.OpenID(bad.scope, bad.tok); !errors.Is(err, secret.ErrOpen) {
			t.Errorf("OpenID(%q, %q) = %v, want ErrOpen", bad.scope, bad.tok, err)
		}
	}
}
