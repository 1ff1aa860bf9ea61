package localedge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Remote is a local edge that runs as a process of its own (`edgeflow
// edge`), shared by several edgeflow replicas: it is reached at a base URL
// with the edge's root token and is neither started nor supervised here.
// It satisfies internal/deploy's LocalEdge like Edge does.
type Remote struct {
	base   string // http://HOST:PORT, no trailing slash
	token  string
	client *http.Client

	mu        sync.Mutex
	accountID string
}

// ErrUnauthorized is returned by Remote.Check when the edge refuses the
// token.
var ErrUnauthorized = errors.New("localedge: the edge refused the token")

// ParseBaseURL checks an edge's base URL (http://HOST:PORT or
// https://HOST:PORT, nothing after the port but an optional "/") and
// returns it without the trailing slash.
func ParseBaseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("must be http://HOST:PORT: %v", err)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("must start with http:// or https:// (got %q)", raw)
	case u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("has no host (got %q)", raw)
	case u.User != nil:
		return "", errors.New("must not hold a user or password (pass the token with --edge-token-file or EDGEFLOW_EDGE_TOKEN)")
	case u.Path != "" && u.Path != "/", u.RawQuery != "", u.Fragment != "":
		return "", fmt.Errorf("must be the edge's base URL, without a path, query or fragment (got %q)", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// NewRemote returns the edge at base (see ParseBaseURL) used with the root
// token. It does not contact the edge; Check does.
func NewRemote(base, token string) (*Remote, error) {
	b, err := ParseBaseURL(base)
	if err != nil {
		return nil, fmt.Errorf("localedge: edge URL %w", err)
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return nil, errors.New("localedge: the edge token is empty")
	}
	return &Remote{base: b, token: token, client: &http.Client{Timeout: 30 * time.Second}}, nil
}

// BaseURL is the edge's base URL, e.g. http://127.0.0.1:8787.
func (r *Remote) BaseURL() string { return r.base }

// APIBaseURL is the Cloudflare API base of the edge.
func (r *Remote) APIBaseURL() string { return r.base + "/client/v4" }

// WorkersBaseURL is the base of the legacy account's worker URLs.
func (r *Remote) WorkersBaseURL() string { return r.base + "/workers" }

// Token is the edge's root token.
func (r *Remote) Token() string { return r.token }

// AccountID is the id of the edge's legacy account (the root token's). It
// is asked of the edge on first use and kept; "" while the edge cannot be
// reached, and then whatever uses it fails reaching the edge too.
func (r *Remote) AccountID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.accountID == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if id, err := r.fetchAccountID(ctx); err == nil {
			r.accountID = id
		}
	}
	return r.accountID
}

// Check asks the edge for its legacy account with the token: nil when the
// edge answers and accepts the token, ErrUnauthorized (wrapped) when it
// refuses it, another error when it cannot be reached or answers otherwise.
func (r *Remote) Check(ctx context.Context) error {
	id, err := r.fetchAccountID(ctx)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.accountID = id
	r.mu.Unlock()
	return nil
}

func (r *Remote) fetchAccountID(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.APIBaseURL()+"/accounts", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+r.token)
	res, err := r.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("localedge: reach the edge at %s: %w", r.base, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	if err != nil {
		return "", fmt.Errorf("localedge: read the edge's answer: %w", err)
	}
	switch {
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		return "", fmt.Errorf("%w at %s (is it the edge's token file?)", ErrUnauthorized, r.base)
	case res.StatusCode != http.StatusOK:
		return "", fmt.Errorf("localedge: the edge at %s answered %d to GET /client/v4/accounts", r.base, res.StatusCode)
	}
	var env struct {
		Result []struct {
			ID string `json:"id"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || len(env.Result) == 0 || env.Result[0].ID == "" {
		return "", fmt.Errorf("localedge: the edge at %s gave no account (is it an edgeflow local edge?)", r.base)
	}
	return env.Result[0].ID, nil
}

// ProvisionAccount creates the edge account with reference ref, or gives
// it a new token, and answers its id and token (as Edge.ProvisionAccount).
func (r *Remote) ProvisionAccount(ctx context.Context, ref, name string) (accountID, token string, err error) {
	a, err := provision(ctx, r.base+"/__edge/accounts", r.token, ref, name)
	return a.ID, a.Token, err
}

// TokenFile is the file the edge keeps its root token in (the ready line's
// tokenFile): what `edgeflow edge` tells replicas to read.
func (e *Edge) TokenFile() string { return e.ready.TokenFile }
