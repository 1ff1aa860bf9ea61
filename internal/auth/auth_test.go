package auth_test

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/auth"
	"golang.org/x/crypto/bcrypt"
)

func TestPassword(t *testing.T) {
	t.Parallel()
	hash, err := auth.HashPassword("correct horse", bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(hash, []byte("correct horse")) {
		t.Fatal("hash contains the password")
	}
	if err := auth.CheckPassword(hash, "correct horse"); err != nil {
		t.Fatalf("CheckPassword(right) = %v", err)
	}
	for _, pw := range []string{"correct horsE", "", "correct horse "} {
		if err := auth.CheckPassword(hash, pw); !errors.Is(err, auth.ErrPasswordMismatch) {
			t.Errorf("CheckPassword(%q) = %v, want mismatch", pw, err)
		}
	}
	if err := auth.CheckPassword(nil, "x"); !errors.Is(err, auth.ErrPasswordMismatch) {
		t.Fatalf("CheckPassword(nil hash) = %v", err)
	}
}

func TestNewAPIKey(t *testing.T) {
	t.Parallel()
	key, prefix, hash := auth.NewAPIKey()
	if !regexp.MustCompile(`^ask_[A-Za-z0-9_-]{43}$`).MatchString(key) {
		t.Fatalf("key %q has the wrong form", key)
	}
	if prefix != key[:8] || len(prefix) != auth.DisplayPrefixLen {
		t.Fatalf("prefix %q of %q", prefix, key)
	}
	if !bytes.Equal(hash, auth.HashToken(key)) || len(hash) != 32 {
		t.Fatal("hash is not the SHA-256 of the key")
	}
	if !auth.LooksLikeAPIKey(key) || auth.LooksLikeAPIKey("ask_") || auth.LooksLikeAPIKey("bearer") {
		t.Fatal("LooksLikeAPIKey is wrong")
	}
	other, _, _ := auth.NewAPIKey()
	if other == key {
		t.Fatal("two keys are equal")
	}
}

func TestSessionAndCSRFTokens(t *testing.T) {
	t.Parallel()
	tok, hash := auth.NewSessionToken()
	if len(tok) < 43 || !bytes.Equal(hash, auth.HashToken(tok)) {
		t.Fatalf("session token %q", tok)
	}
	c := auth.NewCSRFToken()
	if !auth.EqualTokens(c, c) || auth.EqualTokens(c, c+"x") || auth.EqualTokens("", "") {
		t.Fatal("EqualTokens is wrong")
	}
}

// TestLongPassword: bcrypt reads 72 bytes; passphrases longer than that are
// pre-hashed, so two that share their first 72 bytes are different
// passwords, and hashes made before (plain bcrypt) still verify.
func TestLongPassword(t *testing.T) {
	t.Parallel()
	prefix := strings.Repeat("correct horse battery staple ", 3) // 87 bytes
	long1, long2 := prefix+"one", prefix+"two"
	hash, err := auth.HashPassword(long1, bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if err := auth.CheckPassword(hash, long1); err != nil {
		t.Fatalf("CheckPassword(long, right) = %v", err)
	}
	for _, pw := range []string{long2, prefix, prefix[:72], long1[:len(long1)-1]} {
		if err := auth.CheckPassword(hash, pw); !errors.Is(err, auth.ErrPasswordMismatch) {
			t.Errorf("CheckPassword(%q) = %v, want mismatch", pw, err)
		}
	}
	if c, err := auth.HashCost(hash); err != nil || c != bcrypt.MinCost {
		t.Fatalf("HashCost = %d, %v", c, err)
	}
	// A hash stored before pre-hashing existed: plain bcrypt.
	legacy, err := bcrypt.GenerateFromPassword([]byte("password-1"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if err := auth.CheckPassword(legacy, "password-1"); err != nil {
		t.Fatalf("legacy hash: %v", err)
	}
	exactly72 := strings.Repeat("z", 72)
	h72, _ := auth.HashPassword(exactly72, bcrypt.MinCost)
	if !bytes.HasPrefix(h72, []byte("$2")) || auth.CheckPassword(h72, exactly72) != nil {
		t.Fatal("a 72-byte password is plain bcrypt")
	}
	if err := auth.CheckPassword(legacy, "password-1"+strings.Repeat("x", 80)); !errors.Is(err, auth.ErrPasswordMismatch) {
		t.Fatalf("long password against a plain hash: %v", err)
	}
}

// TestDummyCost: the hash an unknown email is compared against has the cost
// of real hashes, so both take the same time.
func TestDummyCost(t *testing.T) {
	t.Parallel()
	for _, cost := range []int{bcrypt.MinCost, bcrypt.MinCost + 2} {
		d := auth.NewDummy(cost)
		if c, err := auth.HashCost(d.Hash()); err != nil || c != cost {
			t.Errorf("dummy cost %d, %v; want %d", c, err, cost)
		}
		if !bytes.Equal(d.Hash(), d.Hash()) {
			t.Error("the dummy hash is made more than once")
		}
		if err := d.Check("anything-at-all"); !errors.Is(err, auth.ErrPasswordMismatch) {
			t.Errorf("Dummy.Check = %v", err)
		}
	}
	if c, _ := auth.HashCost(auth.NewDummy(0).Hash()); c != bcrypt.DefaultCost {
		t.Errorf("default dummy cost %d", c)
	}
}
