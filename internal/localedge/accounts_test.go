package localedge_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/localedge"
)

// TestProvisionAccount: the root token provisions an account per reference;
// the same reference gets the same account with a new token (the old one is
// refused), and the account's token reaches only its own account.
func TestProvisionAccount(t *testing.T) {
	t.Parallel()
	e := start(t, localedge.Options{Script: edgeScript(t), DataDir: t.TempDir()})
	ctx := context.Background()
	a, err := e.Provision(ctx, "org:a", "Org A")
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == e.AccountID() || len(a.ID) != 32 || a.Token == "" || a.Token == e.Token() || a.Subdomain == "" {
		t.Fatalf("account = %+v", a)
	}
	if got := e.AccountWorkerURL(a.Subdomain, "s"); got != e.WorkersBaseURL()+"/"+a.Subdomain+"/s" {
		t.Fatalf("AccountWorkerURL = %q", got)
	}
	status := func(token, path string) int {
		req, _ := http.NewRequest(http.MethodGet, e.APIBaseURL()+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := status(a.Token, "/accounts/"+a.ID+"/workers/scripts"); got != 200 {
		t.Fatalf("own account: %d", got)
	}
	if got := status(a.Token, "/accounts/"+e.AccountID()+"/workers/scripts"); got != 403 {
		t.Fatalf("legacy account with an account token: %d, want 403", got)
	}
	again, err := e.Provision(ctx, "org:a", "Org A")
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != a.ID || again.Token == a.Token {
		t.Fatalf("again = %+v, first %+v", again, a)
	}
	if got := status(a.Token, "/user/tokens/verify"); got != 401 {
		t.Fatalf("the replaced token: %d, want 401", got)
	}
	b, err := e.Provision(ctx, "org:b", "Org B")
	if err != nil || b.ID == a.ID || b.Subdomain == a.Subdomain {
		t.Fatalf("b = %+v, %v", b, err)
	}
	if _, err := e.Provision(ctx, "bad ref", "x"); err == nil || strings.Contains(err.Error(), e.Token()) {
		t.Fatalf("bad ref: %v", err)
	}
}
