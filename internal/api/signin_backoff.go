package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The sign-in back-off (docs/decisions.md 85): after SignInFreeFailures
// failed sign-ins for one email, each further attempt is refused with 429
// until SignInBaseDelay has passed since the last failure, doubling with each
// failure after that up to SignInMaxDelay. A success clears the count;
// failures older than SignInForgetAfter are forgotten. It holds with the
// per-address rate limits off, and for emails that have no account exactly
// as for those that do, so it tells nothing about which exist.
const (
	SignInFreeFailures = 10
	SignInBaseDelay    = 30 * time.Second
	SignInMaxDelay     = 15 * time.Minute
	SignInForgetAfter  = 24 * time.Hour
)

// signInKey is the back-off key of an email: a hash of its trimmed, lower-
// cased form, so that the store never holds addresses tried for accounts
// that do not exist.
func signInKey(email string) string {
	sum := sha256.Sum256([]byte("edgeflow sign-in back-off\x00" + strings.ToLower(strings.TrimSpace(email))))
	return hex.EncodeToString(sum[:])
}

// signInDelay is how long after its last failure an email with count
// failures is refused (0 below SignInFreeFailures).
func signInDelay(count int) time.Duration {
	if count < SignInFreeFailures {
		return 0
	}
	d := SignInBaseDelay
	for i := SignInFreeFailures; i < count && d < SignInMaxDelay; i++ {
		d *= 2
	}
	return min(d, SignInMaxDelay)
}

// signInBackOff returns rate_limited, setting Retry-After, while key is in
// its back-off.
func (s *Server) signInBackOff(ctx context.Context, w http.ResponseWriter, key string) error {
	f, err := s.Store.FindSignInFailures(ctx, key)
	if err != nil {
		return err
	}
	until := f.LastFailedAt.Add(signInDelay(f.Count))
	now := s.now()
	if f.Count < SignInFreeFailures || !now.Before(until) {
		return nil
	}
	wait := max(int((until.Sub(now)+time.Second-1)/time.Second), 1)
	w.Header().Set("Retry-After", strconv.Itoa(wait))
	return edgeflow.Errorf(edgeflow.ERateLimited,
		"too many failed sign-ins for this email; retry in %d s", wait)
}

// recordSignInFailure counts a failed sign-in of key.
func (s *Server) recordSignInFailure(ctx context.Context, key string) error {
	now := s.now()
	_, err := s.Store.RecordSignInFailure(ctx, key, now, now.Add(-SignInForgetAfter))
	return err
}
