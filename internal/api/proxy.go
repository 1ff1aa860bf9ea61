package api

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies reads a comma-separated list of CIDR prefixes or
// single addresses (the --trusted-proxies option).
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for item := range strings.SplitSeq(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if strings.Contains(item, "/") {
			p, err := netip.ParsePrefix(item)
			if err != nil {
				return nil, fmt.Errorf("trusted proxies: %q is not a CIDR prefix (like 10.0.0.0/8 or fd00::/8)", item)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("trusted proxies: %q is neither an IP address nor a CIDR prefix", item)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// peerAddr is the address of the connection's other end.
func peerAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// trusted reports whether addr lies in one of the trusted proxy prefixes.
func (s *Server) trusted(addr string) bool {
	if len(s.TrustedProxies) == 0 {
		return false
	}
	a, err := netip.ParseAddr(strings.TrimSpace(addr))
	if err != nil {
		return false
	}
	a = a.Unmap().WithZone("")
	for _, p := range s.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientIP is the address of the client that made the request: the peer
// address, unless the peer is a trusted proxy (--trusted-proxies); then the
// X-Forwarded-For chain is read from its end, and the first address that is
// not itself a trusted proxy is the client's (decision 190). A request that
// reaches the server directly cannot choose its address by sending the
// header.
func (s *Server) clientIP(r *http.Request) string {
	peer := peerAddr(r)
	if !s.trusted(peer) {
		return peer
	}
	hops := forwardedFor(r)
	for i := len(hops) - 1; i >= 0; i-- {
		if !s.trusted(hops[i]) {
			return hops[i]
		}
	}
	if len(hops) > 0 {
		return hops[0]
	}
	return peer
}

// forwardedFor returns the addresses of every X-Forwarded-For header, in
// order; an entry that is not an IP address ends the chain there (nothing
// before it can be believed).
func forwardedFor(r *http.Request) []string {
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		for part := range strings.SplitSeq(h, ",") {
			part = strings.TrimSpace(part)
			if a, err := netip.ParseAddr(part); err == nil {
				hops = append(hops, a.Unmap().WithZone("").String())
			} else {
				hops = hops[:0]
			}
		}
	}
	return hops
}

// isHTTPS reports whether the client reached edgeflow over TLS: the
// connection itself, or a trusted proxy saying so in X-Forwarded-Proto
// (its last value, the one the nearest proxy set).
func (s *Server) isHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if !s.trusted(peerAddr(r)) {
		return false
	}
	vals := r.Header.Values("X-Forwarded-Proto")
	if len(vals) == 0 {
		return false
	}
	last := vals[len(vals)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(last), "https")
}

// secureCookie reports whether the session cookie of r's answer is Secure:
// always with --secure-cookies, otherwise when the client uses HTTPS.
func (s *Server) secureCookie(r *http.Request) bool {
	return s.SecureCookies || s.isHTTPS(r)
}
