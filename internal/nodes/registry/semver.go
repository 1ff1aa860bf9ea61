package registry

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/mod/semver"
)

// Registry versions are semantic versions (semver.org 2.0.0) in their full
// form, MAJOR.MINOR.PATCH with an optional pre-release such as "-beta.1", and
// without build metadata, so that no two distinct version strings compare
// equal. Parsing and precedence are golang.org/x/mod/semver's, which expects
// a leading "v": the functions here add it.

// maxVersionNumber is the largest number a version part may hold: npm's
// (JavaScript's Number.MAX_SAFE_INTEGER), so that every registry version is
// one npm can read too.
const maxVersionNumber = 1<<53 - 1

// Version is a parsed registry version.
type Version struct{ v string } // "v" + the version text

// ParseVersion parses s as a registry version. It rejects a leading "v",
// build metadata ("+..."), shorthand forms ("1.2"), leading zeros in numeric
// parts, empty identifiers and numbers above 2^53-1, with an error naming the
// problem.
func ParseVersion(s string) (Version, error) {
	switch {
	case s == "":
		return Version{}, fmt.Errorf("version is empty")
	case len(s) > 64:
		return Version{}, fmt.Errorf("version %q is longer than 64 characters", s[:64]+"…")
	case strings.Contains(s, "+"):
		return Version{}, fmt.Errorf("version %q has build metadata; registry versions are MAJOR.MINOR.PATCH with an optional -pre-release", s)
	}
	v := "v" + s
	if !semver.IsValid(v) || semver.Canonical(v) != v {
		return Version{}, fmt.Errorf("version %q is not MAJOR.MINOR.PATCH with an optional -pre-release of dot-separated letters, digits and '-' (no leading zeros)", s)
	}
	if err := checkNumbers(s); err != nil {
		return Version{}, err
	}
	return Version{v}, nil
}

// checkNumbers checks MAJOR, MINOR and PATCH of s with versionNumber.
func checkNumbers(s string) error {
	core, _, _ := strings.Cut(s, "-")
	for _, p := range strings.Split(core, ".") {
		if err := versionNumber(p); err != nil {
			return fmt.Errorf("version %q: %v", s, err)
		}
	}
	return nil
}

// versionNumber checks one numeric part of a version: digits, no leading
// zero, at most maxVersionNumber.
func versionNumber(p string) error {
	n, err := strconv.ParseUint(p, 10, 64)
	switch {
	case p == "" || strings.TrimLeft(p, "0123456789") != "":
		return fmt.Errorf("%q is not a number", p)
	case len(p) > 1 && p[0] == '0':
		return fmt.Errorf("%q has a leading zero", p)
	case err != nil || n > maxVersionNumber:
		return fmt.Errorf("%s is larger than %d", p, uint64(maxVersionNumber))
	}
	return nil
}

// String returns the text of the version.
func (v Version) String() string { return strings.TrimPrefix(v.v, "v") }

// IsPrerelease reports whether the version has a pre-release part.
func (v Version) IsPrerelease() bool { return semver.Prerelease(v.v) != "" }

// Compare orders versions by semver precedence: -1 when v < w, 0 when equal,
// +1 when v > w.
func (v Version) Compare(w Version) int { return semver.Compare(v.v, w.v) }

// CompareVersions compares two version strings by semver precedence. A
// string that does not parse sorts before every valid version, and two
// invalid strings compare as strings, so the order is total.
func CompareVersions(a, b string) int {
	va, ea := ParseVersion(a)
	vb, eb := ParseVersion(b)
	switch {
	case ea != nil && eb != nil:
		return strings.Compare(a, b)
	case ea != nil:
		return -1
	case eb != nil:
		return 1
	}
	return va.Compare(vb)
}

// Latest returns the version a node installs by default: the highest
// release, or the highest pre-release when the node has no release. It
// returns "" when versions holds no valid version.
func Latest(versions []string) string {
	var best, bestPre Version
	for _, s := range versions {
		v, err := ParseVersion(s)
		if err != nil {
			continue
		}
		if v.IsPrerelease() {
			if bestPre.v == "" || v.Compare(bestPre) > 0 {
				bestPre = v
			}
		} else if best.v == "" || v.Compare(best) > 0 {
			best = v
		}
	}
	if best.v != "" {
		return best.String()
	}
	if bestPre.v != "" {
		return bestPre.String()
	}
	return ""
}
