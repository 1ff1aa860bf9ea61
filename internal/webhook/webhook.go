// Package webhook sends a project's events to its webhook endpoints as the
// Standard Webhooks specification describes: the secret (whsec_ and the
// base64 of 24 random bytes), the signature of "id.timestamp.body", the
// retry schedule, the URL policy (no loopback, link-local or private hosts
// unless the operator allows them), and the Dispatcher that delivers the
// stored queue in the background (docs/runs.md, "Webhooks").
package webhook

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/netguard"
)

// SecretPrefix starts every signing secret.
const SecretPrefix = "whsec_"

// NewSecret returns a new signing secret: whsec_ and the standard base64 of
// 24 random bytes.
func NewSecret() string {
	var b [24]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return SecretPrefix + base64.StdEncoding.EncodeToString(b[:])
}

// ErrSecret is the error of a secret that is not whsec_ and base64.
var ErrSecret = errors.New("webhook: the secret is not whsec_ followed by base64")

// Sign returns the webhook-signature header value of a message: "v1," and
// the base64 of the HMAC-SHA256, keyed with the secret's decoded base64
// part, of "msgID.timestamp.body".
func Sign(secret, msgID string, timestamp time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || !strings.HasPrefix(secret, SecretPrefix) {
		return "", ErrSecret
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(timestamp.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// retryDelays are the waits after the first failed attempts; after them an
// attempt is made every retryEvery until retryWindow has passed since the
// first attempt.
var retryDelays = []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute,
	30 * time.Minute, time.Hour}

const (
	retryEvery  = 2 * time.Hour
	retryWindow = 24 * time.Hour
)

// NextAttempt returns when the attempt after failed attempt number n (1 for
// the first) is due, the attempt n having been due at last and the first at
// first; ok is false when no attempt is left (the next would fall after
// first + 24 h).
func NextAttempt(first, last time.Time, n int) (next time.Time, ok bool) {
	delay := retryEvery
	if n >= 1 && n <= len(retryDelays) {
		delay = retryDelays[n-1]
	}
	next = last.Add(delay)
	if next.After(first.Add(retryWindow)) {
		return time.Time{}, false
	}
	return next, true
}

// CheckURL checks a webhook URL as given by a user: absolute http or https,
// a host, no credentials, at most 2048 bytes, and a host that is not, and
// does not resolve to, an address the guard refuses. It returns a message
// for the user ("" when the URL is acceptable). Delivery checks the address
// again as it connects (Guard.DialContext), so a name that resolves
// differently later is caught then.
func CheckURL(ctx context.Context, raw string, guard *netguard.Guard, resolver *net.Resolver) string {
	if len(raw) > 2048 {
		return "url is longer than 2048 bytes"
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Opaque != "" {
		return "url must be an absolute http or https URL"
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "url must use http or https"
	}
	if u.User != nil {
		return "url must not hold a user name or password"
	}
	host := u.Hostname()
	if host == "" {
		return "url has no host"
	}
	if u.Fragment != "" {
		return "url must not hold a fragment"
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if err := guard.Check(host, ip); err != nil {
			return refusedMessage(err)
		}
		return ""
	}
	if guard != nil && guard.Allow.AllowsName(host) {
		return ""
	}
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := resolver.LookupNetIP(rctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return "the host of url does not resolve: " + host
	}
	for _, ip := range addrs {
		if err := guard.Check(host, ip.Unmap()); err != nil {
			return refusedMessage(err)
		}
	}
	return ""
}

func refusedMessage(err error) string {
	var r *netguard.RefusedError
	if errors.As(err, &r) {
		via := r.Addr.String() + " is "
		if r.Host != "" && r.Host != r.Addr.String() {
			via = r.Host + " resolves to " + r.Addr.String() + ", "
		}
		return "url is not allowed: " + via + r.Reason +
			"; webhooks may not reach loopback, link-local or private addresses unless the operator allows the host (edgeflow serve --allow-hosts)"
	}
	return "url is not allowed"
}
