package auth

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// MinPasswordLen and MaxPasswordLen bound passwords, in bytes. bcrypt reads
// at most bcryptMaxInput bytes; longer passwords (passphrases) are pre-hashed
// (HashPassword), so every byte counts. MaxPasswordLen only bounds the work
// a request can cause.
const (
	MinPasswordLen = 8
	MaxPasswordLen = 1024
)

// bcryptMaxInput is the most bcrypt reads of its input.
const bcryptMaxInput = 72

// preHashPrefix starts a stored hash whose bcrypt input was the pre-hash of
// the password, not the password itself. Hashes without it (all hashes made
// before long passwords were allowed, and those of passwords of at most 72
// bytes) are plain bcrypt of the password.
var preHashPrefix = []byte("ef-prehash1:")

// preHashKey keys the pre-hash. It is not a secret: it keeps the pre-hash
// from being a plain SHA-256 that other systems' leaked hashes could be
// matched against.
var preHashKey = []byte("edgeflow password pre-hash v1")

// ErrPasswordMismatch is returned by CheckPassword for a wrong password.
var ErrPasswordMismatch = errors.New("auth: password does not match")

// preHash is the bcrypt input for a password longer than bcrypt reads: the
// base64 of its HMAC-SHA-256 (44 bytes, no NUL).
func preHash(password string) []byte {
	m := hmac.New(sha256.New, preHashKey)
	m.Write([]byte(password))
	return []byte(base64.StdEncoding.EncodeToString(m.Sum(nil)))
}

// HashPassword returns the hash to store for password at bcrypt cost (0
// means bcrypt.DefaultCost). A password longer than 72 bytes is pre-hashed,
// and the stored hash says so, so that no part of a long passphrase is
// ignored.
func HashPassword(password string, cost int) ([]byte, error) {
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	if len(password) <= bcryptMaxInput {
		return bcrypt.GenerateFromPassword([]byte(password), cost)
	}
	h, err := bcrypt.GenerateFromPassword(preHash(password), cost)
	if err != nil {
		return nil, err
	}
	return append(append([]byte(nil), preHashPrefix...), h...), nil
}

// CheckPassword compares password with a hash made by HashPassword (or a
// plain bcrypt hash stored before pre-hashing existed). It returns
// ErrPasswordMismatch for a wrong password or a hash it cannot read.
func CheckPassword(hash []byte, password string) error {
	input := []byte(password)
	if h, ok := bytes.CutPrefix(hash, preHashPrefix); ok {
		hash, input = h, preHash(password)
	} else if len(password) > bcryptMaxInput {
		// A plain hash only ever holds a password of at most 72 bytes;
		// still pay for the comparison so the time says nothing.
		input = preHash(password)
	}
	if err := bcrypt.CompareHashAndPassword(hash, input); err != nil {
		return ErrPasswordMismatch
	}
	return nil
}

// Dummy is a hash to compare against when no user has the email given at
// sign-in, so that an unknown email costs exactly what a wrong password
// does. It is made once, lazily, at the cost real hashes are made at.
type Dummy struct {
	cost int
	once sync.Once
	hash []byte
}

// NewDummy returns the dummy hash source for bcrypt cost (0 means
// bcrypt.DefaultCost).
func NewDummy(cost int) *Dummy {
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	return &Dummy{cost: cost}
}

// Hash returns the dummy hash (made on first use).
func (d *Dummy) Hash() []byte {
	d.once.Do(func() {
		var err error
		d.hash, err = bcrypt.GenerateFromPassword([]byte(randomText(24)), d.cost)
		if err != nil {
			panic("auth: bcrypt failed: " + err.Error())
		}
	})
	return d.hash
}

// Check compares password with the dummy hash, as CheckPassword would with
// a real one, and always returns ErrPasswordMismatch.
func (d *Dummy) Check(password string) error {
	_ = CheckPassword(d.Hash(), password)
	return ErrPasswordMismatch
}

// HashCost returns the bcrypt cost of a hash made by HashPassword.
func HashCost(hash []byte) (int, error) {
	return bcrypt.Cost(bytes.TrimPrefix(hash, preHashPrefix))
}
