package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// edgeDirName is the local edge's directory inside edgeflow's data dir, for
// the edge serve starts and for `edgeflow edge` alike.
const edgeDirName = "edge"

// runEdge is `edgeflow edge`: the local edge as a process of its own, for
// several serve replicas to share (serve --edge-url). It runs the same Node
// program serve starts as a child, supervised the same way, until SIGINT or
// SIGTERM.
func runEdge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("edge", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: edgeflow edge [--addr 127.0.0.1:8787] [--data-dir DIR] [--allow-hosts LIST] [--node PATH] [--log-level LEVEL]")
		fmt.Fprintln(fs.Output(), "Runs the local edge on its own, for every `edgeflow serve --edge-url http://ADDR` replica to use; prints its URL and token file.")
		fmt.Fprintln(fs.Output(), "Its secrets are sealed with a key derived from EDGEFLOW_SECRET_KEY, or from secret.key in the data dir (created on first use).")
		fs.PrintDefaults()
		printExamples(fs.Output(), "edgeflow edge --addr 127.0.0.1:8787 --data-dir /var/lib/edgeflow-edge")
	}
	addr := fs.String("addr", envOr("EDGEFLOW_EDGE_ADDR", "127.0.0.1:8787"),
		"listen address of the edge's API and worker URLs; a host other than loopback is served through a proxy in this process (env EDGEFLOW_EDGE_ADDR)")
	dataDir := fs.String("data-dir", envOr("EDGEFLOW_DATA_DIR", ".edgeflow"),
		"directory whose "+edgeDirName+"/ holds the edge's state, and whose secret.key is used when EDGEFLOW_SECRET_KEY is unset (env EDGEFLOW_DATA_DIR)")
	allowText := fs.String("allow-hosts", os.Getenv("EDGEFLOW_ALLOW_HOSTS"),
		"host names, IPs or CIDRs that worker code may reach although they are loopback or private, comma separated (env EDGEFLOW_ALLOW_HOSTS)")
	logLevel := fs.String("log-level", envOr("EDGEFLOW_LOG_LEVEL", "info"), "debug, info, warn or error (env EDGEFLOW_LOG_LEVEL)")
	nodePath := fs.String("node", os.Getenv(localedge.EnvNode),
		"the node executable the edge runs on, Node.js 22 or newer; default: the one make installs into edge/node-runtime, else node from PATH (env EDGEFLOW_NODE)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "edgeflow edge: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	host, port, err := parseEdgeAddr(*addr)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow edge: --addr: %v\n", err)
		fs.Usage()
		return 2
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "edgeflow edge: --log-level: %v\n", err)
		return 2
	}
	allow, err := netguard.ParseAllowList(*allowText)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow edge: --allow-hosts: %v\n", err)
		return 2
	}
	logger := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := edgeMain(ctx, edgeConfig{host: host, port: port, dataDir: *dataDir, allowHosts: allow, nodePath: *nodePath}, logger, stdout); err != nil {
		logger.Error("edgeflow edge stopped", "error", err.Error())
		return 1
	}
	return 0
}

// parseEdgeAddr splits --addr into its host and port (0: any free port).
func parseEdgeAddr(addr string) (host string, port int, err error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("want HOST:PORT, e.g. 127.0.0.1:8787: %v", err)
	}
	port, err = strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("port must be 0-65535, got %q", p)
	}
	return host, port, nil
}

// isLoopbackHost reports whether the edge can listen on host itself (it
// binds 127.0.0.1 only).
func isLoopbackHost(host string) bool {
	return host == "127.0.0.1" || host == "localhost"
}

type edgeConfig struct {
	host       string
	port       int
	dataDir    string
	allowHosts *netguard.AllowList
	nodePath   string // --node; empty lets localedge.FindNode choose
}

func edgeMain(ctx context.Context, cfg edgeConfig, logger *slog.Logger, stdout io.Writer) error {
	if err := os.MkdirAll(cfg.dataDir, 0o700); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	key, created, err := secret.LoadOrCreateKey(os.Getenv("EDGEFLOW_SECRET_KEY"), cfg.dataDir)
	if err != nil {
		return fmt.Errorf("EDGEFLOW_SECRET_KEY: %w", err)
	}
	if created {
		logger.Info("generated a new secret key", "file", filepath.Join(cfg.dataDir, secret.KeyFileName))
	}
	script, err := localedge.FindScript()
	if err != nil {
		return fmt.Errorf("edge/server.mjs not found (run from the repository or set %s): %w", localedge.EnvEdgeDir, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules")); err != nil {
		return fmt.Errorf("the edge's npm packages are missing: run npm ci in %s", filepath.Dir(script))
	}
	node, err := localedge.FindNode(ctx, cfg.nodePath, script)
	if err != nil {
		return err
	}
	edgeDir := filepath.Join(cfg.dataDir, edgeDirName)
	if err := os.MkdirAll(edgeDir, 0o700); err != nil {
		return fmt.Errorf("create the edge's data dir: %w", err)
	}
	opts := localedge.Options{NodePath: node, Script: script, DataDir: edgeDir, AllowHosts: cfg.allowHosts, SecretKey: key,
		Logger: logger.With("component", "edge")}
	direct := isLoopbackHost(cfg.host)
	if direct {
		opts.Port = cfg.port
	}
	// A proxied edge listens on a loopback port of its own; make sure the
	// public address is free before starting it.
	var ln net.Listener
	if !direct {
		if ln, err = net.Listen("tcp", net.JoinHostPort(cfg.host, strconv.Itoa(cfg.port))); err != nil {
			return err
		}
		defer ln.Close()
	}
	edge, err := localedge.Start(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped (SIGINT, SIGTERM) before the edge was ready
		}
		return err
	}
	defer edge.Close()
	tokenFile := edge.TokenFile()
	if abs, err := filepath.Abs(tokenFile); err == nil {
		tokenFile = abs
	}
	base := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(edge.Port()))
	if direct {
		if cfg.port != 0 && edge.Port() != cfg.port {
			return fmt.Errorf("the edge listens on port %d, not %d", edge.Port(), cfg.port)
		}
	} else {
		target, _ := url.Parse(base)
		proxy := httputil.NewSingleHostReverseProxy(target)
		proxy.FlushInterval = -1
		proxy.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
		hs := &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
			ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
		go hs.Serve(ln)
		defer hs.Close()
		base = "http://" + ln.Addr().String()
	}
	logger.Info("edgeflow edge listening", "url", base, "tokenFile", tokenFile, "proxied", !direct)
	fmt.Fprintf(stdout, "edgeflow edge listening on %s\n", base)
	fmt.Fprintf(stdout, "token file: %s\n", tokenFile)
	fmt.Fprintf(stdout, "replicas: edgeflow serve --edge-url %s --edge-token-file %s\n", base, tokenFile)
	<-ctx.Done()
	logger.Info("shutting down")
	return nil
}
