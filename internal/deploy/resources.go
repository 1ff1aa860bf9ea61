package deploy

import (
	"context"
	"unicode/utf8"

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

// ListKVKeys lists keys of a namespace; prefix, cursor and limit (10..1000
// on Cloudflare; values below 10 are raised to 10) are passed through.
func (s *Service) ListKVKeys(ctx context.Context, r ResourceRequest, namespaceID string) (Listing[KVKey], error) {
	if err := checkPage(r.Page, 1000); err != nil {
		return Listing[KVKey]{}, err
	}
	if r.Page.Limit > 0 && r.Page.Limit < 10 {
		r.Page.Limit = 10
	}
	p, err := s.resourceProvider(ctx, r)
	if err != nil {
		return Listing[KVKey]{}, err
	}
	l, err := p.ListKVKeys(ctx, namespaceID, r.Page)
	return l, resourceError("list the keys of KV namespace "+namespaceID, err)
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
