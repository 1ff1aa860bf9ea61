package registry_test

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

func TestParseVersion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    string
		wantErr bool
	}{
		{in: "1.0.0", want: "1.0.0"},
		{in: "10.20.30", want: "10.20.30"},
		{in: "1.0.0-alpha.1", want: "1.0.0-alpha.1"},
		{in: "1.0.0-x-y.0", want: "1.0.0-x-y.0"},
		{in: "", wantErr: true},
		{in: "v1.0.0", wantErr: true},
		{in: "1.0", wantErr: true},
		{in: "1.0.0.0", wantErr: true},
		{in: "01.0.0", wantErr: true},
		{in: "1.0.0-", wantErr: true},
		{in: "1.0.0-a..b", wantErr: true},
		{in: "1.0.0-01", wantErr: true},
		{in: "1.0.0+build", wantErr: true},
		{in: "1.0.0-a_b", wantErr: true},
		{in: "1.x.0", wantErr: true},
		{in: "99999999999999999999.0.0", wantErr: true},
		{in: "9007199254740991.0.0", want: "9007199254740991.0.0"},
		{in: "9007199254740992.0.0", wantErr: true},
	}
	for _, tt := range tests {
		v, err := registry.ParseVersion(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseVersion(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && v.String() != tt.want {
			t.Errorf("ParseVersion(%q) = %s, want %s", tt.in, v, tt.want)
		}
	}
}

func TestCompareVersionsOrdersBySemver(t *testing.T) {
	t.Parallel()
	// The semver.org precedence example, plus numeric ordering that a
	// string sort gets wrong.
	want := []string{
		"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
		"1.0.0-rc.1", "1.0.0", "1.2.0", "1.10.0", "2.0.0", "10.0.0",
	}
	got := []string{"10.0.0", "1.0.0-beta.11", "1.10.0", "1.0.0", "1.0.0-alpha.beta", "2.0.0", "1.0.0-rc.1",
		"1.0.0-alpha", "1.2.0", "1.0.0-beta.2", "1.0.0-alpha.1", "1.0.0-beta"}
	sort.Slice(got, func(i, j int) bool { return registry.CompareVersions(got[i], got[j]) < 0 })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestLatest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		versions []string
		want     string
	}{
		{"numeric, not lexicographic", []string{"1.9.0", "1.10.0", "1.2.0"}, "1.10.0"},
		{"a release beats a newer pre-release", []string{"1.0.0", "2.0.0-beta.1"}, "1.0.0"},
		{"only pre-releases", []string{"2.0.0-alpha", "2.0.0-beta"}, "2.0.0-beta"},
		{"invalid strings ignored", []string{"x", "0.1.0"}, "0.1.0"},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		if got := registry.Latest(tt.versions); got != tt.want {
			t.Errorf("%s: Latest(%v) = %q, want %q", tt.name, tt.versions, got, tt.want)
		}
	}
}
