package netguard_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ip     string
		reason string // "" for public
	}{
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::127.0.0.1", "loopback"},
		{"64:ff9b::10.0.0.1", "private"},
		{"64:ff9b:1::a00:1", "private"},
		{"2002:7f00:1::", "loopback"},
		{"169.254.169.254", "link-local"},
		{"fe80::1", "link-local"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fd12::1", "private"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"198.18.0.1", "benchmarking"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"240.0.0.1", "reserved"},
		{"255.255.255.255", "reserved"},
		{"8.8.8.8", ""},
		{"172.15.255.255", ""},
		{"172.32.0.0", ""},
		{"2606:4700::1111", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::8.8.8.8", ""},
	}
	for _, c := range cases {
		got := netguard.Classify(netip.MustParseAddr(c.ip))
		if c.reason == "" && got != "" || c.reason != "" && !strings.Contains(got, c.reason) {
			t.Errorf("Classify(%s) = %q, want %q", c.ip, got, c.reason)
		}
	}
}

func TestParseAllowList(t *testing.T) {
	t.Parallel()
	a, err := netguard.ParseAllowList("127.0.0.42, registry.internal  10.0.0.0/8,[fd00::1]")
	if err != nil {
		t.Fatal(err)
	}
	for ip, want := range map[string]bool{"127.0.0.42": true, "::ffff:127.0.0.42": true, "127.0.0.1": false, "10.9.9.9": true, "fd00::1": true, "fd00::2": false} {
		if got := a.AllowsAddr(netip.MustParseAddr(ip)); got != want {
			t.Errorf("AllowsAddr(%s) = %v, want %v", ip, got, want)
		}
	}
	if !a.AllowsName("Registry.Internal.") || a.AllowsName("internal") {
		t.Error("AllowsName matches host names exactly, case-insensitively")
	}
	if got := a.String(); got != "127.0.0.42,registry.internal,10.0.0.0/8,fd00::1" {
		t.Errorf("String() = %q", got)
	}
	for _, bad := range []string{"10.0.0.0/33", "http://x", "a b/c", "-x"} {
		if _, err := netguard.ParseAllowList(bad); err == nil {
			t.Errorf("ParseAllowList(%q) accepted it", bad)
		}
	}
}

// listenOn starts a test server on a given loopback address, counting the requests it gets.
func listenOn(t *testing.T, addr string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", addr+":0")
	if err != nil {
		testenv.Missing(t, "cannot listen on %s: %v", addr, err)
	}
	var hits atomic.Int64
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "inside")
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestAttackGuardedClient: a URL a user chose that names this machine, in any spelling, is refused before any
// byte reaches the server; a redirect from an allowed host to loopback too.
func TestAttackGuardedClient(t *testing.T) {
	t.Parallel()
	inside, hits := listenOn(t, "127.0.0.1")
	_, port, _ := net.SplitHostPort(inside.Listener.Addr().String())
	allow, err := netguard.ParseAllowList("127.0.0.42")
	if err != nil {
		t.Fatal(err)
	}
	client := netguard.New(allow).Client(5 * time.Second)
	for _, host := range []string{"127.0.0.1", "127.1", "0x7f000001", "2130706433", "[::ffff:127.0.0.1]", "localhost", "[::1]", "0.0.0.0"} {
		res, err := client.Get("http://" + host + ":" + port + "/")
		if err == nil {
			res.Body.Close()
			t.Errorf("%s: got status %d, want a refusal", host, res.StatusCode)
			continue
		}
		var refused *netguard.RefusedError
		if !errors.As(err, &refused) && !strings.Contains(err.Error(), "no such host") {
			t.Errorf("%s: error %v is neither a refusal nor a failed lookup", host, err)
		}
		if refused != nil && !strings.Contains(err.Error(), refused.Addr.String()) {
			t.Errorf("%s: error %q does not name the address", host, err)
		}
	}
	// an allowed host that redirects to loopback
	ln, err := net.Listen("tcp", "127.0.0.42:0")
	if err != nil {
		testenv.Missing(t, "cannot listen on 127.0.0.42: %v", err)
	}
	redirector := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.RedirectHandler(inside.URL+"/", http.StatusFound)}}
	redirector.Start()
	defer redirector.Close()
	res, err := client.Get(redirector.URL)
	var refused *netguard.RefusedError
	if err == nil {
		res.Body.Close()
		t.Errorf("redirect to loopback: got status %d, want a refusal", res.StatusCode)
	} else if !errors.As(err, &refused) {
		t.Errorf("redirect to loopback: %v, want a refusal", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback server got %d requests", n)
	}
}

// TestLegitGuardedClient: a host on the allow list is reachable, also by a name on the list.
func TestLegitGuardedClient(t *testing.T) {
	t.Parallel()
	srv, hits := listenOn(t, "127.0.0.42")
	allow, err := netguard.ParseAllowList("127.0.0.42")
	if err != nil {
		t.Fatal(err)
	}
	res, err := netguard.New(allow).Client(5 * time.Second).Get(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(body) != "inside" || hits.Load() != 1 {
		t.Errorf("got %q after %d requests", body, hits.Load())
	}
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	byName, _ := netguard.ParseAllowList("localhost")
	// localhost resolves to 127.0.0.1 (and maybe ::1); the server is on 127.0.0.42, so the connection is refused
	// by the kernel, not by the guard.
	_, err = netguard.New(byName).Client(5 * time.Second).Get("http://localhost:" + port + "/")
	var refused *netguard.RefusedError
	if errors.As(err, &refused) {
		t.Errorf("a host name on the allow list was refused by the guard: %v", err)
	}
}
