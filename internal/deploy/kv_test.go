package deploy_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

// kvStub is Cloudflare's KV key listing of namespace ns1 holding the keys
// k00..k24 (and one key outside the prefix): pages of `limit` keys (10 to
// 1000, as Cloudflare refuses anything else; 1000 without one) whose
// cursor is "after-" and the last key answered. It records every request.
type kvStub struct {
	mu       sync.Mutex
	keys     []string
	requests []string
}

func (k *kvStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.requests = append(k.requests, r.Method+" "+r.URL.RequestURI())
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	limit := 1000
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 10 || n > 1000 {
			w.WriteHeader(400)
			fmt.Fprint(w, `{"success":false,"errors":[{"code":10026,"message":"limit must be between 10 and 1000"}]}`)
			return
		}
		limit = n
	}
	if r.Header.Get("Authorization") != "Bearer tok" || r.URL.Path != "/accounts/acct/storage/kv/namespaces/ns1/keys" {
		w.WriteHeader(404)
		fmt.Fprint(w, `{"success":false,"errors":[{"code":10013,"message":"not found"}]}`)
		return
	}
	after := strings.TrimPrefix(q.Get("cursor"), "after-")
	var page []string
	for _, key := range k.keys {
		if strings.HasPrefix(key, q.Get("prefix")) && key > after && len(page) < limit+1 {
			page = append(page, key)
		}
	}
	cursor := ""
	if len(page) > limit {
		page = page[:limit]
		cursor = "after-" + page[limit-1]
	}
	items := make([]string, len(page))
	for i, key := range page {
		items[i] = fmt.Sprintf(`{"name":%q}`, key)
	}
	fmt.Fprintf(w, `{"success":true,"errors":[],"messages":[],"result":[%s],"result_info":{"count":%d,"cursor":%q}}`,
		strings.Join(items, ","), len(page), cursor)
}

func (k *kvStub) take() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := k.requests
	k.requests = nil
	return out
}

// TestKVKeyListingKeepsToTheLimit: a key listing answers at most limit
// keys, also below Cloudflare's minimum page of 10, and its cursor
// continues mid-page, so walking the namespace with any limit gives every
// key once, in order. The stub checks the exact requests.
func TestKVKeyListingKeepsToTheLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, org, _ := testOrg(t)
	stub := &kvStub{keys: []string{"a-other"}}
	for i := range 25 {
		stub.keys = append(stub.keys, fmt.Sprintf("k%02d", i))
	}
	hs := httptest.NewServer(stub)
	t.Cleanup(hs.Close)
	svc, err := deploy.New(deploy.Options{Store: st, Secrets: fixedSecrets{}, CloudflareBaseURL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	conn := cfConnection(t, st, org)

	list := func(limit int, cursor string) deploy.Listing[deploy.KVKey] {
		t.Helper()
		l, err := svc.ListKVKeys(ctx, deploy.ResourceRequest{OrganizationID: org.ID, ConnectionID: conn.ID,
			Page: deploy.Page{Prefix: "k", Cursor: cursor, Limit: limit}}, "ns1")
		if err != nil {
			t.Fatalf("ListKVKeys(limit %d, cursor %q): %v", limit, cursor, err)
		}
		if len(l.Items) > limit {
			t.Fatalf("ListKVKeys(limit %d) answered %d keys", limit, len(l.Items))
		}
		return l
	}
	walk := func(limit int) ([]string, int) {
		var names []string
		cursor, pages := "", 0
		for {
			l := list(limit, cursor)
			for _, k := range l.Items {
				names = append(names, k.Name)
			}
			pages++
			if l.NextCursor == "" {
				return names, pages
			}
			if pages > 30 {
				t.Fatalf("limit %d: more than 30 pages", limit)
			}
			cursor = l.NextCursor
		}
	}
	all := stub.keys[1:]
	for _, limit := range []int{1, 3, 7, 9, 10, 11, 24, 25, 1000} {
		got, pages := walk(limit)
		if diff := cmp.Diff(all, got); diff != "" {
			t.Errorf("keys by %d (-want +got):\n%s", limit, diff)
		}
		if want := (25 + limit - 1) / limit; pages != want {
			t.Errorf("limit %d: %d pages, want %d", limit, pages, want)
		}
		stub.take()
	}

	// The exact requests of limit 3: Cloudflare is asked for its minimum
	// of 10 from the start of the provider page, again for as many keys as
	// the cursor skips plus the limit, and from the provider's cursor once
	// that page is used up.
	const keys = "GET /accounts/acct/storage/kv/namespaces/ns1/keys?"
	l1 := list(3, "")
	l2 := list(3, l1.NextCursor)
	l3 := list(3, l2.NextCursor)
	l4 := list(3, l3.NextCursor)
	l5 := list(3, l4.NextCursor)
	got := [][]string{names(l1), names(l2), names(l3), names(l4), names(l5)}
	want := [][]string{{"k00", "k01", "k02"}, {"k03", "k04", "k05"}, {"k06", "k07", "k08"}, {"k09", "k10", "k11"}, {"k12", "k13", "k14"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("pages of 3 (-want +got):\n%s", diff)
	}
	wantReq := []string{
		keys + "limit=10&prefix=k",
		keys + "limit=10&prefix=k",
		keys + "limit=10&prefix=k",
		keys + "limit=12&prefix=k",
		keys + "cursor=after-k11&limit=10&prefix=k",
	}
	if diff := cmp.Diff(wantReq, stub.take()); diff != "" {
		t.Fatalf("requests of pages of 3 (-want +got):\n%s", diff)
	}
	// The provider's largest page is asked for and kept whole.
	if l := list(1000, ""); len(l.Items) != 25 || l.NextCursor != "" {
		t.Fatalf("limit 1000 = %d keys, next %q", len(l.Items), l.NextCursor)
	}
	if diff := cmp.Diff([]string{keys + "limit=1000&prefix=k"}, stub.take()); diff != "" {
		t.Fatalf("request of limit 1000 (-want +got):\n%s", diff)
	}
	// Keys deleted and added between two requests move nothing: the next
	// page starts after the last key answered (k015 sorts before it, k025
	// after).
	c := list(3, "").NextCursor // after k02
	stub.mu.Lock()
	stub.keys = append([]string{"a-other", "k015", "k025"}, stub.keys[5:]...) // k00..k03 deleted, k015 and k025 added
	stub.mu.Unlock()
	stub.take()
	if got := names(list(3, c)); !cmp.Equal(got, []string{"k025", "k04", "k05"}) {
		t.Fatalf("the page after k02 once keys changed = %v", got)
	}
	if diff := cmp.Diff([]string{keys + "limit=10&prefix=k"}, stub.take()); diff != "" {
		t.Fatalf("requests (-want +got):\n%s", diff)
	}

	// A cursor that is not one of the listing's is refused.
	for _, c := range []string{"after-k03", `{"c":"after-k03","x":1}`, `{"c":"","k":"k01","n":-1}`, `{"c":"","k":"k01","n":1000}`,
		`{"c":""}`, `{"c":"a","k":"k01"}`, `{"c":"a"} {}`} {
		_, err := svc.ListKVKeys(ctx, deploy.ResourceRequest{OrganizationID: org.ID, ConnectionID: conn.ID, Page: deploy.Page{Cursor: c, Limit: 3}}, "ns1")
		if e, ok := err.(*edgeflow.Error); !ok || e.Code != edgeflow.EInvalid {
			t.Errorf("cursor %q: err = %v, want invalid", c, err)
		}
	}
	if got := stub.take(); len(got) != 0 {
		t.Fatalf("refused cursors reached the provider: %v", got)
	}
}

func names(l deploy.Listing[deploy.KVKey]) []string {
	out := make([]string, len(l.Items))
	for i, k := range l.Items {
		out[i] = k.Name
	}
	return out
}
