package registry_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// remoteServer serves a registry layout over HTTP like a static file host:
// ETag and If-None-Match on every file, a count of requests per path, and a
// switch to fail every request.
type remoteServer struct {
	*httptest.Server
	mu     sync.Mutex
	files  fstest.MapFS
	hits   map[string]int
	failed bool
}

func newRemoteServer(t *testing.T, files fstest.MapFS) *remoteServer {
	t.Helper()
	s := &remoteServer{files: files, hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		p := strings.TrimPrefix(r.URL.Path, "/reg/")
		s.hits[p]++
		if s.failed {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		f, ok := s.files[p]
		if r.Method != http.MethodGet || !ok {
			http.NotFound(w, r)
			return
		}
		sum := sha256.Sum256(f.Data)
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(f.Data)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *remoteServer) count(p string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[p]
}

func (s *remoteServer) set(fn func(files fstest.MapFS)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.files)
}

func (s *remoteServer) setFailed(failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = failed
}

// remoteNode returns the files of a node version derived from the embedded
// slack-message 1.0.0, under a new id and version.
func remoteNode(t *testing.T, id, version, marker string) fstest.MapFS {
	t.Helper()
	src := copyRegistry(t)
	var d map[string]any
	if err := json.Unmarshal(src["nodes/slack-message/1.0.0/node.json"].Data, &d); err != nil {
		t.Fatal(err)
	}
	d["id"], d["version"] = id, version
	d["name"] = "Remote " + id
	def, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := string(src["nodes/slack-message/1.0.0/template.ts"].Data) + "// " + marker + "\n"
	dir := "nodes/" + id + "/" + version + "/"
	return fstest.MapFS{
		dir + "node.json":   &fstest.MapFile{Data: def},
		dir + "template.ts": &fstest.MapFile{Data: []byte(tmpl)},
	}
}

func remoteLayout(t *testing.T, parts ...fstest.MapFS) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, p := range parts {
		for k, v := range p {
			m[k] = v
		}
	}
	rebuildIndex(t, m)
	return m
}

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newRemoteRegistry(t *testing.T, srv *remoteServer, clock *fakeClock) *registry.Registry {
	t.Helper()
	r, err := registry.New(registry.Options{
		RemoteURL:  srv.URL + "/reg/",
		HTTPClient: srv.Client(),
		TTL:        time.Minute,
		RetryAfter: 10 * time.Second,
		Now:        clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRemoteAddsNodesAndVersions(t *testing.T) {
	t.Parallel()
	srv := newRemoteServer(t, remoteLayout(t,
		remoteNode(t, "echo-node", "1.0.0", "echo"),
		remoteNode(t, "slack-message", "3.0.0", "slack three"),
	))
	r := newRemoteRegistry(t, srv, &fakeClock{now: time.Unix(1_700_000_000, 0)})
	ctx := t.Context()

	echo, err := r.Node(ctx, "echo-node")
	if err != nil {
		t.Fatalf("remote node missing: %v", err)
	}
	if echo.Latest != "1.0.0" || echo.Name != "Remote echo-node" {
		t.Errorf("echo-node = %+v", echo)
	}
	slack, err := r.Node(ctx, "slack-message")
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for _, v := range slack.Versions {
		versions = append(versions, v.Version)
	}
	if strings.Join(versions, " ") != "3.0.0 2.2.0 2.1.0 2.0.0 1.0.0" || slack.Latest != "3.0.0" {
		t.Errorf("slack-message versions %v latest %s, want 3.0.0 2.2.0 2.1.0 2.0.0 1.0.0 latest 3.0.0", versions, slack.Latest)
	}
	b, err := r.Bundle(ctx, "slack-message", "3.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Template, "// slack three") {
		t.Errorf("bundle 3.0.0 has the wrong template")
	}
	if len(r.Nodes(ctx)) != len(newEmbedded(t).Nodes(ctx))+1 {
		t.Errorf("catalog does not hold the embedded nodes plus echo-node")
	}
	st, ok := r.Status()
	if !ok || st.LastError != "" || st.Nodes != 2 || st.Versions != 2 {
		t.Errorf("status = %+v, %v", st, ok)
	}
}

func TestRemoteRefusesChecksumMismatch(t *testing.T) {
	t.Parallel()
	files := remoteLayout(t,
		remoteNode(t, "good-node", "1.0.0", "good"),
		remoteNode(t, "evil-node", "1.0.0", "evil"),
		remoteNode(t, "evil-node", "1.1.0", "evil update"),
	)
	// The template served differs from the one the index was built from.
	files["nodes/evil-node/1.1.0/template.ts"].Data = []byte(strings.Replace(string(files["nodes/evil-node/1.1.0/template.ts"].Data),
		"chat.postMessage`", "chat.postMessage?exfiltrate=1`", 1))
	srv := newRemoteServer(t, files)
	r := newRemoteRegistry(t, srv, &fakeClock{now: time.Unix(1_700_000_000, 0)})
	ctx := t.Context()

	if err := r.Refresh(ctx); !errorIs(err, registry.ErrChecksumMismatch) || !strings.Contains(err.Error(), "evil-node 1.1.0") {
		t.Errorf("Refresh err = %v, want a checksum mismatch naming evil-node 1.1.0", err)
	}
	if _, err := r.Bundle(ctx, "evil-node", "1.1.0"); !errorIs(err, registry.ErrVersionNotFound) {
		t.Errorf("the tampered version is served: err = %v", err)
	}
	evil, err := r.Node(ctx, "evil-node")
	if err != nil || evil.Latest != "1.0.0" {
		t.Errorf("evil-node = %+v, %v; want its verified 1.0.0 only", evil, err)
	}
	if _, err := r.Bundle(ctx, "good-node", ""); err != nil {
		t.Errorf("a good remote node was dropped: %v", err)
	}
	if st, _ := r.Status(); !strings.Contains(st.LastError, "checksum mismatch") {
		t.Errorf("status error %q does not report the mismatch", st.LastError)
	}
}

func TestRemoteNeverOverridesEmbeddedVersion(t *testing.T) {
	t.Parallel()
	srv := newRemoteServer(t, remoteLayout(t, remoteNode(t, "slack-message", "1.0.0", "replaced")))
	r := newRemoteRegistry(t, srv, &fakeClock{now: time.Unix(1_700_000_000, 0)})
	b, err := r.Bundle(t.Context(), "slack-message", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := newEmbedded(t).Bundle(t.Context(), "slack-message", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if b.Checksum != embedded.Checksum {
		t.Errorf("a remote version replaced the embedded slack-message 1.0.0")
	}
}

func TestRemoteFailureKeepsCatalog(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	srv := newRemoteServer(t, remoteLayout(t, remoteNode(t, "echo-node", "1.0.0", "echo")))
	srv.setFailed(true)
	r := newRemoteRegistry(t, srv, clock)
	ctx := t.Context()

	// Down from the start: the embedded catalog is served.
	if n := len(r.Nodes(ctx)); n != len(newEmbedded(t).Nodes(ctx)) {
		t.Errorf("with the remote down the catalog has %d nodes", n)
	}
	if st, _ := r.Status(); !strings.Contains(st.LastError, "status 503") {
		t.Errorf("status error = %q", st.LastError)
	}
	// Not retried before RetryAfter.
	r.Nodes(ctx)
	if got := srv.count("index.json"); got != 1 {
		t.Errorf("index fetched %d times within the retry delay, want 1", got)
	}
	// Up again after the retry delay: the remote node appears.
	srv.setFailed(false)
	clock.Advance(11 * time.Second)
	if _, err := r.Node(ctx, "echo-node"); err != nil {
		t.Fatalf("remote node missing after recovery: %v", err)
	}
	// Down again after the TTL: the last good remote catalog is kept.
	srv.setFailed(true)
	clock.Advance(2 * time.Minute)
	if _, err := r.Node(ctx, "echo-node"); err != nil {
		t.Errorf("the last good remote catalog was dropped when the remote failed: %v", err)
	}
	if _, err := r.Node(ctx, "slack-message"); err != nil {
		t.Errorf("embedded node missing: %v", err)
	}
}

func TestRemoteCatalogIsCached(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	srv := newRemoteServer(t, remoteLayout(t, remoteNode(t, "echo-node", "1.0.0", "echo")))
	r := newRemoteRegistry(t, srv, clock)
	ctx := t.Context()

	for range 3 {
		r.Nodes(ctx)
	}
	if got := srv.count("index.json"); got != 1 {
		t.Errorf("index fetched %d times within the TTL, want 1", got)
	}
	// After the TTL the index is revalidated (304) and nothing else fetched.
	clock.Advance(61 * time.Second)
	r.Nodes(ctx)
	if got := srv.count("index.json"); got != 2 {
		t.Errorf("index fetched %d times after the TTL, want 2", got)
	}
	if got := srv.count("nodes/echo-node/1.0.0/template.ts"); got != 1 {
		t.Errorf("template fetched %d times, want 1", got)
	}
	// A new version: only its files are fetched; the known one comes from
	// the checksum cache.
	update := remoteNode(t, "echo-node", "1.1.0", "echo 1.1")
	srv.set(func(files fstest.MapFS) {
		for k, v := range update {
			files[k] = v
		}
		rebuildIndex(t, files)
	})
	clock.Advance(61 * time.Second)
	n, err := r.Node(ctx, "echo-node")
	if err != nil || n.Latest != "1.1.0" {
		t.Fatalf("echo-node = %+v, %v; want latest 1.1.0", n, err)
	}
	if got := srv.count("nodes/echo-node/1.0.0/template.ts"); got != 1 {
		t.Errorf("unchanged version refetched: %d fetches", got)
	}
	if got := srv.count("nodes/echo-node/1.1.0/template.ts"); got != 1 {
		t.Errorf("new version fetched %d times, want 1", got)
	}
}

func TestRemoteURLValidation(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"ftp://x", "registry.example.com", "https://x/reg?token=1", "http://"} {
		if _, err := registry.New(registry.Options{RemoteURL: u}); err == nil {
			t.Errorf("New accepted the registry URL %q", u)
		}
	}
}

// TestAttackRemoteRegistryOnLoopback: a registry URL (or a redirect from
// one) that points at this machine is not fetched by the default client.
func TestAttackRemoteRegistryOnLoopback(t *testing.T) {
	t.Parallel()
	srv := newRemoteServer(t, remoteLayout(t, remoteNode(t, "echo-node", "1.0.0", "echo")))
	r, err := registry.New(registry.Options{RemoteURL: srv.URL + "/reg/"})
	if err != nil {
		t.Fatal(err)
	}
	err = r.Refresh(t.Context())
	var refused *netguard.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("Refresh = %v, want a netguard refusal", err)
	}
	if n := srv.count(registry.IndexFile); n != 0 {
		t.Errorf("the loopback registry got %d requests", n)
	}
}

// TestLegitRemoteRegistryAllowed: a registry on a host the operator allows
// (here 127.0.0.42) is fetched through the guarded client.
func TestLegitRemoteRegistryAllowed(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.42:0")
	if err != nil {
		testenv.Missing(t, "cannot listen on 127.0.0.42: %v", err)
	}
	srv := newRemoteServer(t, remoteLayout(t, remoteNode(t, "echo-node", "1.0.0", "echo")))
	srv.Server.Close()
	srv.Server = &httptest.Server{Listener: ln, Config: &http.Server{Handler: srv.Config.Handler}}
	srv.Start()
	allow, err := netguard.ParseAllowList("127.0.0.42")
	if err != nil {
		t.Fatal(err)
	}
	r, err := registry.New(registry.Options{RemoteURL: srv.URL + "/reg/", HTTPClient: netguard.New(allow).Client(registry.DefaultFetchTimeout)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Node(t.Context(), "echo-node"); err != nil {
		t.Fatalf("remote node missing: %v", err)
	}
}
