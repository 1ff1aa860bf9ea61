package deploy

import (
	"context"
	"encoding/base64"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// VerifyResult is the answer of a token verification.
type VerifyResult struct {
	Valid    bool      `json:"valid"`
	Accounts []Account `json:"accounts"`
}

// VerifyToken checks credentials of a provider without storing them:
// "cloudflare" verifies credentials["apiToken"] against the Cloudflare API
// and lists the accounts it reaches; "local" verifies the given token (an
// account token of the local edge) and lists its account, or, when none is
// given, only checks that the local edge answers (a local connection takes no
// credentials; the edge's root token and legacy account are never shown). Refused
// credentials are {valid: false}; an unreachable provider is
// provider_unavailable (502); an unknown provider validation_failed.
func (s *Service) VerifyToken(ctx context.Context, provider string, credentials map[string]string) (*VerifyResult, error) {
	var (
		p   Provider
		err error
	)
	switch provider {
	case edgeflow.ProviderCloudflare:
		if credentials["apiToken"] == "" {
			return nil, edgeflow.Invalid("/credentials/apiToken", "apiToken is required")
		}
		p, err = s.cloudflareProvider(credentials["apiToken"], credentials["accountId"])
	case edgeflow.ProviderLocal:
		if s.edge == nil {
			return nil, edgeflow.Errorf(edgeflow.EProviderUnavailable, "the local edge is not running (the server was started with --no-edge)")
		}
		cfg := ProviderConfig{Provider: edgeflow.ProviderLocal, BaseURL: s.edge.APIBaseURL(), APIToken: s.edge.Token(),
			AccountID: s.edge.AccountID(), WorkersBaseURL: s.edge.WorkersBaseURL()}
		given := credentials["apiToken"]
		if given != "" {
			cfg.APIToken = given
		}
		p, err = s.makeProvider(cfg)
		if err == nil && given == "" {
			if err := p.VerifyToken(ctx); err != nil {
				return nil, providerError("reach the local edge", err)
			}
			return &VerifyResult{Valid: true, Accounts: []Account{}}, nil
		}
	default:
		return nil, edgeflow.Invalid("/provider", "provider must be cloudflare or local")
	}
	if err != nil {
		return &VerifyResult{Valid: false, Accounts: []Account{}}, nil
	}
	if err := p.VerifyToken(ctx); err != nil {
		if cloudflare.IsUnauthorized(err) {
			return &VerifyResult{Valid: false, Accounts: []Account{}}, nil
		}
		return nil, providerError("verify the token", err)
	}
	accts, err := p.ListAccounts(ctx)
	if err != nil {
		if cloudflare.IsUnreachable(err) {
			return nil, providerError("list the token's accounts", err)
		}
		accts = nil
	}
	if accts == nil {
		accts = []Account{}
	}
	return &VerifyResult{Valid: true, Accounts: accts}, nil
}

func encodeBase64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
