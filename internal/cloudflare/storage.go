package cloudflare

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	cf "github.com/cloudflare/cloudflare-go/v6"
	"github.com/cloudflare/cloudflare-go/v6/d1"
	"github.com/cloudflare/cloudflare-go/v6/kv"
	"github.com/cloudflare/cloudflare-go/v6/option"
	"github.com/cloudflare/cloudflare-go/v6/r2"
)

// KVNamespace is a KV namespace of the account.
type KVNamespace struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// KVKeysQuery selects keys: Prefix, the Cursor of the previous page, and Limit (10-1000; 0 means Cloudflare's
// default of 1000).
type KVKeysQuery struct {
	Prefix string
	Cursor string
	Limit  int
}

// KVKey is one key of a listing; Expiration is a Unix time (0 when none).
type KVKey struct {
	Name       string          `json:"name"`
	Expiration int64           `json:"expiration,omitempty"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
}

// KVKeyPage is one page of keys; Cursor is empty on the last page.
type KVKeyPage struct {
	Keys   []KVKey `json:"keys"`
	Cursor string  `json:"cursor"`
}

// D1Database is a D1 database of the account.
type D1Database struct {
	UUID      string     `json:"uuid"`
	Name      string     `json:"name"`
	Version   string     `json:"version,omitempty"`
	CreatedAt *time.Time `json:"created_at,omitempty"`
}

// D1Meta is what D1 reports about a statement.
type D1Meta struct {
	Duration    float64 `json:"duration"`
	Changes     int64   `json:"changes"`
	LastRowID   int64   `json:"last_row_id"`
	ChangedDB   bool    `json:"changed_db"`
	SizeAfter   int64   `json:"size_after"`
	RowsRead    int64   `json:"rows_read"`
	RowsWritten int64   `json:"rows_written"`
}

// D1Result is the result of a statement: column names and rows of values (numbers are json.Number, so large
// integers keep every digit).
type D1Result struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
	Meta    D1Meta   `json:"meta"`
}

// R2Bucket is an R2 bucket of the account.
type R2Bucket struct {
	Name         string `json:"name"`
	CreationDate string `json:"creation_date,omitempty"`
	Location     string `json:"location,omitempty"`
}

// R2ObjectsQuery selects objects: Prefix, the Cursor of the previous page, Delimiter (e.g. "/" to group
// "folders" into Prefixes) and Limit (1-1000; 0 means the API's default).
type R2ObjectsQuery struct {
	Prefix    string
	Cursor    string
	Delimiter string
	Limit     int
}

// R2Object is one object of a listing.
type R2Object struct {
	Key          string `json:"key"`
	Size         int64  `json:"size"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	ContentType  string `json:"contentType,omitempty"`
}

// R2ObjectPage is one page of objects; Cursor is empty on the last page. Prefixes are the delimited "folders".
type R2ObjectPage struct {
	Objects   []R2Object `json:"objects"`
	Prefixes  []string   `json:"prefixes,omitempty"`
	Cursor    string     `json:"cursor"`
	Truncated bool       `json:"truncated"`
}

// ListKVNamespaces returns every KV namespace of the account (all pages).
func (c *Client) ListKVNamespaces(ctx context.Context) ([]KVNamespace, error) {
	acct, err := c.account()
	if err != nil {
		return nil, err
	}
	out := []KVNamespace{}
	for page := 1; ; page++ {
		var items []kv.Namespace
		err := c.run(ctx, "GET "+acct+"/storage/kv/namespaces", true, func(ctx context.Context, opts ...option.RequestOption) error {
			r, err := c.sdk.KV.Namespaces.List(ctx, kv.NamespaceListParams{
				AccountID: cf.F(c.accountID), Page: cf.F(float64(page)), PerPage: cf.F(100.0),
			}, opts...)
			if err != nil {
				return err
			}
			items = r.Result
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, n := range items {
			out = append(out, KVNamespace{ID: n.ID, Title: n.Title})
		}
		if len(items) < 100 {
			return out, nil
		}
	}
}

// EnsureKVNamespace returns the namespace titled title, creating it (POST …/storage/kv/namespaces) when the
// account has none.
func (c *Client) EnsureKVNamespace(ctx context.Context, title string) (KVNamespace, error) {
	acct, err := c.account()
	if err != nil {
		return KVNamespace{}, err
	}
	if strings.TrimSpace(title) == "" || len(title) > 512 {
		return KVNamespace{}, argErr("title", "must be 1-512 characters")
	}
	find := func() (KVNamespace, bool, error) {
		all, err := c.ListKVNamespaces(ctx)
		if err != nil {
			return KVNamespace{}, false, err
		}
		for _, n := range all {
			if n.Title == title {
				return n, true, nil
			}
		}
		return KVNamespace{}, false, nil
	}
	if n, ok, err := find(); err != nil || ok {
		return n, err
	}
	var n KVNamespace
	_, err = c.do(ctx, request{method: http.MethodPost, path: acct + "/storage/kv/namespaces", body: map[string]string{"title": title}, result: &n})
	if IsConflict(err) || (err != nil && hasCode(err, 10014)) {
		if n, ok, ferr := find(); ferr == nil && ok {
			return n, nil
		}
	}
	return n, err
}

func hasCode(err error, code int) bool {
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.HasCode(code)
}

func (c *Client) kvPath(ns string) (string, error) {
	acct, err := c.account()
	if err != nil {
		return "", err
	}
	if err := checkName("namespace", ns); err != nil {
		return "", err
	}
	return acct + "/storage/kv/namespaces/" + url.PathEscape(ns), nil
}

// ListKVKeys returns one page of keys of the namespace (GET …/keys?prefix=&cursor=&limit=).
func (c *Client) ListKVKeys(ctx context.Context, ns string, q KVKeysQuery) (KVKeyPage, error) {
	p, err := c.kvPath(ns)
	if err != nil {
		return KVKeyPage{}, err
	}
	if q.Limit != 0 && (q.Limit < 10 || q.Limit > 1000) {
		return KVKeyPage{}, argErr("limit", "must be between 10 and 1000")
	}
	v := url.Values{}
	if q.Prefix != "" {
		v.Set("prefix", q.Prefix)
	}
	if q.Cursor != "" {
		v.Set("cursor", q.Cursor)
	}
	if q.Limit != 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	page := KVKeyPage{Keys: []KVKey{}}
	info, err := c.do(ctx, request{method: http.MethodGet, path: p + "/keys", query: v, idempotent: true, result: &page.Keys})
	if err != nil {
		return KVKeyPage{}, err
	}
	if info != nil {
		page.Cursor = info.Cursor
	}
	return page, nil
}

// GetKVValue returns the raw value of key (GET …/values/{key}, the key path-escaped, "/" included); a missing
// key is an *APIError 404.
func (c *Client) GetKVValue(ctx context.Context, ns, key string) ([]byte, error) {
	p, err := c.kvPath(ns)
	if err != nil {
		return nil, err
	}
	if key == "" || len(key) > 512 {
		return nil, argErr("key", "must be 1-512 bytes")
	}
	var val []byte
	_, err = c.do(ctx, request{method: http.MethodGet, path: p + "/values/" + url.PathEscape(key), idempotent: true, result: &val, rawResult: true})
	return val, err
}

// ListD1Databases returns every D1 database of the account (all pages).
func (c *Client) ListD1Databases(ctx context.Context) ([]D1Database, error) {
	return c.listD1(ctx, "")
}

func (c *Client) listD1(ctx context.Context, name string) ([]D1Database, error) {
	acct, err := c.account()
	if err != nil {
		return nil, err
	}
	out := []D1Database{}
	for page := 1; ; page++ {
		var items []d1.DatabaseListResponse
		err := c.run(ctx, "GET "+acct+"/d1/database", true, func(ctx context.Context, opts ...option.RequestOption) error {
			params := d1.DatabaseListParams{AccountID: cf.F(c.accountID), Page: cf.F(float64(page)), PerPage: cf.F(100.0)}
			if name != "" {
				params.Name = cf.F(name)
			}
			r, err := c.sdk.D1.Database.List(ctx, params, opts...)
			if err != nil {
				return err
			}
			items = r.Result
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, d := range items {
			db := D1Database{UUID: d.UUID, Name: d.Name, Version: d.Version}
			if !d.CreatedAt.IsZero() {
				t := d.CreatedAt
				db.CreatedAt = &t
			}
			out = append(out, db)
		}
		if len(items) < 100 {
			return out, nil
		}
	}
}

// EnsureD1Database returns the database named name, creating it (POST …/d1/database {"name"}) when the account
// has none.
func (c *Client) EnsureD1Database(ctx context.Context, name string) (D1Database, error) {
	acct, err := c.account()
	if err != nil {
		return D1Database{}, err
	}
	if strings.TrimSpace(name) == "" || len(name) > 255 {
		return D1Database{}, argErr("name", "must be 1-255 characters")
	}
	find := func() (D1Database, bool, error) {
		all, err := c.listD1(ctx, name)
		if err != nil {
			return D1Database{}, false, err
		}
		for _, d := range all {
			if d.Name == name {
				return d, true, nil
			}
		}
		return D1Database{}, false, nil
	}
	if d, ok, err := find(); err != nil || ok {
		return d, err
	}
	var d D1Database
	_, err = c.do(ctx, request{method: http.MethodPost, path: acct + "/d1/database", body: map[string]string{"name": name}, result: &d})
	if err != nil && (IsConflict(err) || IsInvalidArgument(err)) {
		if d, ok, ferr := find(); ferr == nil && ok {
			return d, nil
		}
	}
	return d, err
}

// D1QueryLimit is how long one D1 query may run: Cloudflare stops a query after 30 seconds, and so does the local
// edge (docs/edge.md). A query request waits d1AnswerMargin longer than that, so that the database's own answer
// (the query was stopped) arrives rather than a timeout of this client.
const (
	D1QueryLimit   = 30 * time.Second
	d1AnswerMargin = 10 * time.Second
)

// QueryD1 runs sql with its positional params (POST …/d1/database/{db}/raw {"sql","params"}) and returns the
// result of the last statement. Not retried (the statement may write). A bad statement is an *APIError 400.
func (c *Client) QueryD1(ctx context.Context, db, sql string, params []any) (D1Result, error) {
	return c.queryD1(ctx, db, sql, params, nil)
}

// QueryD1ReadOnly runs sql like QueryD1 with the local edge's extension ?edgeflow_read_only=true: the edge runs the
// statements so that the database refuses to change, answering 403 with code 7403 (docs/edge.md). Only the local
// edge knows the parameter; Cloudflare's API ignores it, so never call this for a Cloudflare account.
func (c *Client) QueryD1ReadOnly(ctx context.Context, db, sql string, params []any) (D1Result, error) {
	return c.queryD1(ctx, db, sql, params, url.Values{"edgeflow_read_only": {"true"}})
}

func (c *Client) queryD1(ctx context.Context, db, sql string, params []any, query url.Values) (D1Result, error) {
	acct, err := c.account()
	if err != nil {
		return D1Result{}, err
	}
	if err := checkName("database", db); err != nil {
		return D1Result{}, err
	}
	if strings.TrimSpace(sql) == "" {
		return D1Result{}, argErr("sql", "is required")
	}
	body := map[string]any{"sql": sql}
	if params != nil {
		body["params"] = params
	}
	var results []struct {
		Results struct {
			Columns []string `json:"columns"`
			Rows    [][]any  `json:"rows"`
		} `json:"results"`
		Meta D1Meta `json:"meta"`
	}
	_, err = c.do(ctx, request{method: http.MethodPost, path: acct + "/d1/database/" + url.PathEscape(db) + "/raw", query: query, body: body, result: &results,
		timeout: D1QueryLimit + d1AnswerMargin})
	if err != nil {
		return D1Result{}, err
	}
	res := D1Result{Columns: []string{}, Rows: [][]any{}}
	if n := len(results); n > 0 {
		last := results[n-1]
		res.Meta = last.Meta
		if last.Results.Columns != nil {
			res.Columns = last.Results.Columns
		}
		if last.Results.Rows != nil {
			res.Rows = last.Results.Rows
		}
	}
	return res, nil
}

// ListR2Buckets returns every R2 bucket of the account (all cursor pages). The listing is a raw request: the
// SDK's typed answer drops result_info.cursor.
func (c *Client) ListR2Buckets(ctx context.Context) ([]R2Bucket, error) {
	acct, err := c.account()
	if err != nil {
		return nil, err
	}
	out := []R2Bucket{}
	cursor := ""
	for {
		var res struct {
			Buckets []R2Bucket `json:"buckets"`
		}
		q := url.Values{"per_page": {"1000"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		info, err := c.do(ctx, request{method: http.MethodGet, path: acct + "/r2/buckets", query: q, idempotent: true, result: &res})
		if err != nil {
			return nil, err
		}
		out = append(out, res.Buckets...)
		if info == nil || info.Cursor == "" || len(res.Buckets) == 0 || info.Cursor == cursor {
			return out, nil
		}
		cursor = info.Cursor
	}
}

// EnsureR2Bucket returns the bucket named name, creating it (POST …/r2/buckets {"name"}) when it does not
// exist (GET …/r2/buckets/{name} answers 404).
func (c *Client) EnsureR2Bucket(ctx context.Context, name string) (R2Bucket, error) {
	acct, err := c.account()
	if err != nil {
		return R2Bucket{}, err
	}
	if err := checkName("bucket", name); err != nil {
		return R2Bucket{}, err
	}
	var b R2Bucket
	_, err = c.do(ctx, request{method: http.MethodGet, path: acct + "/r2/buckets/" + url.PathEscape(name), idempotent: true, result: &b})
	if err == nil {
		if b.Name == "" {
			b.Name = name
		}
		return b, nil
	}
	if !IsNotFound(err) {
		return R2Bucket{}, err
	}
	err = c.run(ctx, "POST "+acct+"/r2/buckets", false, func(ctx context.Context, opts ...option.RequestOption) error {
		r, err := c.sdk.R2.Buckets.New(ctx, r2.BucketNewParams{AccountID: cf.F(c.accountID), Name: cf.F(name)}, opts...)
		if err != nil {
			return err
		}
		b = R2Bucket{Name: r.Name, CreationDate: r.CreationDate, Location: string(r.Location)}
		return nil
	})
	if IsConflict(err) {
		return R2Bucket{Name: name}, nil
	}
	if err == nil && b.Name == "" {
		b.Name = name
	}
	return b, err
}

// ListR2Objects returns one page of the bucket's objects: GET …/r2/buckets/{b}/objects?prefix=&cursor=
// &delimiter=&per_page= (a raw request: the SDK has no object listing; the local edge and Cloudflare's
// dashboard API answer it).
func (c *Client) ListR2Objects(ctx context.Context, bucket string, q R2ObjectsQuery) (R2ObjectPage, error) {
	acct, err := c.account()
	if err != nil {
		return R2ObjectPage{}, err
	}
	if err := checkName("bucket", bucket); err != nil {
		return R2ObjectPage{}, err
	}
	if q.Limit < 0 || q.Limit > 1000 {
		return R2ObjectPage{}, argErr("limit", "must be between 1 and 1000")
	}
	v := url.Values{}
	if q.Prefix != "" {
		v.Set("prefix", q.Prefix)
	}
	if q.Cursor != "" {
		v.Set("cursor", q.Cursor)
	}
	if q.Delimiter != "" {
		v.Set("delimiter", q.Delimiter)
	}
	if q.Limit != 0 {
		v.Set("per_page", strconv.Itoa(q.Limit))
	}
	var items []struct {
		R2Object
		HTTPMetadata struct {
			ContentType string `json:"contentType"`
		} `json:"http_metadata"`
		Size json.Number `json:"size"`
	}
	info, err := c.do(ctx, request{method: http.MethodGet, path: acct + "/r2/buckets/" + url.PathEscape(bucket) + "/objects", query: v, idempotent: true, result: &items})
	if err != nil {
		return R2ObjectPage{}, err
	}
	page := R2ObjectPage{Objects: make([]R2Object, 0, len(items))}
	for _, it := range items {
		o := it.R2Object
		o.Size, _ = it.Size.Int64()
		if o.ContentType == "" {
			o.ContentType = it.HTTPMetadata.ContentType
		}
		page.Objects = append(page.Objects, o)
	}
	if info != nil {
		page.Cursor = info.Cursor
		page.Prefixes = info.Delimited
		switch t := info.IsTruncated.(type) {
		case bool:
			page.Truncated = t
		case string:
			page.Truncated = t == "true"
		}
	}
	if !page.Truncated {
		page.Truncated = page.Cursor != ""
	}
	return page, nil
}

// R2ObjectData is one object read whole: its bytes and the HTTP metadata the object API answers with them.
type R2ObjectData struct {
	Body         []byte
	ContentType  string
	ETag         string
	LastModified string
}

// MaxR2ObjectRead is the largest object GetR2Object reads: the client's bound of any answer body.
const MaxR2ObjectRead = maxBody

// GetR2Object reads one object (GET …/r2/buckets/{b}/objects/{key}, the key path-escaped, "/" included). A
// missing object or bucket is an *APIError 404; an object over MaxR2ObjectRead bytes is a
// *TooLargeError.
func (c *Client) GetR2Object(ctx context.Context, bucket, key string) (R2ObjectData, error) {
	acct, err := c.account()
	if err != nil {
		return R2ObjectData{}, err
	}
	if err := checkName("bucket", bucket); err != nil {
		return R2ObjectData{}, err
	}
	if key == "" || len(key) > 1024 {
		return R2ObjectData{}, argErr("key", "must be 1-1024 bytes")
	}
	path := acct + "/r2/buckets/" + url.PathEscape(bucket) + "/objects/" + url.PathEscape(key)
	op := http.MethodGet + " " + path
	var out R2ObjectData
	err = c.runWithin(ctx, op, true, c.timeout, func(ctx context.Context, opts ...option.RequestOption) error {
		var res *http.Response
		if err := c.sdk.Execute(ctx, http.MethodGet, path, nil, &res, opts...); err != nil {
			return err
		}
		defer res.Body.Close()
		if res.ContentLength > maxBody {
			return &TooLargeError{Op: op, Limit: maxBody}
		}
		raw, err := io.ReadAll(io.LimitReader(res.Body, maxBody+1))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &UnreachableError{Op: op, Err: err}
		}
		if len(raw) > maxBody {
			return &TooLargeError{Op: op, Limit: maxBody}
		}
		out = R2ObjectData{Body: raw, ContentType: res.Header.Get("Content-Type"), ETag: res.Header.Get("ETag"),
			LastModified: res.Header.Get("Last-Modified")}
		return nil
	})
	return out, err
}
