// Package secret seals values at rest with AES-256-GCM. Associated data binds
// each ciphertext to the row it belongs to, so a sealed value copied into
// another row fails to open.
package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the length of a sealing key in bytes (AES-256).
const KeySize = 32

// KeyFileName is the file LoadOrCreateKey keeps the generated key in, inside
// the data directory.
const KeyFileName = "secret.key"

// version prefixes every sealed value so the format can change later.
const version byte = 1

// ErrOpen is returned when a sealed value cannot be opened: wrong key, wrong
// associated data, or damaged ciphertext.
var ErrOpen = errors.New("secret: cannot open sealed value")

// Sealer seals and opens values with one key. It is safe for concurrent use.
type Sealer struct {
	aead   cipher.AEAD
	macKey []byte       // MAC's key, derived from the sealing key
	ids    cipher.Block // SealID's cipher, under a key derived from the sealing key
}

// New returns a Sealer for a 32-byte key.
func New(key []byte) (*Sealer, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secret: key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	derive := func(purpose string) []byte {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(purpose))
		return m.Sum(nil)
	}
	ids, err := aes.NewCipher(derive("edgeflow secret: ID key v1"))
	if err != nil {
		return nil, fmt.Errorf("secret: %w", err)
	}
	return &Sealer{aead: aead, macKey: derive("edgeflow secret: MAC key v1"), ids: ids}, nil
}

// MAC returns the HMAC-SHA-256 of data under a key derived from the
// sealing key (never the sealing key itself), so that values the server
// hands out (page cursors) can be checked when they come back, on every
// replica sharing the key. Callers put a purpose prefix in data.
func (s *Sealer) MAC(data []byte) []byte {
	m := hmac.New(sha256.New, s.macKey)
	m.Write(data)
	return m.Sum(nil)
}

// SealID hides the number n in an opaque token of 22 characters for the
// purpose named by scope: the same n and scope always give the same token,
// tokens of other numbers look unrelated to it (so a run of them tells
// nothing of the numbers in between), and OpenID gives n back only for the
// same scope, on every replica sharing the key. It is one AES block of n and
// a MAC of scope, under a key derived from the sealing key.
func (s *Sealer) SealID(scope string, n uint64) string {
	var block [aes.BlockSize]byte
	binary.BigEndian.PutUint64(block[:8], n)
	copy(block[8:], s.MAC([]byte("edgeflow secret: ID scope\x00" + scope))[:8])
	s.ids.Encrypt(block[:], block[:])
	return base64.RawURLEncoding.EncodeToString(block[:])
}

// OpenID returns the number of a token SealID made for scope; any other
// text is ErrOpen.
func (s *Sealer) OpenID(scope, token string) (uint64, error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != aes.BlockSize {
		return 0, ErrOpen
	}
	s.ids.Decrypt(raw, raw)
	tag := s.MAC([]byte("edgeflow secret: ID scope\x00" + scope))[:8]
	if !hmac.Equal(raw[8:], tag) {
		return 0, ErrOpen
	}
	return binary.BigEndian.Uint64(raw[:8]), nil
}

// Seal encrypts plaintext bound to associatedData. The result is
// version || nonce || ciphertext+tag; two seals of the same value differ.
func (s *Sealer) Seal(plaintext, associatedData []byte) []byte {
	out := make([]byte, 1+s.aead.NonceSize(), 1+s.aead.NonceSize()+len(plaintext)+s.aead.Overhead())
	out[0] = version
	if _, err := rand.Read(out[1:]); err != nil {
		panic("secret: crypto/rand failed: " + err.Error())
	}
	return s.aead.Seal(out, out[1:], plaintext, associatedData)
}

// Open decrypts a value made by Seal with the same associated data; any
// mismatch is ErrOpen.
func (s *Sealer) Open(sealed, associatedData []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < 1+n+s.aead.Overhead() || sealed[0] != version {
		return nil, ErrOpen
	}
	plain, err := s.aead.Open(nil, sealed[1:1+n], sealed[1+n:], associatedData)
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}

// SealString seals a string into base64 text (for text columns).
func (s *Sealer) SealString(plaintext, associatedData string) string {
	return base64.RawStdEncoding.EncodeToString(s.Seal([]byte(plaintext), []byte(associatedData)))
}

// OpenString opens a value made by SealString; any mismatch is ErrOpen.
func (s *Sealer) OpenString(sealed, associatedData string) (string, error) {
	raw, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil {
		return "", ErrOpen
	}
	plain, err := s.Open(raw, []byte(associatedData))
	if err != nil {
		return "", err
	}
	return string(plain), nil
}

// ParseKey reads a key given as 64 hex characters or as standard or URL-safe
// base64 (padded or not) of 32 bytes.
func ParseKey(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	if len(text) == 2*KeySize {
		if k, err := hex.DecodeString(text); err == nil {
			return k, nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(text); err == nil && len(k) == KeySize {
			return k, nil
		}
	}
	return nil, errors.New("secret: a key must be 32 bytes given as 64 hex characters or base64")
}

// LoadOrCreateKey returns the key from envValue when it is not empty;
// otherwise it reads dataDir/secret.key, creating it with a new random key
// (mode 0600) on first use. created reports whether a new key was written.
func LoadOrCreateKey(envValue, dataDir string) (key []byte, created bool, err error) {
	if envValue != "" {
		k, err := ParseKey(envValue)
		return k, false, err
	}
	path := filepath.Join(dataDir, KeyFileName)
	raw, err := os.ReadFile(path)
	if err == nil {
		k, err := ParseKey(string(raw))
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", path, err)
		}
		return k, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("secret: read key: %w", err)
	}
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		return nil, false, fmt.Errorf("secret: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		// Another process created it first: use theirs.
		return LoadOrCreateKey("", dataDir)
	}
	if err != nil {
		return nil, false, fmt.Errorf("secret: create key file: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(k) + "\n"); err != nil {
		f.Close()
		return nil, false, fmt.Errorf("secret: write key file: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, false, fmt.Errorf("secret: write key file: %w", err)
	}
	return k, true, nil
}
