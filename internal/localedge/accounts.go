package localedge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Account is an account of the local edge as ProvisionAccount answers it.
// Token is the account's API token; the edge keeps only its hash, so this is
// the one time it is seen.
type Account struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Subdomain string `json:"subdomain"`
	Token     string `json:"token"`
}

// ProvisionAccount is Provision answering only the account's id and token
// (the form internal/deploy's LocalEdge asks for).
func (e *Edge) ProvisionAccount(ctx context.Context, ref, name string) (accountID, token string, err error) {
	a, err := e.Provision(ctx, ref, name)
	return a.ID, a.Token, err
}

// Provision asks the edge, with its root token, for the account whose
// reference is ref (edgeflow passes one per organization): it is created on
// first use, and every call answers a new token for it (the previous one
// stops working). The root token and the answer's token never appear in the
// returned error.
func (e *Edge) Provision(ctx context.Context, ref, name string) (Account, error) {
	return provision(ctx, e.adminURL("/__edge/accounts"), e.token, ref, name)
}

// provision posts to the edge's accounts route endpoint with the root token.
func provision(ctx context.Context, endpoint, token, ref, name string) (Account, error) {
	body, err := json.Marshal(map[string]string{"ref": ref, "name": name})
	if err != nil {
		return Account{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return Account{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return Account{}, fmt.Errorf("localedge: provision an account: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	if err != nil {
		return Account{}, fmt.Errorf("localedge: provision an account: %w", err)
	}
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusCreated {
		var env struct {
			Errors []struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"errors"`
		}
		msg := http.StatusText(res.StatusCode)
		if json.Unmarshal(raw, &env) == nil && len(env.Errors) > 0 {
			msg = fmt.Sprintf("%d %s", env.Errors[0].Code, env.Errors[0].Message)
		}
		return Account{}, fmt.Errorf("localedge: provision an account: the edge answered %d: %s", res.StatusCode, msg)
	}
	var a Account
	if err := json.Unmarshal(raw, &a); err != nil || a.ID == "" || a.Token == "" || a.Subdomain == "" {
		return Account{}, fmt.Errorf("localedge: provision an account: malformed answer")
	}
	return a, nil
}

// AccountWorkersBaseURL is the base of the worker URLs of the account whose
// workers.dev subdomain is subdomain: its worker S answers at
// AccountWorkersBaseURL(subdomain)+"/"+S.
func (e *Edge) AccountWorkersBaseURL(subdomain string) string {
	return e.ready.Workers + "/" + url.PathEscape(subdomain)
}

// AccountWorkerURL is the URL of worker name of the account whose workers.dev
// subdomain is subdomain.
func (e *Edge) AccountWorkerURL(subdomain, name string) string {
	return e.AccountWorkersBaseURL(subdomain) + "/" + name
}

// adminURL is the URL of one of the edge's root-only routes (outside
// /client/v4).
func (e *Edge) adminURL(p string) string {
	return strings.TrimSuffix(e.ready.API, "/client/v4") + p
}
