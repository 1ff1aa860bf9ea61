package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// ResourceRequest names a connection the project may use (organization-wide
// or its own) and one page.
type ResourceRequest struct {
	OrganizationID string
	ProjectID      string
	ConnectionID   string
	Page           Page
}

// KVValue is the value of one key: Value is the text when it is UTF-8,
// otherwise base64 with Encoding "base64".
type KVValue struct {
	Key      string `json:"key"`
	Value    string `json:"value"`
	Encoding string `json:"encoding"`
	Size     int    `json:"size"`
}

// CheckConnection returns not_found unless the organization has the
// connection and the project may use it.
func (s *Service) CheckConnection(ctx context.Context, organizationID, projectID, connectionID string) error {
	_, err := s.connection(ctx, organizationID, projectID, connectionID)
	return err
}

func (s *Service) resourceProvider(ctx context.Context, r ResourceRequest) (Provider, error) {
	c, err := s.connection(ctx, r.OrganizationID, r.ProjectID, r.ConnectionID)
	if err != nil {
		return nil, err
	}
	return s.providerFor(ctx, c)
}

func checkPage(p Page, maxLimit int) error {
	if p.Limit < 0 || p.Limit > maxLimit {
		return edgeflow.Invalid("/limit", "limit must be between 1 and "+itoa(maxLimit))
	}
	return nil
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// ListKVNamespaces lists the connection's KV namespaces (title prefix,
// cursor and limit 1..100 applied).
func (s *Service) ListKVNamespaces(ctx context.Context, r ResourceRequest) (Listing[KVNamespace], error) {
	if err := checkPage(r.Page, 100); err != nil {
		return Listing[KVNamespace]{}, err
	}
	p, err := s.resourceProvider(ctx, r)
	if err != nil {
		return Listing[KVNamespace]{}, err
	}
	l, err := p.ListKVNamespaces(ctx, r.Page)
	return l, providerError("list KV namespaces", err)
}

// Cloudflare's bounds of a KV key listing's page size (its limit is 10 to
// 1000; without one it answers 1000 keys).
const (
	kvMinPage = 10
	kvMaxPage = 1000
)

// ListKVKeys lists keys of a namespace: prefix, cursor and limit (1..1000,
// default 1000). Never more than limit keys, also below Cloudflare's minimum
// page of 10 (decision 116): the provider is asked for at least 10 keys and
// the page is cut. The cursor of a cut page names the provider page (its
// provider cursor), the last key answered and how many keys of that page
// were answered; the next request asks the provider again from that cursor,
// for that many keys more, and continues after the last key answered (keys
// are listed in lexicographic order), so a key added or deleted in between
// moves nothing.
func (s *Service) ListKVKeys(ctx context.Context, r ResourceRequest, namespaceID string) (Listing[KVKey], error) {
	if err := checkPage(r.Page, kvMaxPage); err != nil {
		return Listing[KVKey]{}, err
	}
	at, err := parseKVCursor(r.Page.Cursor)
	if err != nil {
		return Listing[KVKey]{}, err
	}
	p, err := s.resourceProvider(ctx, r)
	if err != nil {
		return Listing[KVKey]{}, err
	}
	want := r.Page.Limit
	if want == 0 {
		want = kvMaxPage
	}
	out := Listing[KVKey]{Items: []KVKey{}}
	// A provider page can hold fewer keys than asked for, or none after the
	// last key answered (keys deleted since): then the listing goes on to
	// the next provider page, a few times at most, while nothing was found.
	for range 4 {
		need := want - len(out.Items)
		l, err := p.ListKVKeys(ctx, namespaceID, Page{Prefix: r.Page.Prefix, Cursor: at.Provider, Limit: min(max(at.Answered+need, kvMinPage), kvMaxPage)})
		if err != nil {
			return Listing[KVKey]{}, resourceError("list the keys of KV namespace "+namespaceID, err)
		}
		keys := l.Items
		if at.Last != "" {
			keys = keys[sort.Search(len(keys), func(i int) bool { return keys[i].Name > at.Last }):]
		}
		if len(keys) > need {
			out.Items = append(out.Items, keys[:need]...)
			at.Last = keys[need-1].Name
			at.Answered = len(l.Items) - len(keys) + need
			out.NextCursor = at.String()
			return out, nil
		}
		out.Items = append(out.Items, keys...)
		if l.NextCursor == "" {
			out.NextCursor = ""
			return out, nil
		}
		at = kvPlace{Provider: l.NextCursor}
		out.NextCursor = at.String()
		if len(out.Items) > 0 {
			return out, nil
		}
	}
	return out, nil
}

// kvPlace is where a key listing continues: in the provider page that
// starts at Provider ("" for the first), after the key Last ("" for none),
// of which Answered keys were answered.
type kvPlace struct {
	Provider string `json:"c"`
	Last     string `json:"k,omitempty"`
	Answered int    `json:"n,omitempty"`
}

func (p kvPlace) String() string {
	b, _ := json.Marshal(p)
	return string(b)
}

// parseKVCursor reads a cursor of kvPlace ("" is the start).
func parseKVCursor(c string) (kvPlace, error) {
	var p kvPlace
	if c == "" {
		return p, nil
	}
	dec := json.NewDecoder(strings.NewReader(c))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil || dec.More() || p.Answered < 0 || p.Answered >= kvMaxPage ||
		(p.Last == "") != (p.Answered == 0) || (p.Provider == "" && p.Last == "") {
		return kvPlace{}, edgeflow.Invalid("?cursor", "invalid cursor")
	}
	return p, nil
}

// GetKVValue returns the value of a key (not_found when the key or the
// namespace does not exist).
func (s *Service) GetKVValue(ctx context.Context, r ResourceRequest, namespaceID, key string) (*KVValue, error) {
	p, err := s.resourceProvider(ctx, r)
	if err != nil {
		return nil, err
	}
	raw, err := p.GetKVValue(ctx, namespaceID, key)
	if err != nil {
		return nil, resourceError("read KV key "+key, err)
	}
	v := &KVValue{Key: key, Size: len(raw), Encoding: "utf-8"}
	if utf8.Valid(raw) {
		v.Value = string(raw)
	} else {
		v.Value, v.Encoding = encodeBase64(raw), "base64"
	}
	return v, nil
}

// ListD1Databases lists the connection's D1 databases.
func (s *Service) ListD1Databases(ctx context.Context, r ResourceRequest) (Listing[D1Database], error) {
	if err := checkPage(r.Page, 100); err != nil {
		return Listing[D1Database]{}, err
	}
	p, err := s.resourceProvider(ctx, r)
	if err != nil {
		return Listing[D1Database]{}, err
	}
	l, err := p.ListD1Databases(ctx, r.Page)
	return l, providerError("list D1 databases", err)
}

// ListR2Buckets lists the connection's R2 buckets.
func (s *Service) ListR2Buckets(ctx context.Context, r ResourceRequest) (Listing[R2Bucket], error) {
	if err := checkPage(r.Page, 100); err != nil {
		return Listing[R2Bucket]{}, err
	}
	p, err := s.resourceProvider(ctx, r)
	if err != nil {
		return Listing[R2Bucket]{}, err
	}
	l, err := p.ListR2Buckets(ctx, r.Page)
	return l, providerError("list R2 buckets", err)
}

// ListR2Objects lists objects of a bucket; prefix, cursor and limit
// (1..1000) are passed through.
func (s *Service) ListR2Objects(ctx context.Context, r ResourceRequest, bucket string) (Listing[R2Object], error) {
	if err := checkPage(r.Page, 1000); err != nil {
		return Listing[R2Object]{}, err
	}
	p, err := s.resourceProvider(ctx, r)
	if err != nil {
		return Listing[R2Object]{}, err
	}
	l, err := p.ListR2Objects(ctx, bucket, r.Page)
	return l, resourceError("list the objects of R2 bucket "+bucket, err)
}

// GetR2Object reads one object of a bucket (not_found when the object or
// the bucket does not exist; payload_too_large over
// cloudflare.MaxR2ObjectRead bytes).
func (s *Service) GetR2Object(ctx context.Context, r ResourceRequest, bucket, key string) (*R2ObjectBody, error) {
	p, err := s.resourceProvider(ctx, r)
	if err != nil {
		return nil, err
	}
	o, err := p.GetR2Object(ctx, bucket, key)
	if _, ok := errors.AsType[*cloudflare.TooLargeError](err); ok {
		return nil, &edgeflow.Error{Code: edgeflow.EPayloadTooLarge, Message: "R2 object " + key + " is larger than " +
			itoa(cloudflare.MaxR2ObjectRead>>20) + " MiB, the most edgeflow reads at once: read it from the provider directly", Err: err}
	}
	if err != nil {
		return nil, resourceError("read R2 object "+key+" of bucket "+bucket, err)
	}
	return o, nil
}

// resourceError is providerError with a provider 404 (unknown namespace,
// key, database or bucket) turned into not_found.
func resourceError(what string, err error) error {
	if err == nil {
		return nil
	}
	if providerStatus(err) == 404 {
		return &edgeflow.Error{Code: edgeflow.ENotFound, Message: what + ": " + providerReason(err), Err: err}
	}
	return providerError(what, err)
}
