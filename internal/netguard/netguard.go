// Package netguard keeps requests that edgeflow makes to URLs a user, a tenant or a third party chose from
// reaching this machine or its private network: loopback, link-local (169.254.169.254, the cloud metadata
// service), private, carrier-grade NAT, multicast and reserved addresses, also in every IPv6 form that carries
// an IPv4 address (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4, Teredo) and every IPv6 address
// outside global unicast. The check runs in a net.Dialer Control hook, on the address actually dialed after name
// resolution, so a DNS answer that changes between a check and the connect (DNS rebinding) cannot get past it;
// redirects are dialed, and checked, the same way.
//
// An operator opens hosts with an AllowList (edgeflow serve --allow-hosts, EDGEFLOW_ALLOW_HOSTS): host names,
// IP addresses or CIDR ranges. The local edge applies the same rules to worker code (edge/src/outbound.mjs).
package netguard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

type blocked struct {
	prefix netip.Prefix
	reason string
}

var blocked4 = []blocked{
	{netip.MustParsePrefix("0.0.0.0/8"), "an unspecified (this-network) address"},
	{netip.MustParsePrefix("10.0.0.0/8"), "a private address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT (shared) address"},
	{netip.MustParsePrefix("127.0.0.0/8"), "a loopback address"},
	{netip.MustParsePrefix("169.254.0.0/16"), "a link-local address"},
	{netip.MustParsePrefix("172.16.0.0/12"), "a private address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol assignment address"},
	{netip.MustParsePrefix("192.168.0.0/16"), "a private address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("224.0.0.0/4"), "a multicast address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
}

// blocked6 are checked before the IPv4 address an IPv6 address may carry, notGlobal6 after it (so that
// 64:ff9b:1::a00:1 is named by its private IPv4 address rather than by its prefix).
var blocked6 = []blocked{
	{netip.MustParsePrefix("::/128"), "an unspecified address"},
	{netip.MustParsePrefix("::1/128"), "a loopback address"},
	{netip.MustParsePrefix("fc00::/7"), "a private (unique local) address"},
	{netip.MustParsePrefix("fe80::/10"), "a link-local address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address"},
	{netip.MustParsePrefix("ff00::/8"), "a multicast address"},
}

var notGlobal6 = []blocked{
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local-use IPv4/IPv6 translation address"},
	{netip.MustParsePrefix("100::/64"), "a discard-only address"},
	{netip.MustParsePrefix("2001:2::/48"), "a benchmarking address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("3fff::/20"), "a documentation address"},
}

// embedded are the IPv6 forms that carry IPv4 addresses: the byte offsets of each, and whether it is stored
// inverted (Teredo's client address). An address of these forms is refused when any IPv4 address it carries is.
var embedded = []struct {
	prefix netip.Prefix
	at     []int
	invert []bool
}{
	{netip.MustParsePrefix("::ffff:0:0/96"), []int{12}, []bool{false}},      // IPv4-mapped
	{netip.MustParsePrefix("::ffff:0:0:0/96"), []int{12}, []bool{false}},    // IPv4-translated (SIIT)
	{netip.MustParsePrefix("::/96"), []int{12}, []bool{false}},              // IPv4-compatible (deprecated)
	{netip.MustParsePrefix("64:ff9b::/96"), []int{12}, []bool{false}},       // NAT64, well-known prefix
	{netip.MustParsePrefix("64:ff9b:1::/48"), []int{12}, []bool{false}},     // NAT64, local-use prefix as a /96
	{netip.MustParsePrefix("2002::/16"), []int{2}, []bool{false}},           // 6to4
	{netip.MustParsePrefix("2001::/32"), []int{4, 12}, []bool{false, true}}, // Teredo: server, client
}

var (
	// globalUnicast is the only IPv6 range IANA allocates for global unicast; an address outside it that is
	// neither IPv4-mapped nor NAT64 is reachable on no public network.
	globalUnicast = netip.MustParsePrefix("2000::/3")
	v4Mapped      = netip.MustParsePrefix("::ffff:0:0/96")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
)

// Classify says why ip is not reachable by default ("a loopback address", ...), or answers "" for a public
// address. Every IPv6 spelling of an IPv4 address is judged by that IPv4 address (mapped, translated,
// compatible, NAT64, 6to4, Teredo); an IPv6 address outside global unicast (2000::/3) that is not an
// IPv4-mapped or NAT64 address of a public IPv4 address is reserved.
func Classify(ip netip.Addr) string {
	ip = ip.WithZone("")
	if ip.Is4() {
		for _, b := range blocked4 {
			if b.prefix.Contains(ip) {
				return b.reason
			}
		}
		return ""
	}
	for _, b := range blocked6 {
		if b.prefix.Contains(ip) {
			return b.reason
		}
	}
	raw := ip.As16()
	for _, e := range embedded {
		if !e.prefix.Contains(ip) {
			continue
		}
		for i, at := range e.at {
			v4 := [4]byte(raw[at : at+4])
			if e.invert[i] {
				for j := range v4 {
					v4[j] ^= 0xff
				}
			}
			if r := Classify(netip.AddrFrom4(v4)); r != "" {
				return r + " (embedded in an IPv6 address)"
			}
		}
	}
	for _, b := range notGlobal6 {
		if b.prefix.Contains(ip) {
			return b.reason
		}
	}
	if !globalUnicast.Contains(ip) && !v4Mapped.Contains(ip) && !nat64.Contains(ip) {
		return "a reserved address"
	}
	return ""
}

// AllowList is the set of hosts an operator opened although they are private or loopback. The zero value and
// nil allow nothing.
type AllowList struct {
	names    map[string]bool
	prefixes []netip.Prefix
	entries  []string
}

// ParseAllowList reads a list of host names, IP addresses and CIDR ranges separated by commas or white space.
// A malformed entry is an error that names it.
func ParseAllowList(s string) (*AllowList, error) {
	a := &AllowList{names: map[string]bool{}}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		e := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(f, "["), "]"))
		switch {
		case strings.Contains(e, "/"):
			p, err := netip.ParsePrefix(e)
			if err != nil {
				return nil, fmt.Errorf("allow list: %q is not a CIDR range", f)
			}
			a.prefixes = append(a.prefixes, p.Masked())
		default:
			if ip, err := netip.ParseAddr(e); err == nil {
				a.prefixes = append(a.prefixes, netip.PrefixFrom(ip.WithZone(""), ip.BitLen()))
			} else if validName(e) {
				a.names[strings.TrimSuffix(e, ".")] = true
			} else {
				return nil, fmt.Errorf("allow list: %q is not a host name, IP address or CIDR range", f)
			}
		}
		a.entries = append(a.entries, e)
	}
	return a, nil
}

func validName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_') {
			return false
		}
	}
	return !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "-")
}

// String is the list in the form ParseAllowList reads, comma separated (what the local edge is given).
func (a *AllowList) String() string {
	if a == nil {
		return ""
	}
	return strings.Join(a.entries, ",")
}

// AllowsName reports whether host (a name, not an address) is on the list.
func (a *AllowList) AllowsName(host string) bool {
	return a != nil && a.names[strings.TrimSuffix(strings.ToLower(host), ".")]
}

// AllowsAddr reports whether ip lies in an allowed address or range; an IPv4 rule also covers the
// IPv4-mapped form of its addresses.
func (a *AllowList) AllowsAddr(ip netip.Addr) bool {
	if a == nil {
		return false
	}
	ip = ip.WithZone("")
	for _, p := range a.prefixes {
		if p.Contains(ip) || (ip.Is4In6() && p.Contains(ip.Unmap())) {
			return true
		}
	}
	return false
}

// RefusedError is the error of a connection the guard refused.
type RefusedError struct {
	Host   string // the host name asked for, when there was one
	Addr   netip.Addr
	Reason string
}

func (e *RefusedError) Error() string {
	via := e.Addr.String() + " is "
	if e.Host != "" && e.Host != e.Addr.String() {
		via = e.Host + " resolves to " + e.Addr.String() + ", "
	}
	return "edgeflow refused to connect: " + via + e.Reason +
		"; requests to user-chosen URLs may not reach loopback, link-local or private addresses unless the operator allows the host (edgeflow serve --allow-hosts)"
}

// Guard checks the addresses edgeflow dials for user-chosen URLs. A nil *Guard or one with a nil Allow list
// refuses every non-public address.
type Guard struct {
	Allow *AllowList
}

// New returns a Guard with the given allow list (nil allows nothing).
func New(allow *AllowList) *Guard { return &Guard{Allow: allow} }

func (g *Guard) allow() *AllowList {
	if g == nil {
		return nil
	}
	return g.Allow
}

// Check answers a *RefusedError when ip may not be reached for host.
func (g *Guard) Check(host string, ip netip.Addr) error {
	if g.allow().AllowsName(host) {
		return nil
	}
	if r := Classify(ip); r != "" && !g.allow().AllowsAddr(ip) {
		return &RefusedError{Host: host, Addr: ip.WithZone(""), Reason: r}
	}
	return nil
}

// DialContext dials like a net.Dialer with timeout, refusing (with a *RefusedError) any address the guard
// does not allow. Every address tried is checked as it is dialed.
func (g *Guard) DialContext(timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		var refused atomic.Pointer[RefusedError] // the dialer may try several addresses at once
		d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second,
			Control: func(_, address string, _ syscall.RawConn) error {
				ap, err := netip.ParseAddrPort(address)
				if err != nil {
					return fmt.Errorf("netguard: cannot read the dialed address %q", address)
				}
				if err := g.Check(host, ap.Addr()); err != nil {
					refused.Store(err.(*RefusedError))
					return err
				}
				return nil
			}}
		conn, err := d.DialContext(ctx, network, addr)
		if r := refused.Load(); err != nil && r != nil {
			return nil, r
		}
		return conn, err
	}
}

// Client is an HTTP client whose connections go through the guard. It uses no proxy from the environment (a
// proxy would make the connection, and the check, to itself), and it refuses redirects to other schemes than
// http and https.
func (g *Guard) Client(timeout time.Duration) *http.Client {
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           g.DialContext(10 * time.Second),
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{Timeout: timeout, Transport: tr}
}
