package netguard_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestClassify reads the table of addresses both outbound checks share (testdata/addresses.json; the edge's
// test reads it too): every spelling of a refused address is refused for its reason, public addresses pass.
func TestClassify(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/addresses.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Refused map[string]string
		Public  []string
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Refused) == 0 || len(table.Public) == 0 {
		t.Fatal("the table is empty")
	}
	for ip, reason := range table.Refused {
		if got := netguard.Classify(netip.MustParseAddr(ip)); !strings.Contains(got, reason) {
			t.Errorf("Classify(%s) = %q, want %q", ip, got, reason)
		}
	}
	for _, ip := range table.Public {
		if got := netguard.Classify(netip.MustParseAddr(ip)); got != "" {
			t.Errorf("Classify(%s) = %q, want public", ip, got)
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
	for _, host := range []string{"127.0.0.1", "127.1", "0x7f000001", "2130706433", "[::ffff:127.0.0.1]", "[::ffff:0:7f00:1]", "[::ffff:0:127.0.0.1]", "[::127.0.0.1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[2001:0:7f00:1::]", "localhost", "[::1]", "0.0.0.0"} {
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
