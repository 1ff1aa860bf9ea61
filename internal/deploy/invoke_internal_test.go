package deploy

import (
	"strings"
	"testing"
)

// TestInvokeURL: a checked path always ends up below the deployment's URL,
// on its scheme and host, whether the URL is a host of its own
// (workers.dev) or a path of the local edge's gateway.
func TestInvokeURL(t *testing.T) {
	for _, base := range []string{"https://ef-fn-1.shop.workers.dev", "http://127.0.0.1:8787/workers/acc-1/ef-fn-1/"} {
		root := strings.TrimSuffix(base, "/")
		for p, want := range map[string]string{
			"/":                  root + "/",
			"/orders/A-1?dry=1":  root + "/orders/A-1?dry=1",
			"/a?next=//evil.com": root + "/a?next=//evil.com",
			"/@evil.example":     root + "/@evil.example",
			"/a%20b":             root + "/a%20b",
		} {
			if err := CheckInvokePath(p); err != nil {
				t.Fatalf("CheckInvokePath(%q) = %v", p, err)
			}
			got, err := invokeURL(base, p)
			if err != nil || got != want {
				t.Fatalf("invokeURL(%q, %q) = %q, %v; want %q", base, p, got, err, want)
			}
		}
	}
	for _, p := range []string{"", "x", "//evil.example", "/../ef-other", "/a/..", "/./a", "/%2e%2E/x", "/a%2fb",
		"/a%5Cb", `/a\b`, "/a#b", "/a b", "/a\nb", "/a\x7fb", "/a//b", "/%00", "/\xff"} {
		if err := CheckInvokePath(p); err == nil {
			t.Errorf("CheckInvokePath(%q) accepted", p)
		}
	}
	if _, err := invokeURL("ftp://host/x", "/"); err == nil {
		t.Error("a deployment URL that is not http(s) was used")
	}
}

// TestInvokeHeaders: ordinary headers pass; forbidden ones are named.
func TestInvokeHeaders(t *testing.T) {
	if err := checkInvokeHeaders(map[string]string{"X-Trace": "t-1", "Accept": "application/json", "Content-Type": "text/plain"}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"HOST", "Authorization", "cookie", "X-Edgeflow-Signature", "Cf-Ray", "Sec-Fetch-Site",
		"X-Forwarded-Host", "Proxy-Connection", "Transfer-Encoding", "Bad:Name", "É"} {
		if err := checkInvokeHeaders(map[string]string{n: "v"}); err == nil {
			t.Errorf("header %q accepted", n)
		}
	}
}
