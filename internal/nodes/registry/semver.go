package registry

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a parsed semantic version (semver.org 2.0.0) without build
// metadata: MAJOR.MINOR.PATCH with an optional pre-release such as "-beta.1".
// Registry versions never carry build metadata, so that no two distinct
// version strings compare equal.
type Version struct {
	Major, Minor, Patch uint64
	// Pre holds the dot-separated pre-release identifiers, empty for a release.
	Pre []string
}

// ParseVersion parses s as a semantic version. It rejects a leading "v",
// build metadata ("+..."), leading zeros in numeric parts and empty
// identifiers, with an error naming the problem.
func ParseVersion(s string) (Version, error) {
	var v Version
	if s == "" {
		return v, fmt.Errorf("version is empty")
	}
	if len(s) > 64 {
		return v, fmt.Errorf("version %q is longer than 64 characters", s[:64]+"…")
	}
	if strings.Contains(s, "+") {
		return v, fmt.Errorf("version %q has build metadata; registry versions are MAJOR.MINOR.PATCH with an optional -pre-release", s)
	}
	core, pre, hasPre := strings.Cut(s, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return v, fmt.Errorf("version %q is not MAJOR.MINOR.PATCH", s)
	}
	nums := make([]uint64, 3)
	for i, p := range parts {
		n, err := parseNumeric(p)
		if err != nil {
			return v, fmt.Errorf("version %q: %v", s, err)
		}
		nums[i] = n
	}
	v.Major, v.Minor, v.Patch = nums[0], nums[1], nums[2]
	if hasPre {
		ids, err := preRelease(s, pre)
		if err != nil {
			return Version{}, err
		}
		v.Pre = ids
	}
	return v, nil
}

// preRelease splits and checks the pre-release part pre of the version s:
// dot-separated identifiers of letters, digits and '-', numeric ones
// without leading zeros.
func preRelease(s, pre string) ([]string, error) {
	ids := strings.Split(pre, ".")
	for _, id := range ids {
		if id == "" {
			return nil, fmt.Errorf("version %q has an empty pre-release identifier", s)
		}
		if !identifierChars(id) {
			return nil, fmt.Errorf("version %q: pre-release identifier %q may hold only letters, digits and '-'", s, id)
		}
		if isDigits(id) && len(id) > 1 && id[0] == '0' {
			return nil, fmt.Errorf("version %q: numeric pre-release identifier %q has a leading zero", s, id)
		}
	}
	return ids, nil
}

func identifierChars(id string) bool {
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	return true
}

func parseNumeric(p string) (uint64, error) {
	if p == "" || !isDigits(p) {
		return 0, fmt.Errorf("%q is not a number", p)
	}
	if len(p) > 1 && p[0] == '0' {
		return 0, fmt.Errorf("%q has a leading zero", p)
	}
	n, err := strconv.ParseUint(p, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is too large", p)
	}
	return n, nil
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// String returns the canonical text of the version.
func (v Version) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	if len(v.Pre) > 0 {
		s += "-" + strings.Join(v.Pre, ".")
	}
	return s
}

// IsPrerelease reports whether the version has a pre-release part.
func (v Version) IsPrerelease() bool { return len(v.Pre) > 0 }

// Compare orders versions by semver precedence: it returns -1 when v < w,
// 0 when equal and +1 when v > w. A pre-release sorts before its release;
// numeric identifiers compare numerically and sort before alphanumeric ones.
func (v Version) Compare(w Version) int {
	for _, d := range [][2]uint64{{v.Major, w.Major}, {v.Minor, w.Minor}, {v.Patch, w.Patch}} {
		if d[0] != d[1] {
			if d[0] < d[1] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(v.Pre) == 0 && len(w.Pre) == 0:
		return 0
	case len(v.Pre) == 0:
		return 1
	case len(w.Pre) == 0:
		return -1
	}
	for i := 0; i < len(v.Pre) && i < len(w.Pre); i++ {
		if c := comparePre(v.Pre[i], w.Pre[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(v.Pre) < len(w.Pre):
		return -1
	case len(v.Pre) > len(w.Pre):
		return 1
	}
	return 0
}

func comparePre(a, b string) int {
	an, bn := isDigits(a), isDigits(b)
	switch {
	case an && bn:
		if len(a) != len(b) {
			if len(a) < len(b) {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	case an:
		return -1
	case bn:
		return 1
	}
	return strings.Compare(a, b)
}

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
	best, bestPre := "", ""
	for _, s := range versions {
		v, err := ParseVersion(s)
		if err != nil {
			continue
		}
		if v.IsPrerelease() {
			if bestPre == "" || CompareVersions(s, bestPre) > 0 {
				bestPre = s
			}
			continue
		}
		if best == "" || CompareVersions(s, best) > 0 {
			best = s
		}
	}
	if best != "" {
		return best
	}
	return bestPre
}
