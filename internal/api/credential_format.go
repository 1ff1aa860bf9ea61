package api

import (
	"regexp"
	"strings"
)

// Cloudflare account ids are 32 lowercase hexadecimal digits, and API tokens
// are at least 20 characters of [A-Za-z0-9_-]. A value of another form is a
// placeholder copied from an example ("…", "...", "<api-token>") or a typo,
// and is refused at create and update instead of failing at the first
// deploy (docs/decisions.md, 90).
var (
	cloudflareAccountIDPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)
	cloudflareAPITokenPattern  = regexp.MustCompile(`^[A-Za-z0-9_-]{20,}$`)
)

// checkCloudflareCredentialFormat adds a problem for each credential sent in
// in whose form is not a Cloudflare account id or API token. Only the fields
// sent are checked, so a PATCH of the token alone is judged on the token.
func checkCloudflareCredentialFormat(p *problems, in *credentialsInput) {
	if in == nil {
		return
	}
	if in.AccountID != nil {
		if v := strings.TrimSpace(*in.AccountID); v != "" {
			p.check(cloudflareAccountIDPattern.MatchString(v), "/credentials/accountId",
				"accountId must be a Cloudflare account id: 32 lowercase hexadecimal characters (dashboard, Workers & Pages, Account ID)")
		}
	}
	if in.APIToken != nil {
		if v := strings.TrimSpace(*in.APIToken); v != "" {
			p.check(cloudflareAPITokenPattern.MatchString(v), "/credentials/apiToken",
				"apiToken must be a Cloudflare API token: at least 20 characters of letters, digits, '_' and '-' (a placeholder such as \"...\" is not one)")
		}
	}
}
