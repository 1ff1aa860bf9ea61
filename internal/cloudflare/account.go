package cloudflare

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/cloudflare/cloudflare-go/v6/option"
)

// TokenStatus is what token verification answers. Status is "active", "disabled" or "expired".
type TokenStatus struct {
	ID        string     `json:"id"`
	Status    string     `json:"status"`
	ExpiresOn *time.Time `json:"expires_on,omitempty"`
	NotBefore *time.Time `json:"not_before,omitempty"`
}

// Active reports whether the token can be used.
func (t TokenStatus) Active() bool { return t.Status == "active" }

// Account is an account the token can use.
type Account struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// VerifyToken checks the token: GET user/tokens/verify, and for an account-owned token (Cloudflare answers
// code 1000 there) GET accounts/{a}/tokens/verify when the client has an account. A refused token is an
// *APIError for which IsUnauthorized holds; its Message is Cloudflare's reason.
func (c *Client) VerifyToken(ctx context.Context) (TokenStatus, error) {
	var ts TokenStatus
	err := c.run(ctx, "GET user/tokens/verify", true, func(ctx context.Context, opts ...option.RequestOption) error {
		r, err := c.sdk.User.Tokens.Verify(ctx, opts...)
		if err != nil {
			return err
		}
		ts = TokenStatus{ID: r.ID, Status: string(r.Status)}
		if !r.ExpiresOn.IsZero() {
			t := r.ExpiresOn
			ts.ExpiresOn = &t
		}
		if !r.NotBefore.IsZero() {
			t := r.NotBefore
			ts.NotBefore = &t
		}
		return nil
	})
	if err != nil && hasCode(err, 1000) && c.accountID != "" {
		acct, _ := c.account()
		ts = TokenStatus{}
		_, aerr := c.do(ctx, request{method: http.MethodGet, path: acct + "/tokens/verify", idempotent: true, result: &ts})
		if aerr == nil {
			return ts, nil
		}
	}
	return ts, err
}

// ListAccounts returns every account the token can use (GET accounts, all pages).
func (c *Client) ListAccounts(ctx context.Context) ([]Account, error) {
	out := []Account{}
	for page := 1; ; page++ {
		var items []Account
		q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {"50"}}
		info, err := c.do(ctx, request{method: http.MethodGet, path: "accounts", query: q, idempotent: true, result: &items})
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
		if !morePages(info, len(items), len(out), 50) {
			return out, nil
		}
	}
}
