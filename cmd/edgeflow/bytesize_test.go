package main

import "testing"

func TestParseByteSize(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]int64{"2GiB": 2 << 30, "500MB": 500e6, "1048576": 1 << 20, " 1.5 kib ": 1536, "unlimited": -1, "7b": 7} {
		if got, err := parseByteSize(text); err != nil || got != want {
			t.Errorf("parseByteSize(%q) = %d, %v, want %d", text, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1GiB", "2 GB of disk", "GiB", "1e3", "0.1"} {
		if got, err := parseByteSize(bad); err == nil {
			t.Errorf("parseByteSize(%q) = %d, want an error", bad, got)
		}
	}
}
