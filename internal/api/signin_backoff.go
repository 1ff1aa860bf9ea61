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

// signInPolicy is the back-off the constants above describe.
var signInPolicy = edgeflow.SignInBackOff{FreeFailures: SignInFreeFailures, BaseDelay: SignInBaseDelay,
	MaxDelay: SignInMaxDelay, ForgetAfter: SignInForgetAfter}

// claimSignIn admits one attempt to check key's password, counting it as a
// failure in the same atomic step (a success clears the count), or returns
// rate_limited, setting Retry-After, while key is in its back-off. Checking
// and counting in one step means that concurrent wrong passwords, on any
// replica, are checked no more often than the back-off allows
// (docs/decisions.md 343).
func (s *Server) claimSignIn(ctx context.Context, w http.ResponseWriter, key string) error {
	_, wait, err := s.Store.ClaimSignInAttempt(ctx, key, s.now(), signInPolicy)
	if err != nil {
		return err
	}
	if wait <= 0 {
		return nil
	}
	secs := max(int((wait+time.Second-1)/time.Second), 1)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	return edgeflow.Errorf(edgeflow.ERateLimited,
		"too many failed sign-ins for this email; retry in %d s", secs)
}
