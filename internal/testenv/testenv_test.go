package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

func TestStrict(t *testing.T) {
	for _, c := range []struct {
		ci, strict string
		want       bool
	}{{"", "", false}, {"0", "", false}, {"false", "", false}, {"1", "", true}, {"true", "", true}, {"", "1", true}} {
		t.Setenv("CI", c.ci)
		t.Setenv("EDGEFLOW_TEST_STRICT", c.strict)
		if got := Strict(); got != c.want {
			t.Errorf("CI=%q EDGEFLOW_TEST_STRICT=%q: Strict() = %v", c.ci, c.strict, got)
		}
	}
}

// The benchmark IRs are in the repository, where BenchIRDir finds them.
func TestBenchIRsInRepository(t *testing.T) {
	t.Setenv("EDGEFLOW_BENCH_IR", "")
	for _, n := range []string{"linear-10", "linear-100", "linear-1000", "linear-5000", "mixed-10", "mixed-100", "mixed-1000", "mixed-5000"} {
		if _, err := os.Stat(filepath.Join(BenchIRDir(), n+".json")); err != nil {
			t.Error(err)
		}
	}
	if len(BenchIR(t, "mixed-10")) == 0 {
		t.Error("mixed-10 is empty")
	}
}
