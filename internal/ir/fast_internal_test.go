package ir

import "testing"

// TestFastMatchersAgreeWithPatterns checks the hand-written matchers of the
// hot path against the regular expressions they replace.
func TestFastMatchersAgreeWithPatterns(t *testing.T) {
	t.Parallel()
	inputs := []string{"", "a", "-a", "_a", "a-b_c9", "A", "a b", "é", "1.0.0", "01.0.0", "1.0", "1.0.0.0", "1.2.3-beta.1",
		"1.2.3+build", "10.20.30", "1.0.0-", "v1.0.0", "0.0.0", "API_KEY", "api_key", "A1", "_A", "1A",
		"x0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"}
	for _, s := range inputs {
		if got, want := validNodeID(s), nodeIDPattern.MatchString(s); got != want {
			t.Errorf("validNodeID(%q) = %v, pattern says %v", s, got, want)
		}
		if got, want := validSemver(s), semverPattern.MatchString(s); got != want {
			t.Errorf("validSemver(%q) = %v, pattern says %v", s, got, want)
		}
		if got, want := validEnvName(s), envNamePattern.MatchString(s); got != want {
			t.Errorf("validEnvName(%q) = %v, pattern says %v", s, got, want)
		}
	}
}

func FuzzFastMatchers(f *testing.F) {
	f.Add("1.0.0")
	f.Add("a-b")
	f.Fuzz(func(t *testing.T, s string) {
		if validNodeID(s) != nodeIDPattern.MatchString(s) || validSemver(s) != semverPattern.MatchString(s) || validEnvName(s) != envNamePattern.MatchString(s) {
			t.Fatalf("matchers disagree on %q", s)
		}
	})
}
