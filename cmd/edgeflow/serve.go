package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/edgeflow/edgeflow/internal/backup"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	neturl "net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/studio"
	"github.com/edgeflow/edgeflow/internal/tracing"
	"github.com/edgeflow/edgeflow/internal/webhook"
	"github.com/edgeflow/edgeflow/web"
)

// sqliteFileName is the database file inside the data directory.
const sqliteFileName = "edgeflow.db"

// envOr returns the environment variable name, or def when it is unset or empty.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func envBool(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// storeFlags are the flags serve and admin share to reach the database.
type storeFlags struct {
	dataDir     string
	databaseURL string
	noReadCache bool
}

func (f *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dataDir, "data-dir", envOr("EDGEFLOW_DATA_DIR", ".edgeflow"),
		"directory for the SQLite database, the secret key and the local edge's state (env EDGEFLOW_DATA_DIR)")
	fs.StringVar(&f.databaseURL, "database-url", os.Getenv("EDGEFLOW_DATABASE_URL"),
		"postgres://... selects PostgreSQL; empty means SQLite in the data dir (env EDGEFLOW_DATABASE_URL)")
	fs.BoolVar(&f.noReadCache, "no-read-cache", envBool("EDGEFLOW_NO_READ_CACHE"),
		"SQLite: turn off the in-process read cache of workflow lists, rows and API keys (env EDGEFLOW_NO_READ_CACHE=1)")
}

func (f *storeFlags) postgres() bool {
	return strings.HasPrefix(f.databaseURL, "postgres://") || strings.HasPrefix(f.databaseURL, "postgresql://")
}

// open creates the data dir and opens the store, applying migrations.
func (f *storeFlags) open(ctx context.Context, logger *slog.Logger) (edgeflow.Store, error) {
	if err := os.MkdirAll(f.dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	switch {
	case f.postgres():
		return openPostgres(ctx, f.databaseURL, logger)
	case f.databaseURL != "":
		return nil, fmt.Errorf("--database-url must start with postgres:// (leave it empty for SQLite)")
	}
	st, err := sqlite.Open(ctx, filepath.Join(f.dataDir, sqliteFileName), sqlite.Options{Logger: logger, NoReadCache: f.noReadCache})
	if err != nil {
		return nil, err
	}
	return st, nil
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: edgeflow serve [--addr 127.0.0.1:8080] [--data-dir DIR] [--database-url URL] [--no-edge | --edge-url URL [--edge-token-file FILE]] [--secure-cookies] [--trusted-proxies CIDRS] [--audit-retention DURATION] [--signup invite|open|closed] [--public-url URL] [--rate-limits SPEC] [--stream-limits SPEC] [--allow-hosts LIST] [--node PATH] [--cloudflare-api-url URL] [--log-level LEVEL] [--access-log MODE] [--pprof-addr 127.0.0.1:PORT]")
		fs.PrintDefaults()
		printExamples(fs.Output(), "edgeflow serve", "edgeflow serve --addr 0.0.0.0:8080 --database-url postgres://edgeflow@db/edgeflow --public-url https://flows.example.com")
	}
	var sf storeFlags
	sf.register(fs)
	addr := fs.String("addr", envOr("EDGEFLOW_ADDR", "127.0.0.1:8080"), "listen address (env EDGEFLOW_ADDR)")
	noEdge := fs.Bool("no-edge", envBool("EDGEFLOW_NO_EDGE"), "do not start the local edge (env EDGEFLOW_NO_EDGE=1)")
	nodePath := fs.String("node", os.Getenv(localedge.EnvNode),
		"the node executable the local edge runs on, Node.js 22 or newer; default: the one make installs into edge/node-runtime, else node from PATH (env EDGEFLOW_NODE)")
	edgeURL := fs.String("edge-url", os.Getenv("EDGEFLOW_EDGE_URL"),
		"base URL (http://HOST:PORT) of a shared local edge run by `edgeflow edge`; serve then starts no edge of its own (env EDGEFLOW_EDGE_URL)")
	edgeTokenFile := fs.String("edge-token-file", os.Getenv("EDGEFLOW_EDGE_TOKEN_FILE"),
		"file holding the shared edge's token (the token file `edgeflow edge` prints); else the token is read from env EDGEFLOW_EDGE_TOKEN (env EDGEFLOW_EDGE_TOKEN_FILE)")
	secureCookies := fs.Bool("secure-cookies", envBool("EDGEFLOW_SECURE_COOKIES"),
		"mark the session cookie Secure, for a server behind HTTPS (env EDGEFLOW_SECURE_COOKIES=1)")
	trustedText := fs.String("trusted-proxies", os.Getenv("EDGEFLOW_TRUSTED_PROXIES"),
		"addresses or CIDRs of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, comma separated; none by default (env EDGEFLOW_TRUSTED_PROXIES)")
	retentionText := fs.String("audit-retention", envOr("EDGEFLOW_AUDIT_RETENTION", "365d"),
		"how long audit log entries are kept: days (365d) or a duration (720h) (env EDGEFLOW_AUDIT_RETENTION)")
	signUp := fs.String("signup", envOr("EDGEFLOW_SIGNUP", api.SignUpInvite),
		"who may sign up: invite (with an invitation, or the setup link while no user exists), open (anyone) or closed (only the setup link) (env EDGEFLOW_SIGNUP)")
	publicURL := fs.String("public-url", os.Getenv("EDGEFLOW_PUBLIC_URL"),
		"the URL users reach the server at, for the setup link and invitation links; default the listen address (env EDGEFLOW_PUBLIC_URL)")
	limitsText := fs.String("rate-limits", os.Getenv("EDGEFLOW_RATE_LIMITS"),
		"per-minute limits, e.g. global=200,write=30,deploy=10,verify=10,ir=120, or off (env EDGEFLOW_RATE_LIMITS)")
	streamsText := fs.String("stream-limits", os.Getenv("EDGEFLOW_STREAM_LIMITS"),
		"Server-Sent Events streams open at once and their lifetime, e.g. user=32,key=16,address=64,total=4096,lifetime=30m, or off (env EDGEFLOW_STREAM_LIMITS)")
	registryURL := fs.String("registry-url", os.Getenv("EDGEFLOW_REGISTRY_URL"),
		"HTTP base of a node registry that adds or updates marketplace nodes (env EDGEFLOW_REGISTRY_URL)")
	allowText := fs.String("allow-hosts", os.Getenv("EDGEFLOW_ALLOW_HOSTS"),
		"host names, IPs or CIDRs that worker code and fetches of user-chosen URLs may reach although they are loopback or private, comma separated (env EDGEFLOW_ALLOW_HOSTS)")
	cloudflareURL := fs.String("cloudflare-api-url", os.Getenv("EDGEFLOW_CLOUDFLARE_API_URL"),
		"base URL of the Cloudflare API that connections of provider cloudflare call, for a proxy or a Cloudflare-compatible API; default https://api.cloudflare.com/client/v4 (env EDGEFLOW_CLOUDFLARE_API_URL)")
	logLevel := fs.String("log-level", envOr("EDGEFLOW_LOG_LEVEL", "info"), "debug, info, warn or error (env EDGEFLOW_LOG_LEVEL)")
	accessLogText := fs.String("access-log", os.Getenv("EDGEFLOW_ACCESS_LOG"),
		"summary (errors and writes in full, successful reads counted into one line a minute), all (every request), or sample:N (summary, plus one successful read in N in full); default summary, all with --log-level debug (env EDGEFLOW_ACCESS_LOG)")
	npmCacheText := fs.String("npm-cache-limit", envOr("EDGEFLOW_NPM_CACHE_LIMIT", "2GiB"),
		"size the npm dependency cache in the data dir is kept under, least recently used sets removed first: e.g. 2GiB, 500MB, or unlimited (env EDGEFLOW_NPM_CACHE_LIMIT)")
	pprofAddr := fs.String("pprof-addr", os.Getenv("EDGEFLOW_PPROF_ADDR"),
		"serve Go's runtime profiles (/debug/pprof/) on this loopback address, for profiling; off by default (env EDGEFLOW_PPROF_ADDR)")
	var bf backupFlags
	bf.register(fs)
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	scheduled, err := bf.parse()
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: %v\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "edgeflow serve: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	limits, err := ratelimit.Parse(*limitsText)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: --rate-limits: %v\n", err)
		return 2
	}
	streams, err := ratelimit.ParseStreamLimits(*streamsText)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: --stream-limits: %v\n", err)
		return 2
	}
	trusted, err := api.ParseTrustedProxies(*trustedText)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: --trusted-proxies: %v\n", err)
		return 2
	}
	npmCacheLimit, err := parseByteSize(*npmCacheText)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: --npm-cache-limit: %v\n", err)
		return 2
	}
	retention, err := parseRetention(*retentionText)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: --audit-retention: %v\n", err)
		return 2
	}
	if !api.ValidSignUpMode(*signUp) {
		fmt.Fprintf(stderr, "edgeflow serve: --signup must be invite, open or closed, not %q\n", *signUp)
		return 2
	}
	if *publicURL != "" {
		if err := checkBaseURL(*publicURL); err != nil {
			fmt.Fprintf(stderr, "edgeflow serve: --public-url: %v\n", err)
			return 2
		}
	}
	if *cloudflareURL != "" {
		if err := checkBaseURL(*cloudflareURL); err != nil {
			fmt.Fprintf(stderr, "edgeflow serve: --cloudflare-api-url: %v\n", err)
			return 2
		}
	}
	if *pprofAddr != "" {
		if err := checkPprofAddr(*pprofAddr); err != nil {
			fmt.Fprintf(stderr, "edgeflow serve: --pprof-addr: %v\n", err)
			return 2
		}
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: --log-level: %v\n", err)
		return 2
	}
	accessLog, err := api.ParseAccessLog(*accessLogText)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: --access-log: %v\n", err)
		return 2
	}
	if *accessLogText == "" && level <= slog.LevelDebug {
		accessLog.Mode = api.AccessLogAll
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	if *registryURL != "" {
		if err := registry.ValidateRemoteURL(*registryURL); err != nil {
			fmt.Fprintf(stderr, "edgeflow serve: --registry-url: %v\n", err)
			return 2
		}
	}
	allow, err := netguard.ParseAllowList(*allowText)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: --allow-hosts: %v\n", err)
		return 2
	}
	traceCfg, err := tracing.ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow serve: %v\n", err)
		return 2
	}
	traceURL := os.Getenv("EDGEFLOW_TRACE_URL_TEMPLATE")
	if traceURL != "" && !validTraceURLTemplate(traceURL) {
		fmt.Fprintf(stderr, "edgeflow serve: EDGEFLOW_TRACE_URL_TEMPLATE must be an http or https URL holding {traceId}, not %q\n", traceURL)
		return 2
	}
	var remote *localedge.Remote
	if *edgeURL != "" {
		if remote, err = remoteEdge(*edgeURL, *edgeTokenFile, *noEdge); err != nil {
			fmt.Fprintf(stderr, "edgeflow serve: %v\n", err)
			return 2
		}
	} else if *edgeTokenFile != "" {
		fmt.Fprintln(stderr, "edgeflow serve: --edge-token-file needs --edge-url")
		return 2
	}
	tuneGC()
	if *pprofAddr != "" {
		_, stop, err := startPprof(*pprofAddr, logger)
		if err != nil {
			fmt.Fprintf(stderr, "edgeflow serve: %v\n", err)
			return 1
		}
		defer stop()
	}
	cfg := serveConfig{remoteEdge: remote, store: sf, addr: *addr, noEdge: *noEdge, secureCookies: *secureCookies, limits: limits, streams: streams, registryURL: *registryURL, allowHosts: allow,
		accessLog: accessLog, trustedProxies: trusted, auditRetention: retention, signUp: *signUp, publicURL: *publicURL,
		cloudflareURL: strings.TrimSuffix(*cloudflareURL, "/"), npmCacheLimit: npmCacheLimit, nodePath: *nodePath, backups: scheduled,
		tracing: traceCfg, traceURLTemplate: traceURL}
	if err := serve(ctx, cfg, logger, stdout); err != nil {
		logger.Error("edgeflow serve stopped", "error", err.Error())
		return 1
	}
	return 0
}

// serveGCPercent is the garbage collector's target of serve unless GOGC is
// set: the server's live heap is small (tens of MB) and every request
// allocates afresh (a version submission about 0.5 MB), so collecting at 5x
// the live heap instead of 2x cuts the collector's CPU by more than half for
// a few tens of MB of memory (docs/operations.md).
const serveGCPercent = 400

// tuneGC applies serveGCPercent when the environment does not choose (GOGC).
func tuneGC() {
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(serveGCPercent)
	}
}

type serveConfig struct {
	store  storeFlags
	addr   string
	noEdge bool
	// nodePath is the node executable of the embedded local edge (--node); empty lets localedge.FindNode choose.
	nodePath string
	// remoteEdge is the shared edge of --edge-url; serve then starts none.
	remoteEdge *localedge.Remote
	// secureCookies marks the session cookie Secure (HTTPS in front).
	secureCookies bool
	limits        ratelimit.Limits
	// streams bound the SSE streams open at once (api.Config.Streams).
	streams ratelimit.StreamLimits
	// registryURL is the optional remote node registry (EDGEFLOW_REGISTRY_URL).
	registryURL string
	// signUp is the sign-up mode (api.SignUp*); publicURL the base of links.
	signUp, publicURL string
	// cloudflareURL replaces https://api.cloudflare.com/client/v4 ("": that one).
	cloudflareURL string
	// allowHosts opens private or loopback hosts to worker code and to fetches of user-chosen URLs.
	allowHosts *netguard.AllowList
	// accessLog chooses which requests get a log line of their own (--access-log).
	accessLog api.AccessLog
	// trustedProxies are the proxies whose forwarding headers are believed (--trusted-proxies).
	trustedProxies []netip.Prefix
	// auditRetention is how long audit entries are kept (--audit-retention).
	auditRetention time.Duration
	// npmCacheLimit bounds the npm dependency cache in bytes, -1 for none (--npm-cache-limit).
	npmCacheLimit int64
	// backups are the scheduled backups (--backup-dir), nil for none.
	backups *backup.Schedule
	// tracing is what the OTEL_* variables say (off without an endpoint);
	// traceURLTemplate is EDGEFLOW_TRACE_URL_TEMPLATE.
	tracing          tracing.Config
	traceURLTemplate string
}

func serve(ctx context.Context, cfg serveConfig, logger *slog.Logger, stdout io.Writer) error {
	if err := os.MkdirAll(cfg.store.dataDir, 0o700); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	key, created, err := secret.LoadOrCreateKey(os.Getenv("EDGEFLOW_SECRET_KEY"), cfg.store.dataDir)
	if err != nil {
		return fmt.Errorf("EDGEFLOW_SECRET_KEY: %w", err)
	}
	if created {
		logger.Info("generated a new secret key", "file", filepath.Join(cfg.store.dataDir, secret.KeyFileName))
		if cfg.store.postgres() {
			logger.Warn("with PostgreSQL, every replica needs the same key: set EDGEFLOW_SECRET_KEY")
		}
	}
	sealer, err := secret.New(key)
	if err != nil {
		return err
	}
	store, err := cfg.store.open(ctx, logger.With("component", "store"))
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer store.Close()
	if err := checkSecretKey(ctx, store, sealer); err != nil {
		return err
	}

	var edge deploy.LocalEdge
	switch {
	case cfg.remoteEdge != nil:
		if err := checkRemoteEdge(ctx, cfg.remoteEdge, logger); err != nil {
			return err
		}
		edge = cfg.remoteEdge
	case !cfg.noEdge:
		child := startLocalEdge(ctx, localedge.Options{NodePath: cfg.nodePath, DataDir: filepath.Join(cfg.store.dataDir, edgeDirName), AllowHosts: cfg.allowHosts, SecretKey: key}, logger)
		if child != nil {
			defer child.Close()
			edge = child
		}
	}
	if ctx.Err() != nil {
		return nil
	}

	reg, err := registry.New(registry.Options{RemoteURL: cfg.registryURL, Logger: logger.With("component", "registry"),
		HTTPClient: netguard.New(cfg.allowHosts).Client(registry.DefaultFetchTimeout)})
	if err != nil {
		return fmt.Errorf("node registry: %w", err)
	}
	market, err := marketplace.New(marketplace.Options{Store: store, Registry: reg, Logger: logger.With("component", "marketplace")})
	if err != nil {
		return err
	}
	ui, err := studioHandler(logger)
	if err != nil {
		return err
	}
	traces, err := tracing.New(ctx, cfg.tracing)
	if err != nil {
		return fmt.Errorf("OpenTelemetry tracing: %w", err)
	}
	if traces.Enabled() {
		logger.Info("tracing: exporting OpenTelemetry spans", "endpoint", cfg.tracing.Endpoint, "protocol", cfg.tracing.Protocol,
			"serviceName", cfg.tracing.ServiceName)
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := traces.Shutdown(sctx); err != nil {
			logger.Warn("tracing: export the last spans", "error", err.Error())
		}
	}()
	apiCfg := api.Config{Store: store, Sealer: sealer, Logger: logger, Limits: cfg.limits, SecureCookies: cfg.secureCookies, LocalEdge: edge, Marketplace: market,
		AccessLog: cfg.accessLog, CacheDir: filepath.Join(cfg.store.dataDir, "cache"), CacheLimit: cfg.npmCacheLimit, Studio: ui,
		TrustedProxies: cfg.trustedProxies, AuditRetention: cfg.auditRetention, SignUp: cfg.signUp, PublicURL: cfg.publicURL,
		AllowHosts: cfg.allowHosts, CloudflareBaseURL: cfg.cloudflareURL, Version: version,
		Tracing: traces, TraceURLTemplate: cfg.traceURLTemplate,
		// At most half the file descriptors go to streams (the Go runtime
		// raised the soft limit to the hard one at start).
		Streams: cfg.streams.WithFileLimit(ratelimit.FileLimit())}
	if cfg.store.postgres() {
		apiCfg.RateCounter = store // limits hold across replicas
	}
	if cfg.backups != nil {
		cfg.backups.Source = backupSource(cfg.store, store, edge)
		cfg.backups.Logger = logger.With("component", "backup")
		apiCfg.MoreMetrics = cfg.backups.WriteMetrics
	}
	srv, err := api.New(apiCfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	// Keep non-final runs up to date in the background until shutdown.
	refreshCtx, stopRefresh := context.WithCancel(context.Background())
	refreshDone := make(chan struct{})
	go func() {
		defer close(refreshDone)
		srv.Deployer.RunRefresher(refreshCtx, deploy.RefresherOptions{})
	}()
	// Delete sessions that expired or were revoked, at start and hourly.
	purgeDone := make(chan struct{})
	go func() {
		defer close(purgeDone)
		purgeSessions(refreshCtx, store, logger, time.Hour, time.Now)
	}()
	// Delete audit entries older than the retention, at start and hourly.
	auditDone := make(chan struct{})
	go func() {
		defer close(auditDone)
		purgeAudit(refreshCtx, srv, logger, time.Hour)
	}()
	// Delete runs past their organization's retention, in small batches,
	// at start and every 10 minutes.
	pruneDone := make(chan struct{})
	go func() {
		defer close(pruneDone)
		pruneRunsLoop(refreshCtx, store, logger, 10*time.Minute, time.Now, srv.Deployer.DeleteInstancesLater)
	}()
	// Deliver webhook messages (claimed per delivery across replicas), and
	// drop run events older than an hour every 10 minutes.
	webhooksDone := make(chan struct{})
	go func() {
		defer close(webhooksDone)
		d := &webhook.Dispatcher{Store: store, Sealer: sealer, Guard: netguard.New(cfg.allowHosts), Logger: logger.With("component", "webhooks"),
			Tracing: traces}
		d.Run(refreshCtx, time.Second)
	}()
	eventsDone := make(chan struct{})
	go func() {
		defer close(eventsDone)
		pruneEventsLoop(refreshCtx, store, logger, 10*time.Minute, time.Now)
	}()
	// Write the summary of successful reads every period, and at shutdown.
	flushDone := make(chan struct{})
	go func() {
		defer close(flushDone)
		flushAccessLog(refreshCtx, srv, cfg.accessLog.SummaryEvery)
	}()
	// Scheduled backups (--backup-dir), one replica at a time.
	backupsDone := make(chan struct{})
	go func() {
		defer close(backupsDone)
		if cfg.backups != nil {
			cfg.backups.Run(refreshCtx)
		}
	}()
	defer func() {
		stopRefresh()
		<-refreshDone
		<-backupsDone
		<-purgeDone
		<-auditDone
		<-pruneDone
		<-webhooksDone
		<-eventsDone
		<-flushDone
		srv.FlushAccessLog()
		srv.Close() // stores the audit entries still queued
	}()
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	hs.RegisterOnShutdown(srv.CloseStreams) // run streams end, so that shutdown need not wait for them
	url := "http://" + ln.Addr().String()
	logger.Info("edgeflow listening", "url", url, "rateLimits", cfg.limits.String(), "streamLimits", srv.Streams.String(), "fileLimit", ratelimit.FileLimit(), "localEdge", edge != nil, "sharedEdge", cfg.remoteEdge != nil,
		"accessLog", cfg.accessLog.String())
	fmt.Fprintf(stdout, "edgeflow listening on %s\n", url)
	if err := printSetupLink(ctx, store, cmp.Or(cfg.publicURL, url), stdout); err != nil && ctx.Err() == nil {
		return err // (a stop signal during the check is a stop like any other)
	}

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		logger.Warn("shutdown", "error", err.Error())
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// remoteEdge checks --edge-url and finds the shared edge's token:
// --edge-token-file, else EDGEFLOW_EDGE_TOKEN.
func remoteEdge(rawURL, tokenFile string, noEdge bool) (*localedge.Remote, error) {
	if noEdge {
		return nil, errors.New("--edge-url and --no-edge exclude each other")
	}
	if _, err := localedge.ParseBaseURL(rawURL); err != nil {
		return nil, fmt.Errorf("--edge-url %w", err)
	}
	token := os.Getenv("EDGEFLOW_EDGE_TOKEN")
	if tokenFile != "" {
		raw, err := os.ReadFile(tokenFile)
		if err != nil {
			return nil, fmt.Errorf("--edge-token-file: %w", err)
		}
		if token = strings.TrimSpace(string(raw)); token == "" {
			return nil, fmt.Errorf("--edge-token-file: %s is empty", tokenFile)
		}
	}
	if strings.TrimSpace(token) == "" {
		return nil, errors.New("--edge-url needs the edge's token: --edge-token-file FILE (the token file `edgeflow edge` prints) or EDGEFLOW_EDGE_TOKEN")
	}
	return localedge.NewRemote(rawURL, token)
}

// checkRemoteEdge asks the shared edge once at start: a token it refuses
// stops serve (every deploy would fail); an edge that cannot be reached
// does not, since it may start later, and /readyz answers 503 naming the
// edge until it answers.
func checkRemoteEdge(ctx context.Context, edge *localedge.Remote, logger *slog.Logger) error {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := edge.Check(cctx)
	switch {
	case err == nil:
		logger.Info("using the shared local edge", "url", edge.BaseURL(), "account", edge.AccountID())
	case errors.Is(err, localedge.ErrUnauthorized):
		return fmt.Errorf("--edge-url: %w", err)
	default:
		logger.Warn("the shared local edge does not answer yet; /readyz reports it down until it does", "url", edge.BaseURL(), "error", err.Error())
	}
	return nil
}

// startLocalEdge starts the embedded local edge, or logs why it cannot and
// returns nil: edgeflow works without it (Cloudflare connections only).
func startLocalEdge(ctx context.Context, opts localedge.Options, logger *slog.Logger) *localedge.Edge {
	dataDir := opts.DataDir
	warn := func(reason string, args ...any) *localedge.Edge {
		logger.Warn("local edge not started: "+reason+"; connections with provider local will not work (use --no-edge to silence this)", args...)
		return nil
	}
	script, err := localedge.FindScript()
	if err != nil {
		return warn("edge/server.mjs not found (run from the repository or set EDGEFLOW_EDGE_DIR)", "error", err.Error())
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules")); err != nil {
		return warn("the edge's npm packages are missing: run npm ci in " + filepath.Dir(script))
	}
	node, err := localedge.FindNode(ctx, opts.NodePath, script)
	if err != nil {
		return warn("no Node.js it can run on", "error", err.Error())
	}
	opts.NodePath = node
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return warn("cannot create its data dir", "error", err.Error())
	}
	opts.Script, opts.Logger = script, logger.With("component", "edge")
	edge, err := localedge.Start(ctx, opts)
	if err != nil {
		return warn("it failed to start", "error", err.Error())
	}
	logger.Info("local edge running", "api", edge.APIBaseURL(), "workers", edge.WorkersBaseURL())
	return edge
}

func openPostgres(ctx context.Context, url string, logger *slog.Logger) (edgeflow.Store, error) {
	st, err := postgres.Open(ctx, url, postgres.Options{Logger: logger})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// checkSecretKey refuses to serve with a secret key that does not open the
// values sealed in the database: a replica started with another key than
// the others would answer every request touching them with an error. A
// database with nothing sealed accepts any key.
func checkSecretKey(ctx context.Context, store edgeflow.Store, sealer *secret.Sealer) error {
	samples, err := store.SealedSamples(ctx)
	if err != nil {
		return fmt.Errorf("check the secret key against the database: %w", err)
	}
	if err := sealer.CheckKey(samples); err != nil {
		return fmt.Errorf("EDGEFLOW_SECRET_KEY: %w: this is not the key the data was sealed with; "+
			"start with that key (EDGEFLOW_SECRET_KEY, or secret.key in the data dir), the same on every replica", err)
	}
	return nil
}

// flushAccessLog writes the access log's summary of successful reads every
// period (0: api.DefaultSummaryEvery) until ctx ends.
func flushAccessLog(ctx context.Context, srv *api.Server, period time.Duration) {
	if period <= 0 {
		period = api.DefaultSummaryEvery
	}
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			srv.FlushAccessLog()
		}
	}
}

// purgeSessions deletes the sessions unusable at now(), at start and every
// interval, until ctx ends.
func purgeSessions(ctx context.Context, store edgeflow.Store, logger *slog.Logger, interval time.Duration, now func() time.Time) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := store.PurgeSessions(ctx, now())
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("purging expired sessions failed", "error", err.Error())
		case n > 0:
			logger.Info("purged expired and revoked sessions", "sessions", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// purgeAudit deletes the audit entries older than the server's retention
// every interval until ctx ends.
func purgeAudit(ctx context.Context, srv *api.Server, logger *slog.Logger, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := srv.PurgeAudit(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("purging old audit entries failed", "error", err.Error())
		case n > 0:
			logger.Info("purged audit entries past their retention", "entries", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// pruneBatch is how many runs one write transaction of the pruning job
// deletes.
const pruneBatch = 500

// pruneRuns deletes every run past its organization's retention at now, in
// batches of pruneBatch, and returns how many it deleted with the provider
// instances of those that had one.
func pruneRuns(ctx context.Context, store edgeflow.Store, now time.Time) (int, []edgeflow.RunInstance, error) {
	total := 0
	var instances []edgeflow.RunInstance
	for {
		n, got, err := store.PruneRuns(ctx, now, pruneBatch)
		total += n
		instances = append(instances, got...)
		if err != nil || n < pruneBatch {
			return total, instances, err
		}
		select {
		case <-ctx.Done():
			return total, instances, ctx.Err()
		case <-time.After(50 * time.Millisecond): // let other writers in between batches
		}
	}
}

// pruneRunsLoop prunes runs every interval until ctx ends, and hands the
// pruned runs' provider instances to deleteInstances (the deployer's
// DeleteInstancesLater, which deletes them in the background).
func pruneRunsLoop(ctx context.Context, store edgeflow.Store, logger *slog.Logger, interval time.Duration, now func() time.Time,
	deleteInstances func([]edgeflow.RunInstance)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, instances, err := pruneRuns(ctx, store, now())
		if len(instances) > 0 {
			deleteInstances(instances)
		}
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Warn("pruning runs past their retention failed", "error", err.Error(), "runs", n)
		case n > 0:
			logger.Info("pruned runs past their organization's retention", "runs", n, "instances", len(instances))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// eventRetention is how long run events are kept for the run streams'
// replays (Last-Event-ID); webhook deliveries keep their own copy.
const eventRetention = time.Hour

// pruneEventsLoop deletes run events older than eventRetention, at start and
// every interval.
func pruneEventsLoop(ctx context.Context, store edgeflow.Store, logger *slog.Logger, interval time.Duration, now func() time.Time) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := store.PruneEvents(ctx, now().Add(-eventRetention)); err != nil && ctx.Err() == nil {
			logger.Warn("pruning run events failed", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// parseRetention reads --audit-retention: a whole number of days ("365d")
// or a Go duration ("720h"), at least one hour.
func parseRetention(text string) (time.Duration, error) {
	text = strings.TrimSpace(text)
	var d time.Duration
	if days, ok := strings.CutSuffix(text, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 || n > 100*366 {
			return 0, fmt.Errorf("%q is not a number of days such as 365d", text)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(text); err != nil {
			return 0, fmt.Errorf("%q is neither a number of days (365d) nor a duration (720h)", text)
		}
	}
	if d < time.Hour {
		return 0, fmt.Errorf("%q is shorter than an hour", text)
	}
	return d, nil
}

// studioHandler serves the Studio build embedded in the binary, or, in a
// binary compiled without one, a page saying how to build it.
func studioHandler(logger *slog.Logger) (*studio.Handler, error) {
	build, ok := web.Build()
	if !ok {
		logger.Warn("this binary has no Studio build: / answers a page saying how to build it (make build)")
		return studio.NotBuilt(), nil
	}
	return studio.New(build)
}

// printSetupLink prints a fresh one-time setup link while the database has
// no user (docs/security.md, "Sign-up").
func printSetupLink(ctx context.Context, store edgeflow.Store, base string, stdout io.Writer) error {
	n, err := store.CountUsers(ctx)
	if err != nil || n > 0 {
		return err
	}
	link, err := api.NewSetupLink(ctx, store, base, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "No user exists yet. Create the first account (the owner) with this one-time setup link:\n  %s\n", link)
	return nil
}

// checkBaseURL accepts an absolute http(s) URL without query or fragment.
func checkBaseURL(raw string) error {
	u, err := neturl.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q is not an http(s) URL such as https://edgeflow.example.com", raw)
	}
	return nil
}

// validTraceURLTemplate reports whether tpl (EDGEFLOW_TRACE_URL_TEMPLATE) is
// an http or https URL holding {traceId}; a query may hold it.
func validTraceURLTemplate(tpl string) bool {
	if !strings.Contains(tpl, "{traceId}") {
		return false
	}
	u, err := neturl.Parse(strings.ReplaceAll(tpl, "{traceId}", "0"))
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
