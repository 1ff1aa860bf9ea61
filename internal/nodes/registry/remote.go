package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/netguard"
)

// remote is the optional HTTP registry: its verified catalog, cached for a
// TTL, and the bundles fetched so far, cached by checksum (content
// addressed, so they never go stale).
type remote struct {
	base       string
	client     *http.Client
	ttl, retry time.Duration
	now        func() time.Time
	logger     *slog.Logger

	refreshMu sync.Mutex // one refresh at a time

	mu          sync.Mutex
	cat         *Catalog
	etag        string
	next        time.Time // when the catalog is due for a refresh
	lastSuccess time.Time
	lastErr     error
	byChecksum  map[string]Bundle
}

// fetchConcurrency bounds parallel file downloads from the remote.
const fetchConcurrency = 4

func newRemote(opts Options) (*remote, error) {
	if err := ValidateRemoteURL(opts.RemoteURL); err != nil {
		return nil, err
	}
	rm := &remote{
		base:       strings.TrimRight(opts.RemoteURL, "/"),
		client:     opts.HTTPClient,
		ttl:        opts.TTL,
		retry:      opts.RetryAfter,
		now:        opts.Now,
		logger:     opts.Logger,
		byChecksum: map[string]Bundle{},
	}
	if rm.client == nil {
		// a registry (or a redirect it sends) must not make edgeflow reach this machine or its private network
		rm.client = netguard.New(nil).Client(DefaultFetchTimeout)
	}
	if rm.ttl <= 0 {
		rm.ttl = DefaultTTL
	}
	if rm.retry <= 0 {
		rm.retry = min(rm.ttl, DefaultRetryAfter)
	}
	if rm.now == nil {
		rm.now = time.Now
	}
	if rm.logger == nil {
		rm.logger = slog.New(slog.DiscardHandler)
	}
	return rm, nil
}

func (rm *remote) due() bool {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return !rm.now().Before(rm.next)
}

func (rm *remote) catalog() *Catalog {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.cat
}

func (rm *remote) status() RemoteStatus {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	s := RemoteStatus{URL: rm.base, LastSuccess: rm.lastSuccess}
	if rm.lastErr != nil {
		s.LastError = rm.lastErr.Error()
	}
	if rm.cat != nil {
		s.Nodes = len(rm.cat.nodes)
		for _, vs := range rm.cat.bundles {
			s.Versions += len(vs)
		}
	}
	return s
}

// refresh fetches the remote index and the files of every version not yet
// cached, verifies their checksums and replaces the remote catalog. A
// version that fails (unreachable, checksum mismatch, invalid) is left out
// and reported; a failure to get the index keeps the previous catalog. The
// caller's cancellation does not abort a refresh other callers rely on.
func (rm *remote) refresh(ctx context.Context, force bool) error {
	rm.refreshMu.Lock()
	defer rm.refreshMu.Unlock()
	if !force && !rm.due() {
		return nil // another caller refreshed while this one waited
	}
	ctx = context.WithoutCancel(ctx)
	err := rm.fetch(ctx)
	rm.mu.Lock()
	defer rm.mu.Unlock()
	now := rm.now()
	rm.lastErr = err
	if err != nil {
		rm.next = now.Add(rm.retry)
		rm.logger.Warn("remote node registry refresh failed; using the embedded catalog and the last good remote one", "url", rm.base, "err", err)
		return err
	}
	rm.lastSuccess = now
	rm.next = now.Add(rm.ttl)
	return nil
}

func (rm *remote) fetch(ctx context.Context) error {
	rm.mu.Lock()
	etag := rm.etag
	haveCatalog := rm.cat != nil
	rm.mu.Unlock()

	data, newETag, notModified, err := rm.get(ctx, rm.base+"/"+IndexFile, MaxIndexSize, etag)
	if err != nil {
		return err
	}
	if notModified && haveCatalog {
		return nil
	}
	idx, err := ParseIndex(data)
	if err != nil {
		return err
	}

	type job struct {
		id      string
		version VersionInfo
	}
	type result struct {
		job
		bundle Bundle
		err    error
	}
	var jobs []job
	for _, n := range idx.Nodes {
		for _, v := range n.Versions {
			jobs = append(jobs, job{n.ID, v})
		}
	}
	results := make([]result, len(jobs))
	sem := make(chan struct{}, fetchConcurrency)
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			b, err := rm.bundle(ctx, j.id, j.version)
			results[i] = result{j, b, err}
		}()
	}
	wg.Wait()

	bundles := map[string]map[string]Bundle{}
	cache := map[string]Bundle{}
	var problems []error
	for _, res := range results {
		if res.err != nil {
			problems = append(problems, res.err)
			continue
		}
		if bundles[res.id] == nil {
			bundles[res.id] = map[string]Bundle{}
		}
		bundles[res.id][res.version.Version] = res.bundle
		cache[res.bundle.Checksum] = res.bundle
	}
	cat := &Catalog{nodes: map[string]Node{}, bundles: bundles}
	for id, vs := range bundles {
		cat.nodes[id] = nodeEntry(vs)
	}
	rm.mu.Lock()
	rm.cat = cat
	rm.etag = newETag
	rm.byChecksum = cache
	rm.mu.Unlock()
	if len(problems) > 0 {
		sort.Slice(problems, func(i, j int) bool { return problems[i].Error() < problems[j].Error() })
		return fmt.Errorf("%d node versions refused: %w", len(problems), errors.Join(problems...))
	}
	return nil
}

// bundle returns a verified version, from the checksum cache or fetched.
func (rm *remote) bundle(ctx context.Context, id string, v VersionInfo) (Bundle, error) {
	rm.mu.Lock()
	b, ok := rm.byChecksum[v.Checksum]
	rm.mu.Unlock()
	if ok && b.Definition.ID == id && b.Definition.Version == v.Version {
		return b, nil
	}
	dir := rm.base + "/" + NodesDir + "/" + url.PathEscape(id) + "/" + url.PathEscape(v.Version) + "/"
	nodeJSON, _, _, err := rm.get(ctx, dir+NodeFile, MaxNodeJSONSize, "")
	if err != nil {
		return Bundle{}, fmt.Errorf("%s %s: %w", id, v.Version, err)
	}
	tmpl, _, _, err := rm.get(ctx, dir+TemplateFile, MaxTemplateSize, "")
	if err != nil {
		return Bundle{}, fmt.Errorf("%s %s: %w", id, v.Version, err)
	}
	b, err = VerifyBundle(nodeJSON, string(tmpl), v.Checksum)
	if err != nil {
		return Bundle{}, fmt.Errorf("%s %s: %w", id, v.Version, err)
	}
	if b.Definition.ID != id || b.Definition.Version != v.Version {
		return Bundle{}, fmt.Errorf("%s %s: %w: node.json says %s %s", id, v.Version, ErrInvalidNode, b.Definition.ID, b.Definition.Version)
	}
	return b, nil
}

// get fetches one file of the remote registry, at most limit bytes. With an
// etag it sends If-None-Match and reports a 304 as notModified.
func (rm *remote) get(ctx context.Context, u string, limit int, etag string) (data []byte, newETag string, notModified bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", false, err
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := rm.client.Do(req)
	if err != nil {
		return nil, "", false, fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified && etag != "" {
		return nil, etag, true, nil
	}
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return nil, "", false, fmt.Errorf("GET %s: status %d", u, resp.StatusCode)
	}
	data, err = io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, "", false, fmt.Errorf("GET %s: %w", u, err)
	}
	if len(data) > limit {
		return nil, "", false, fmt.Errorf("GET %s: larger than %d bytes", u, limit)
	}
	return data, resp.Header.Get("ETag"), false, nil
}
