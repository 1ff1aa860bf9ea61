package sqlite_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// TestUnreachable: errors of a closed store are "unreachable" (the API
// answers 503); a request the database refuses (duplicate, not found) and
// other errors are not.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := &edgeflow.User{Email: "a@example.com", PasswordHash: []byte("h")}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	dup := s.CreateUser(ctx, &edgeflow.User{Email: "a@example.com", PasswordHash: []byte("h")})
	_, missing := s.FindUserByID(ctx, "usr_missing")
	for name, err := range map[string]error{"nil": nil, "duplicate": dup, "not found": missing,
		"canceled": context.Canceled, "other": errors.New("boom")} {
		if s.Unreachable(err) {
			t.Errorf("%s (%v) classified unreachable", name, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = s.FindUserByID(ctx, u.ID)
	if err == nil || !s.Unreachable(err) {
		t.Fatalf("read of a closed store: %v, want unreachable", err)
	}
	if err := s.CreateUser(ctx, &edgeflow.User{Email: "b@example.com", PasswordHash: []byte("h")}); err == nil || !s.Unreachable(err) {
		t.Fatalf("write to a closed store: %v, want unreachable", err)
	}
}
