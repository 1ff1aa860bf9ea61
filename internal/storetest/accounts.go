package storetest

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testUsers(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	u := &edgeflow.User{Email: "Ada@Example.com", Name: "Ada", PasswordHash: []byte("$2a$hash")}
	must(t, s.CreateUser(ctx, u))
	if !strings.HasPrefix(u.ID, edgeflow.PrefixUser+"_") || u.CreatedAt.IsZero() {
		t.Fatalf("CreateUser did not set ID/CreatedAt: %+v", u)
	}
	got, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	diff(t, "FindUserByID", got, u)
	got, err = s.FindUserByEmail(ctx, "ada@example.COM")
	must(t, err)
	diff(t, "FindUserByEmail", got, u)

	wantCode(t, "duplicate email", s.CreateUser(ctx, &edgeflow.User{Email: "ADA@example.com"}), edgeflow.EConflict)
	_, err = s.FindUserByID(ctx, "usr_missing")
	wantCode(t, "FindUserByID unknown", err, edgeflow.ENotFound)
	_, err = s.FindUserByEmail(ctx, "nobody@example.com")
	wantCode(t, "FindUserByEmail unknown", err, edgeflow.ENotFound)
}
