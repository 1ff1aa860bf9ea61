// Package auth holds the credential primitives of edgeflow: bcrypt password
// hashes, opaque session tokens and API keys, all stored only as hashes.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"
)

// APIKeyPrefix starts every API key.
const APIKeyPrefix = "ask_"

// DisplayPrefixLen is the length of the part of a key shown in lists.
const DisplayPrefixLen = 8

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
