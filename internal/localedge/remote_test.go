package localedge

import (
	"strings"
	"testing"
)

// TestParseBaseURL: an edge's base URL is scheme, host and port; anything
// after the port but "/" is refused, naming what is wrong.
func TestParseBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8787":        "http://127.0.0.1:8787",
		"http://127.0.0.1:8787/":       "http://127.0.0.1:8787",
		"https://edge.internal:8443":   "https://edge.internal:8443",
		"http://[::1]:8787":            "http://[::1]:8787",
		"http://edge.example.internal": "http://edge.example.internal",
	} {
		got, err := ParseBaseURL(in)
		if err != nil || got != want {
			t.Errorf("ParseBaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"":                                  "http://",
		"127.0.0.1:8787":                    "http://",
		"ftp://127.0.0.1:8787":              "http://",
		"http://":                           "no host",
		"http://:8787":                      "no host",
		"http://u:p@127.0.0.1:8787":         "user or password",
		"http://127.0.0.1:8787/client/v4":   "without a path",
		"http://127.0.0.1:8787/?x=1":        "without a path",
		"http://127.0.0.1:8787/#frag":       "without a path",
		"http://127.0.0.1:8787/workers/abc": "without a path",
	} {
		if got, err := ParseBaseURL(in); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseBaseURL(%q) = %q, %v; want an error saying %q", in, got, err, why)
		}
	}
	if _, err := NewRemote("http://127.0.0.1:8787", " \n"); err == nil {
		t.Error("NewRemote accepted an empty token")
	}
	r, err := NewRemote("http://127.0.0.1:8787/", "tok\n")
	if err != nil {
		t.Fatal(err)
	}
	if r.APIBaseURL() != "http://127.0.0.1:8787/client/v4" || r.WorkersBaseURL() != "http://127.0.0.1:8787/workers" || r.Token() != "tok" {
		t.Errorf("remote URLs %q %q, token %q", r.APIBaseURL(), r.WorkersBaseURL(), r.Token())
	}
}
