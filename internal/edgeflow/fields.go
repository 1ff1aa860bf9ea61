package edgeflow

import (
	"fmt"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rules of the fields people type (names, descriptions, slugs, email addresses, variable names, key scopes),
// in one place for every client of the domain: the HTTP API checks request bodies with them and the command line
// (`edgeflow admin bootstrap`) checks its flags with them. Each Problem function returns the message for the field
// (the API puts it at the field's path), or "" when the value is allowed.

// Lengths of the fields, in bytes (docs/api.md).
const (
	MaxNameLength        = 200
	MaxDescriptionLength = 2000
	MaxSlugLength        = 63
	MaxEnvVarNameLength  = 128
	MaxEmailLength       = 254
)

// NameProblem checks a required display name (of a workflow, project, organization, connection, API key):
// 1 to MaxNameLength bytes, and the characters NameCharProblem allows. The caller trims surrounding space first.
func NameProblem(name string) string {
	if name == "" {
		return "name is required"
	}
	if msg := NameLengthProblem("name", name); msg != "" {
		return msg
	}
	return NameCharProblem(name)
}

// NameLengthProblem checks that an optional name, sent as field, is at most MaxNameLength bytes.
func NameLengthProblem(field, name string) string {
	if len(name) > MaxNameLength {
		return fmt.Sprintf("%s must be at most %d characters", field, MaxNameLength)
	}
	return ""
}

// NameCharProblem returns why a display name (of a workflow, project, connection, API key, organization, user,
// ...) may not hold its characters, or "": text that is not UTF-8, control characters (NUL, C0, DEL, C1), line and
// paragraph separators, and the bidirectional formatting characters that make a name display as something else
// (docs/decisions.md 86).
func NameCharProblem(name string) string {
	for i, r := range name {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(name[i:]); size <= 1 {
				return "name must be valid UTF-8"
			}
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || bidiControl(r) {
			return fmt.Sprintf("name must not contain control characters (found U+%04X)", r)
		}
	}
	return ""
}

// bidiControl reports whether r is a Unicode bidirectional formatting character (marks, embeddings, overrides,
// isolates).
func bidiControl(r rune) bool {
	return r == '\u061C' || r == '\u200E' || r == '\u200F' || r >= '\u202A' && r <= '\u202E' || r >= '\u2066' && r <= '\u2069'
}

// DescriptionProblem checks a description (of a workflow or project): at most MaxDescriptionLength bytes, empty
// allowed.
func DescriptionProblem(description string) string {
	if len(description) > MaxDescriptionLength {
		return fmt.Sprintf("description must be at most %d characters", MaxDescriptionLength)
	}
	return ""
}

var slugPattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`)

// SlugProblem checks a project's slug: 1 to MaxSlugLength lowercase letters, digits and inner dashes.
func SlugProblem(slug string) string {
	if !slugPattern.MatchString(slug) {
		return fmt.Sprintf("slug must be 1-%d lowercase letters, digits and inner dashes", MaxSlugLength)
	}
	return ""
}

// Slugify lowercases name and turns runs of other characters into "-", at most max characters; "project" when
// nothing is left. With max at most MaxSlugLength the result passes SlugProblem.
func Slugify(name string, max int) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= max {
			break
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > max {
		out = strings.Trim(out[:max], "-")
	}
	if out == "" {
		return "project"
	}
	return out
}

var envVarNamePattern = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// EnvVarNameProblem checks the name of an environment variable (of an organization, a project or a workflow):
// an uppercase letter, then uppercase letters, digits and underscores, at most MaxEnvVarNameLength bytes.
func EnvVarNameProblem(name string) string {
	if !envVarNamePattern.MatchString(name) || len(name) > MaxEnvVarNameLength {
		return fmt.Sprintf("name must match ^[A-Z][A-Z0-9_]*$ (at most %d characters)", MaxEnvVarNameLength)
	}
	return ""
}

var environmentNamePattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

var versionSegment = regexp.MustCompile(`(^|-)v[0-9]+(-|$)`)

// MaxEnvironmentNameLength is the longest environment name.
const MaxEnvironmentNameLength = 32

// EnvironmentNameProblem checks the name of a project environment: lowercase letters and digits in words joined
// by single hyphens, starting with a letter, at most MaxEnvironmentNameLength bytes, and no word "v" followed by
// digits alone (the provider names of an environment end "-<name>" and those of a pinned version "-v<N>", so such a
// word could make two names meet; docs/decisions.md 611).
func EnvironmentNameProblem(name string) string {
	if !environmentNamePattern.MatchString(name) || len(name) > MaxEnvironmentNameLength {
		return fmt.Sprintf("name must match ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ (at most %d characters)", MaxEnvironmentNameLength)
	}
	if versionSegment.MatchString(name) {
		return `name must not hold a word "v" followed by digits (such as "v2"): pinned versions are named so`
	}
	return ""
}

// ValidEmail reports whether email is a plain email address (user@domain, no display name or angle brackets) of
// at most MaxEmailLength bytes: what sign-up, invitations and `edgeflow admin bootstrap` accept.
func ValidEmail(email string) bool {
	a, err := mail.ParseAddress(email)
	return err == nil && a.Address == email && len(email) <= MaxEmailLength
}

// EmailProblem checks a required email address (ValidEmail). The caller trims surrounding space first.
func EmailProblem(email string) string {
	switch {
	case email == "":
		return "email is required"
	case !ValidEmail(email):
		return "email is not a valid address"
	}
	return ""
}

// ParseScopes checks an API key's scope list: values read, write, deploy, no duplicates, read included. It
// returns the scopes, or the problem with the list.
func ParseScopes(in []string) ([]Scope, string) {
	if len(in) == 0 {
		return nil, `scopes are required and must include "read"`
	}
	out := make([]Scope, 0, len(in))
	for _, sc := range in {
		s := Scope(sc)
		switch s {
		case ScopeRead, ScopeWrite, ScopeDeploy:
		default:
			return nil, `scopes must be among "read", "write", "deploy"`
		}
		if slices.Contains(out, s) {
			return nil, "duplicate scope " + sc
		}
		out = append(out, s)
	}
	if !slices.Contains(out, ScopeRead) {
		return nil, `every key needs the "read" scope`
	}
	return out, ""
}
