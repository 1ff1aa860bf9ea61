// Package api is edgeflow's HTTP API: the route table (routes.go), one file
// of handlers per resource, the middleware every request passes through
// (request id, panic recovery, logging, rate limits, authentication, tenancy,
// scopes, CSRF), the decode helper and the one error-code → status table
// (errors.go).
package api

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/auth"
	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/mcp"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/studio"
	"github.com/edgeflow/edgeflow/internal/tracing"
)

// Config is everything the handlers depend on. Services added by later
// issues (deployer, node catalog, ...) are added here as one field each, and
// handlers reach them as s.FieldName.
type Config struct {
	// Store is the database (required).
	Store edgeflow.Store
	// Sealer seals connection credentials and secret variable values (required).
	Sealer *secret.Sealer
	// Logger receives one line per request and every internal error; nil discards.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Limits are the rate limits (ratelimit.Defaults() unless configured).
	Limits ratelimit.Limits
	// RateCounter counts rate-limited requests; nil means in memory. Pass the
	// Store when several replicas share PostgreSQL.
	RateCounter ratelimit.Counter
	// LocalEdge is the local edge: the one serve runs as a child
	// (*localedge.Edge) or a shared one it was pointed at with --edge-url
	// (*localedge.Remote); nil when there is none (--no-edge, or Node or its
	// packages are missing).
	LocalEdge deploysvc.LocalEdge
	// CacheDir holds the npm dependencies of workflows, installed at
	// deploy (content-addressed); empty means the user's cache directory.
	CacheDir string
	// CacheLimit is the size in bytes CacheDir's npm dependencies are kept
	// under (bundle.Input.CacheLimit): 0 means bundle.DefaultCacheLimit, a
	// negative value no limit.
	CacheLimit int64
	// BcryptCost is the password hashing cost; 0 means bcrypt's default.
	BcryptCost int
	// SessionTTL is how long a session lasts; 0 means 30 days.
	SessionTTL time.Duration
	// BodyReadTimeout is how long a request body may take to arrive (408
	// after); 0 means DefaultBodyReadTimeout.
	BodyReadTimeout time.Duration
	// AccessLog chooses which requests get a log line of their own; the
	// zero value logs errors and writes in full and summarizes successful
	// reads (docs/operations.md).
	AccessLog AccessLog
	// EdgeCheck tells whether the edge that deploys and runs workflows
	// answers, for /readyz; nil means probing LocalEdge (edge "off" when
	// there is none).
	EdgeCheck func(ctx context.Context) error
	// SecureCookies marks the session cookie Secure (serve behind HTTPS).
	SecureCookies bool
	// TrustedProxies are the addresses of the reverse proxies whose
	// X-Forwarded-For and X-Forwarded-Proto headers are believed (proxy.go);
	// none by default.
	TrustedProxies []netip.Prefix
	// AuditRetention is how long audit entries are kept (PurgeAudit); 0
	// means DefaultAuditRetention.
	AuditRetention time.Duration
	// SignUp is the sign-up mode: SignUpInvite (the default, ""),
	// SignUpOpen or SignUpClosed (docs/security.md, "Sign-up").
	SignUp string
	// PublicURL is the URL users reach the server at, for the links in
	// invitations; "" means the request's scheme and host.
	PublicURL string
	// Marketplace installs registry nodes per organization and gives the
	// node catalogs and templates versions are validated and compiled
	// with; nil means the embedded registry over Store.
	Marketplace *marketplace.Service
	// CloudflareBaseURL is the Cloudflare API the default Deployer calls for
	// connections of provider "cloudflare"; "" means
	// https://api.cloudflare.com/client/v4.
	CloudflareBaseURL string
	// Deployer deploys, triggers and tracks runs, and browses provider
	// resources (internal/deploy); nil means one built from Store, Sealer,
	// LocalEdge and Marketplace. serve runs its RunRefresher.
	Deployer *deploysvc.Service
	// Studio serves the web application at every path outside /api/ and
	// the operations endpoints (studio.Handler); nil serves none (those
	// paths answer the API's JSON 404).
	Studio *studio.Handler
	// AllowHosts are the hosts the operator opened (serve --allow-hosts)
	// although they are loopback, link-local or private: webhook URLs may
	// name them. nil allows none.
	AllowHosts *netguard.AllowList
	// Resolver resolves the host names of webhook URLs when they are
	// created or changed; nil means net.DefaultResolver.
	Resolver *net.Resolver
	// StreamHeartbeat is how often an idle run stream sends a comment
	// line; 0 means 15 s.
	StreamHeartbeat time.Duration
	// Version is edgeflow's version, as the MCP server names itself.
	Version string
	// MoreMetrics, when set, writes more metrics in the Prometheus text
	// format at the end of GET /metrics (serve's scheduled backups).
	MoreMetrics func(w io.Writer)
	// Streams bound the Server-Sent Events streams open at once and their
	// lifetime (streamlimit.go); the zero value means
	// ratelimit.DefaultStreamLimits(). New lowers the total to half the
	// process's file descriptors.
	Streams ratelimit.StreamLimits
	// Tracing exports a server span per request and the deployer's spans
	// (internal/tracing); nil is off.
	Tracing *tracing.Tracing
	// TraceURLTemplate makes a run's traceUrl of its trace id
	// (EDGEFLOW_TRACE_URL_TEMPLATE, "{traceId}" replaced); "" gives none.
	TraceURLTemplate string
}

// Server is the HTTP API. It implements http.Handler.
type Server struct {
	Config
	limiter *ratelimit.Limiter
	mux     *http.ServeMux
	routes  []Route
	// byPattern finds a route by its mux pattern ("METHOD /path").
	byPattern map[string]*Route
	audit     *auditWriter // the audit log's batch writer (audit.go)
	metrics   *metrics
	openAPI   []byte // the OpenAPI document (openapi.go)

	versions *versionService // version submission (version_service.go)

	hub *runHub // the run streams of this process (runstream.go)

	mcp *mcp.HTTPHandler // the MCP endpoint (mcp.go)

	streams *ratelimit.Streams // the streams open, by user, key, address (streamlimit.go)

	dummy *auth.Dummy // compared against for an unknown email at sign-in

	reads readSummary // successful reads not yet in a summary line (accesslog.go)

	touchMu   sync.Mutex
	lastTouch map[string]time.Time // API key id → last recorded use
}

// New checks cfg and builds the server with every route of routes.go.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil || cfg.Sealer == nil {
		return nil, errors.New("api: Config.Store and Config.Sealer are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SignUp == "" {
		cfg.SignUp = SignUpInvite
	}
	if !ValidSignUpMode(cfg.SignUp) {
		return nil, errors.New(`api: Config.SignUp must be "invite", "open" or "closed"`)
	}
	if cfg.SessionTTL == 0 {
		cfg.SessionTTL = 30 * 24 * time.Hour
	}
	if cfg.AuditRetention == 0 {
		cfg.AuditRetention = DefaultAuditRetention
	}
	if cfg.RateCounter == nil {
		cfg.RateCounter = ratelimit.NewMemory()
	}
	if cfg.Streams == (ratelimit.StreamLimits{}) {
		cfg.Streams = ratelimit.DefaultStreamLimits()
	}
	cfg.Streams = cfg.Streams.WithFileLimit(ratelimit.FileLimit())
	if cfg.Marketplace == nil {
		m, err := marketplace.NewEmbedded(cfg.Store, cfg.Logger)
		if err != nil {
			return nil, err
		}
		cfg.Marketplace = m
	}
	if cfg.Deployer == nil {
		d, err := defaultDeployer(cfg)
		if err != nil {
			return nil, err
		}
		cfg.Deployer = d
	}
	if cfg.Tracing != nil {
		cfg.Deployer.SetTracing(cfg.Tracing)
	}
	s := &Server{
		Config:    cfg,
		limiter:   ratelimit.New(cfg.RateCounter, cfg.Now),
		mux:       http.NewServeMux(),
		lastTouch: map[string]time.Time{},
		dummy:     auth.NewDummy(cfg.BcryptCost),
		streams:   ratelimit.NewStreams(cfg.Streams.Lifetime, nil),
	}
	s.versions = newVersionService(cfg.Store, cfg.Now, s.orgNodes)
	s.dummy.Hash() // made now, so that the first unknown email at sign-in costs what later ones do
	s.routes = s.routeTable()
	s.metrics = newMetrics(s.routes)
	doc, err := buildOpenAPI(s.routes)
	if err != nil {
		return nil, err
	}
	s.openAPI = doc
	if s.mcp, err = newMCP(s); err != nil {
		return nil, err
	}
	s.byPattern = make(map[string]*Route, len(s.routes))
	for i, rt := range s.routes {
		s.mux.Handle(rt.Method+" "+rt.Pattern, s.wrap(rt))
		s.byPattern[rt.Method+" "+rt.Pattern] = &s.routes[i]
	}
	s.audit = newAuditWriter(cfg.Store, cfg.Logger.Error)
	s.hub = newRunHub(cfg.Store, cfg.Logger.Error)
	return s, nil
}

// Routes returns the route table (a copy), for documentation and for the
// tests that go over every route.
func (s *Server) Routes() []Route { return append([]Route(nil), s.routes...) }

// now returns the clock's time in UTC.
func (s *Server) now() time.Time { return s.Now().UTC() }
