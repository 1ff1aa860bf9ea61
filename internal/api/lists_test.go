package api_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// walk reads every page of the list at path with limit, checking that no
// page holds more than limit items and that the last page's nextCursor is
// null; it returns the items' idField values in order.
func (w *world) walk(t *testing.T, path string, limit int, idField string, c cred) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatalf("%s: more than 100 pages", path)
		}
		q := "?limit=" + strconv.Itoa(limit)
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		page := w.must(200, "GET", path+q, "", c).json(t)
		data, ok := page["data"].([]any)
		if !ok {
			t.Fatalf("GET %s%s has no data array: %v", path, q, page)
		}
		if len(data) > limit {
			t.Fatalf("GET %s%s answered %d items", path, q, len(data))
		}
		for _, it := range data {
			ids = append(ids, it.(map[string]any)[idField].(string))
		}
		next, isString := page["nextCursor"].(string)
		if page["nextCursor"] != nil && (!isString || next == "") {
			t.Fatalf("GET %s%s: nextCursor = %#v", path, q, page["nextCursor"])
		}
		if !isString {
			return ids
		}
		cursor = next
	}
}

// TestNodeAndMarketplaceListsPaginate: GET /nodes, /marketplace and
// /marketplace/installed answer {data, nextCursor} and honour cursor and
// limit: walking them a few items at a time gives exactly the whole list,
// in its order, and a page boundary stays right when a node is installed
// between two pages.
func TestNodeAndMarketplaceListsPaginate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	for _, id := range []string{"kv-get", "openai-chat", "slack-message"} {
		w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"`+id+`"}`, a.keyAll)
	}
	for _, l := range []struct{ path, id string }{
		{"/api/nodes", "id"},
		{"/api/marketplace", "id"},
		{"/api/marketplace/installed", "nodeId"},
	} {
		whole := w.walk(t, l.path, 100, l.id, a.keyRead)
		if len(whole) < 3 {
			t.Fatalf("%s = %v", l.path, whole)
		}
		for _, limit := range []int{1, 2, 5} {
			if got := w.walk(t, l.path, limit, l.id, a.keyRead); strings.Join(got, ",") != strings.Join(whole, ",") {
				t.Errorf("%s by %d = %v, want %v", l.path, limit, got, whole)
			}
		}
		if def := w.must(200, "GET", l.path, "", a.keyRead).json(t)["data"].([]any); len(def) != min(len(whole), 50) {
			t.Errorf("%s without limit answered %d items, want %d", l.path, len(def), min(len(whole), 50))
		}
	}
	nodes := w.walk(t, "/api/nodes", 100, "id", a.keyRead)
	if tail := nodes[13:]; nodes[0] != "step" || !slices.IsSorted(tail) || !slices.Contains(tail, "kv-get") || !slices.Contains(tail, "slack-message") {
		t.Fatalf("GET /nodes order = %v: the builtins, then the installed nodes by id", nodes)
	}

	// The builtins and kv-get, then an install sorting before and one after
	// the cursor: the next page starts right after kv-get.
	first := w.must(200, "GET", "/api/nodes?limit=14", "", a.keyRead).json(t)
	data := first["data"].([]any)
	if last := data[len(data)-1].(map[string]any)["id"]; last != "kv-get" {
		t.Fatalf("the 14th node is %v, want kv-get", last)
	}
	w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"airtable-record"}`, a.keyAll)
	w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"linear-issue"}`, a.keyAll)
	rest := w.walk(t, "/api/nodes", 100, "id", a.keyRead)
	next := w.must(200, "GET", "/api/nodes?limit=2&cursor="+url.QueryEscape(first["nextCursor"].(string)), "", a.keyRead).json(t)["data"].([]any)
	if got := next[0].(map[string]any)["id"].(string) + "," + next[1].(map[string]any)["id"].(string); got != "linear-issue,openai-chat" {
		t.Fatalf("the page after kv-get = %s (whole list %v)", got, rest)
	}

	// Tenant b's cursors do not work on a's lists.
	bPage := w.must(200, "GET", "/api/nodes?limit=1", "", w.b.keyRead).json(t)
	checkError(t, w.do("GET", "/api/nodes?cursor="+url.QueryEscape(bPage["nextCursor"].(string)), "", a.keyRead), 400, "bad_request", "?cursor")
	mPage := w.must(200, "GET", "/api/marketplace?limit=1", "", a.keyRead).json(t)
	checkError(t, w.do("GET", "/api/nodes?cursor="+url.QueryEscape(mPage["nextCursor"].(string)), "", a.keyRead), 400, "bad_request", "?cursor")
}
