package edgeflow_test

import (
	"errors"
	"fmt"
	"regexp"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func TestNewID(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^wf_[a-z0-9]{20}$`)
	seen := map[string]bool{}
	counts := map[rune]int{}
	for range 2000 {
		id := edgeflow.NewID(edgeflow.PrefixWorkflow)
		if !re.MatchString(id) {
			t.Fatalf("NewID = %q, want wf_ and 20 of [a-z0-9]", id)
		}
		if seen[id] {
			t.Fatalf("NewID repeated %q", id)
		}
		seen[id] = true
		for _, c := range id[3:] {
			counts[c]++
		}
	}
	// 40,000 characters over 36 symbols: about 1,111 each; a biased
	// generator (modulo 256) would give the first four symbols ~14% more.
	for c, n := range counts {
		if n < 950 || n > 1280 {
			t.Errorf("character %q drawn %d times of 40000; want about 1111", c, n)
		}
	}
	if len(counts) != 36 {
		t.Errorf("%d distinct characters, want 36", len(counts))
	}
}

func TestErrorCode(t *testing.T) {
	t.Parallel()
	wrapped := fmt.Errorf("deploy wf_x: %w", edgeflow.Errorf(edgeflow.EConflict, "version %d is locked", 3))
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{errors.New("disk on fire"), edgeflow.EInternal},
		{edgeflow.NotFound("workflow"), edgeflow.ENotFound},
		{wrapped, edgeflow.EConflict},
		{edgeflow.Invalid("/name", "is required"), edgeflow.EInvalid},
	}
	for _, tt := range tests {
		if got := edgeflow.ErrorCode(tt.err); got != tt.want {
			t.Errorf("ErrorCode(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
	if !edgeflow.IsConflict(wrapped) || edgeflow.IsNotFound(wrapped) {
		t.Errorf("IsConflict/IsNotFound disagree with the wrapped code")
	}
	var e *edgeflow.Error
	if !errors.As(edgeflow.Invalid("/name", "is required"), &e) || e.Details.([]edgeflow.FieldError)[0].Path != "/name" {
		t.Errorf("Invalid does not carry its field path: %+v", e)
	}
}
