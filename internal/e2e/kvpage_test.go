package e2e_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestKVKeyPagesKeepToTheLimit: a KV key listing on the local edge answers
// at most limit keys, also below Cloudflare's minimum page of 10, and its
// nextCursor continues mid-page: walking 13 keys 4 at a time gives every
// key once, in order, in 4 pages.
func TestKVKeyPagesKeepToTheLimit(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Filler", "workflow", chain("Filler",
		step("fill", `for (let i = 0; i < 13; i++) { await env.KV_PAGES.put('page/' + String(i).padStart(2, '0'), 'v' + i); }
await env.KV_PAGES.put('other', 'x');
return { n: 13 };`),
	))
	s.deploy(wf)
	s.waitStatus(wf, s.trigger(wf, map[string]any{}), "complete", 60*time.Second)

	c := "connectionId=" + s.conn
	title := "ef-" + strings.ReplaceAll(s.projID, "_", "-") + "-kv-pages"
	var nss struct {
		Data []struct{ ID, Title string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/kv/namespaces?limit=100&"+c, nil).into(&nss)
	i := slices.IndexFunc(nss.Data, func(n struct{ ID, Title string }) bool { return n.Title == title })
	if i < 0 {
		t.Fatalf("no namespace %s in %+v", title, nss.Data)
	}
	keysPath := "/api/resources/kv/namespaces/" + nss.Data[i].ID + "/keys?prefix=page/&" + c

	var want []string
	for i := range 13 {
		want = append(want, fmt.Sprintf("page/%02d", i))
	}
	for _, limit := range []int{1, 4, 9, 10, 13, 100} {
		var got []string
		cursor, pages := "", 0
		for {
			var page struct {
				Data       []struct{ Name string } `json:"data"`
				NextCursor *string                 `json:"nextCursor"`
			}
			q := fmt.Sprintf("&limit=%d", limit)
			if cursor != "" {
				q += "&cursor=" + url.QueryEscape(cursor)
			}
			s.must(200, "GET", keysPath+q, nil).into(&page)
			if len(page.Data) > limit {
				t.Fatalf("limit %d: a page of %d keys", limit, len(page.Data))
			}
			for _, k := range page.Data {
				got = append(got, k.Name)
			}
			pages++
			if page.NextCursor == nil {
				break
			}
			if pages > 20 {
				t.Fatalf("limit %d: more than 20 pages", limit)
			}
			cursor = *page.NextCursor
		}
		if !slices.Equal(got, want) {
			t.Errorf("keys by %d = %v, want %v", limit, got, want)
		}
		if wantPages := (13 + limit - 1) / limit; pages != wantPages {
			t.Errorf("limit %d: %d pages, want %d", limit, pages, wantPages)
		}
	}
	// The cursor is bound to the connection's list: with another path it is refused.
	var first struct {
		NextCursor *string `json:"nextCursor"`
	}
	s.must(200, "GET", keysPath+"&limit=3", nil).into(&first)
	if first.NextCursor == nil {
		t.Fatal("a page of 3 of 13 keys has no nextCursor")
	}
	wantError(t, s.do("GET", "/api/resources/kv/namespaces?"+c+"&cursor="+url.QueryEscape(*first.NextCursor), nil), 400, "bad_request")
}
