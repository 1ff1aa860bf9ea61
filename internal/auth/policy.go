package auth

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// commonPasswordsText is the list of passwords refused as too common, one
// per line, lower case (gen_common_passwords.go writes it).
//
//go:embed common_passwords.txt
var commonPasswordsText string

var (
	commonOnce      sync.Once
	commonPasswords map[string]struct{}
)

// IsCommonPassword reports whether password, compared case-insensitively, is
// in the list of common passwords shipped with edgeflow.
func IsCommonPassword(password string) bool {
	commonOnce.Do(func() {
		commonPasswords = make(map[string]struct{}, strings.Count(commonPasswordsText, "\n"))
		for line := range strings.Lines(commonPasswordsText) {
			if p := strings.TrimSpace(line); p != "" {
				commonPasswords[p] = struct{}{}
			}
		}
	})
	_, ok := commonPasswords[strings.ToLower(password)]
	return ok
}

// PasswordProblem returns why password may not be chosen by the user with
// email, or "" when it may: fewer than MinPasswordLen characters, more than
// MaxPasswordLen bytes, only whitespace, the email or its local part
// (case-insensitively), or a common password. The messages are written for
// the user.
func PasswordProblem(password, email string) string {
	switch {
	case password == "":
		return "password is required"
	case utf8.RuneCountInString(password) < MinPasswordLen:
		return "password must be at least 8 characters"
	case len(password) > MaxPasswordLen:
		return "password must be at most 1024 bytes"
	case !utf8.ValidString(password):
		return "password must be valid UTF-8"
	case strings.IndexFunc(password, func(r rune) bool { return !unicode.IsSpace(r) }) < 0:
		return "password must not be only whitespace"
	}
	if email != "" {
		local, _, _ := strings.Cut(email, "@")
		if strings.EqualFold(password, email) || strings.EqualFold(password, local) {
			return "password must not be your email address or its part before the @"
		}
	}
	if IsCommonPassword(password) {
		return "password is too common: it is on the list of passwords attackers try first; choose another"
	}
	return ""
}
