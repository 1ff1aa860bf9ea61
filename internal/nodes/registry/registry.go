// Package registry is edgeflow's marketplace node registry: the embedded
// catalog of integration nodes (verified against its index on load), an
// optional remote registry that adds nodes and versions (checksums
// verified, catalog cached), semver ordering, and the bundles that install
// snapshots into the database. docs/registry.md describes the format.
package registry

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	embedded "github.com/edgeflow/edgeflow/registry"
)

// Defaults of Options.
const (
	DefaultTTL          = 5 * time.Minute
	DefaultRetryAfter   = 30 * time.Second
	DefaultFetchTimeout = 15 * time.Second
)

// Options configure a Registry. The zero value gives the embedded catalog
// alone.
type Options struct {
	// FS is the registry directory (index.json and nodes/); nil means the
	// registry embedded in the binary.
	FS fs.FS
	// RemoteURL is the HTTP(S) base of a remote registry serving the same
	// layout (EDGEFLOW_REGISTRY_URL); empty disables it.
	RemoteURL string
	// HTTPClient fetches from the remote; nil means a client with a
	// DefaultFetchTimeout timeout that refuses loopback, link-local and
	// private addresses (internal/netguard; edgeflow serve passes one with
	// its --allow-hosts list).
	HTTPClient *http.Client
	// TTL is how long a fetched remote catalog is used before it is fetched
	// again; 0 means DefaultTTL.
	TTL time.Duration
	// RetryAfter is how long a failed remote fetch is not retried, the last
	// good remote catalog staying in use; 0 means min(TTL, DefaultRetryAfter).
	RetryAfter time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives remote failures; nil discards them.
	Logger *slog.Logger
}

// Registry is the catalog of marketplace nodes: the embedded (or given)
// registry, plus the remote registry's verified nodes when configured. It
// is safe for concurrent use.
type Registry struct {
	local  *Catalog
	remote *remote

	merged atomic.Pointer[Catalog]
}

// New loads and verifies the local registry (see Load for its errors) and
// configures the remote one. It does not contact the remote: the first call
// that reads the catalog does. An invalid RemoteURL is an error.
func New(opts Options) (*Registry, error) {
	fsys := opts.FS
	if fsys == nil {
		fsys = embedded.FS()
	}
	local, err := Load(fsys)
	if err != nil {
		return nil, err
	}
	r := &Registry{local: local}
	r.merged.Store(local)
	if opts.RemoteURL != "" {
		rem, err := newRemote(opts)
		if err != nil {
			return nil, err
		}
		r.remote = rem
	}
	return r, nil
}

// Nodes returns the catalog, sorted by id. A remote registry that cannot be
// reached or serves bad data never removes embedded nodes: its last good
// catalog (or none) is used and the failure is logged and reported by
// Status.
func (r *Registry) Nodes(ctx context.Context) []Node {
	return r.current(ctx).Nodes()
}

// Node returns one catalog entry, or ErrNodeNotFound.
func (r *Registry) Node(ctx context.Context, id string) (Node, error) {
	c := r.current(ctx)
	n, ok := c.nodes[id]
	if !ok {
		return Node{}, fmt.Errorf("%w: %q", ErrNodeNotFound, id)
	}
	return cloneNode(n), nil
}

// Details is a catalog entry with the definition of its latest version.
type Details struct {
	Node
	// Definition is the latest version's node.json.
	Definition json.RawMessage `json:"definition"`
}

// Details returns a node's entry and latest definition, or ErrNodeNotFound.
func (r *Registry) Details(ctx context.Context, id string) (Details, error) {
	c := r.current(ctx)
	n, ok := c.nodes[id]
	if !ok {
		return Details{}, fmt.Errorf("%w: %q", ErrNodeNotFound, id)
	}
	b, err := c.Bundle(id, "")
	if err != nil {
		return Details{}, err
	}
	return Details{Node: cloneNode(n), Definition: b.NodeJSON}, nil
}

// Bundle returns a node version's definition, template and checksum, to
// snapshot at install time. version "" means the latest. Errors:
// ErrNodeNotFound, ErrVersionNotFound. The returned bundle shares memory
// with the catalog: treat it as read-only.
func (r *Registry) Bundle(ctx context.Context, id, version string) (Bundle, error) {
	return r.current(ctx).Bundle(id, version)
}

// Refresh fetches the remote registry now, whatever the TTL, and returns
// its failure if any (the catalog then keeps the last good remote nodes).
// Without a remote it does nothing.
func (r *Registry) Refresh(ctx context.Context) error {
	if r.remote == nil {
		return nil
	}
	err := r.remote.refresh(ctx, true)
	r.merge()
	return err
}

// RemoteStatus describes the remote registry for operators.
type RemoteStatus struct {
	URL         string    `json:"url"`
	LastSuccess time.Time `json:"lastSuccess,omitzero"`
	LastError   string    `json:"lastError,omitempty"`
	Nodes       int       `json:"nodes"`
	Versions    int       `json:"versions"`
}

// Status reports the remote registry's state; ok is false when none is
// configured.
func (r *Registry) Status() (status RemoteStatus, ok bool) {
	if r.remote == nil {
		return RemoteStatus{}, false
	}
	return r.remote.status(), true
}

func (r *Registry) current(ctx context.Context) *Catalog {
	if r.remote != nil && r.remote.due() {
		_ = r.remote.refresh(ctx, false)
		r.merge()
	}
	return r.merged.Load()
}

// merge layers the remote catalog over the local one: remote nodes and
// versions are added; a version both have keeps the local files.
func (r *Registry) merge() {
	rc := r.remote.catalog()
	if rc == nil {
		r.merged.Store(r.local)
		return
	}
	all := map[string]map[string]Bundle{}
	for id, vs := range r.local.bundles {
		all[id] = map[string]Bundle{}
		for v, b := range vs {
			all[id][v] = b
		}
	}
	for id, vs := range rc.bundles {
		if all[id] == nil {
			all[id] = map[string]Bundle{}
		}
		for v, b := range vs {
			if lb, ok := all[id][v]; ok {
				if lb.Checksum != b.Checksum {
					r.remote.logger.Warn("remote registry has different files for an embedded node version; keeping the embedded one",
						"node", id, "version", v, "embedded", lb.Checksum, "remote", b.Checksum)
				}
				continue
			}
			all[id][v] = b
		}
	}
	c := &Catalog{nodes: map[string]Node{}, bundles: all}
	for id, vs := range all {
		c.nodes[id] = nodeEntry(vs)
	}
	r.merged.Store(c)
}

// ValidateRemoteURL checks an EDGEFLOW_REGISTRY_URL value: an absolute
// http or https URL without query or fragment.
func ValidateRemoteURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("registry URL %q: %v", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("registry URL %q must be an absolute http or https URL", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("registry URL %q must not have a query or fragment", s)
	}
	return nil
}
