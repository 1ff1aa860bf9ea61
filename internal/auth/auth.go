// Package auth holds the credential primitives of edgeflow: bcrypt password
// hashes, opaque session tokens and API keys, all stored only as hashes.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// APIKeyPrefix starts every API key.
const APIKeyPrefix = "ask_"

// DisplayPrefixLen is the length of the part of a key shown in lists.
const DisplayPrefixLen = 8

// MinPasswordLen and MaxPasswordLen bound passwords (bcrypt reads at most 72 bytes).
const (
	MinPasswordLen = 8
	MaxPasswordLen = 72
)

// ErrPasswordMismatch is returned by CheckPassword for a wrong password.
var ErrPasswordMismatch = errors.New("auth: password does not match")

// dummyHash is compared against when a user does not exist, so that sign-in
// takes as long for an unknown email as for a wrong password.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("edgeflow-dummy-password"), bcrypt.MinCost)

// HashPassword returns the bcrypt hash of password at cost (0 means
// bcrypt.DefaultCost).
func HashPassword(password string, cost int) ([]byte, error) {
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	return bcrypt.GenerateFromPassword([]byte(password), cost)
}

// CheckPassword compares password with hash; a nil hash (unknown user) still
// costs a bcrypt comparison and returns ErrPasswordMismatch.
func CheckPassword(hash []byte, password string) error {
	if hash == nil {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(password))
		return ErrPasswordMismatch
	}
	if err := bcrypt.CompareHashAndPassword(hash, []byte(password)); err != nil {
		return ErrPasswordMismatch
	}
	return nil
}

// HashToken returns the SHA-256 of a session token or API key, the only form
// in which either is stored.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// randomText returns n random bytes as unpadded URL-safe base64.
func randomText(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("auth: crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// NewSessionToken returns a new opaque session token (256 random bits) and its hash.
func NewSessionToken() (token string, hash []byte) {
	token = randomText(32)
	return token, HashToken(token)
}

// NewCSRFToken returns a new random CSRF token.
func NewCSRFToken() string { return randomText(32) }

// NewAPIKey returns a new key "ask_" + 43 URL-safe characters (256 bits), its
// 8-character display prefix and its hash.
func NewAPIKey() (key, displayPrefix string, hash []byte) {
	key = APIKeyPrefix + randomText(32)
	return key, key[:DisplayPrefixLen], HashToken(key)
}

// LooksLikeAPIKey reports whether s has the form of an API key.
func LooksLikeAPIKey(s string) bool {
	return strings.HasPrefix(s, APIKeyPrefix) && len(s) > len(APIKeyPrefix)+16 && len(s) < 200
}

// EqualTokens compares two tokens in constant time.
func EqualTokens(a, b string) bool {
	return len(a) > 0 && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
