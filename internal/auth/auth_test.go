package auth_test

import (
	"bytes"
	"errors"
	"regexp"
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
