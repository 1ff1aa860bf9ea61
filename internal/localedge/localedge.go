// Package localedge starts, supervises and stops edgeflow's local edge (edge/server.mjs, a Node program on
// miniflare) as a child process.
//
// Start spawns `node <Script> --port P --data-dir DIR`, waits for the one JSON line the edge prints when ready
// and exposes what it says: the Cloudflare API base URL, the base of the worker URLs, the account id and the API
// token. If the child dies, it is started again with back-off on the same port and data dir, so every URL stays
// the same. Close stops it with SIGTERM, then SIGKILL after a grace period.
//
// The child runs in its own process group with a parent-death signal, and the edge runs workerd with a
// parent-death signal of its own, so no process outlives its parent: when edgeflow dies, node dies; when node
// dies, workerd dies. The supervisor also kills what is left of the group after the child exits.
package localedge

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/edgeflow/edgeflow/internal/netguard"
)

// EdgeKey derives the edge's 32-byte sealing key from edgeflow's secret key (HKDF-SHA256), so that the edge
// never holds the key that seals edgeflow's own secrets.
func EdgeKey(secretKey []byte) ([]byte, error) {
	if len(secretKey) < 16 {
		return nil, errors.New("localedge: the secret key is too short to derive the edge's key")
	}
	return hkdf.Key(sha256.New, secretKey, nil, "edgeflow local edge secrets v1", 32)
}

// edgeEnv is edgeflow's environment without its own secrets: the edge and workerd have no use for them.
func edgeEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if strings.HasPrefix(kv, "EDGEFLOW_SECRET_KEY=") || strings.HasPrefix(kv, "EDGEFLOW_DATABASE_URL=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Options configure Start.
type Options struct {
	// NodePath is the node executable; empty means FindNode's choice (EnvNode, the edge directory's node-runtime,
	// or node from PATH). Start refuses a Node older than MinNodeMajor.
	NodePath string
	// Script is the path to edge/server.mjs. Its directory must hold node_modules (npm ci). Empty means
	// FindScript().
	Script string
	// DataDir holds the edge's state: registry, token, worker code, KV/D1/R2 data, workflow instances.
	DataDir string
	// Port is the loopback port of the edge's API and worker URLs; 0 picks one on the first start (the edge
	// reuses the port of its previous run when it is free) and keeps it across restarts of the child.
	Port int
	// Logger receives the edge's stderr lines and supervision events; nil discards them.
	Logger *slog.Logger
	// ReadyTimeout bounds the wait for the ready line; 0 means 60 seconds.
	ReadyTimeout time.Duration
	// StopGrace is how long Close waits after SIGTERM before SIGKILL; 0 means 10 seconds.
	StopGrace time.Duration
	// RestartDelay is the supervisor's first wait before it starts a child that died, doubled after each failed
	// start up to 30 seconds; 0 means 200 ms.
	RestartDelay time.Duration
	// AllowHosts are the hosts worker code may reach although they are loopback, link-local or private
	// (edgeflow serve --allow-hosts); nil allows none. See edge/src/outbound.mjs.
	AllowHosts *netguard.AllowList
	// SecretKey is edgeflow's secret key. The edge gets a key derived from it (EdgeKey) on its standard input,
	// never in a file or its environment, and seals the secrets it stores with it. Nil lets the edge keep a key
	// file of its own in DataDir (what a hand-started edge does).
	SecretKey []byte
}

// Ready is the JSON line the edge prints when it is ready.
type Ready struct {
	API       string `json:"api"`
	Workers   string `json:"workers"`
	AccountID string `json:"accountId"`
	TokenFile string `json:"tokenFile"`
}

// Edge is a running, supervised local edge. Its methods are safe for concurrent use.
type Edge struct {
	opts   Options
	logger *slog.Logger
	ready  Ready
	token  string
	port   int

	mu       sync.Mutex
	cmd      *exec.Cmd
	exited   chan struct{}
	closing  bool
	restarts int

	errors errorCounts // errors of workerd and miniflare reported on stderr (edgeerrors.go)

	stop     chan struct{}
	doneOnce sync.Once
	done     chan struct{}
}

// ErrClosed is returned by Restart after Close.
var ErrClosed = errors.New("localedge: closed")

const stderrTail = 40

// Start spawns the edge and returns once it is ready. It fails with an error that includes the tail of the
// edge's stderr when node is missing, the npm dependencies are not installed, the data dir is in use by another
// edge, or the ready line does not arrive within ReadyTimeout. The child is stopped when ctx is cancelled before
// it is ready; after Start returns, only Close stops it.
func Start(ctx context.Context, opts Options) (*Edge, error) {
	if opts.Script == "" {
		script, err := FindScript()
		if err != nil {
			return nil, err
		}
		opts.Script = script
	}
	if opts.DataDir == "" {
		return nil, errors.New("localedge: Options.DataDir is required")
	}
	if opts.ReadyTimeout == 0 {
		opts.ReadyTimeout = 60 * time.Second
	}
	if opts.StopGrace == 0 {
		opts.StopGrace = 10 * time.Second
	}
	if _, err := os.Stat(opts.Script); err != nil {
		return nil, fmt.Errorf("localedge: edge script: %w", err)
	}
	node, err := FindNode(ctx, cmp.Or(opts.NodePath, os.Getenv(EnvNode)), opts.Script)
	if err != nil {
		return nil, fmt.Errorf("localedge: %w", err)
	}
	opts.NodePath = node
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	e := &Edge{opts: opts, logger: logger, port: opts.Port, stop: make(chan struct{}), done: make(chan struct{})}
	ready, err := e.spawn(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.adopt(ready); err != nil {
		e.kill()
		return nil, err
	}
	go e.supervise()
	return e, nil
}

// APIBaseURL is the Cloudflare API base, e.g. http://127.0.0.1:PORT/client/v4 (for option.WithBaseURL).
func (e *Edge) APIBaseURL() string { return e.ready.API }

// WorkersBaseURL is the base of worker URLs: the legacy account's worker named S answers at
// WorkersBaseURL()+"/"+S once its workers.dev URL is enabled (other accounts: AccountWorkersBaseURL).
func (e *Edge) WorkersBaseURL() string { return e.ready.Workers }

// WorkerURL is the URL of the legacy account's worker script name (other accounts: AccountWorkerURL).
func (e *Edge) WorkerURL(name string) string { return e.ready.Workers + "/" + name }

// AccountID is the id of the edge's legacy account, the one the root token owns (see accounts.go).
func (e *Edge) AccountID() string { return e.ready.AccountID }

// Token is the edge's root token (a Bearer token) read from the edge's token file: the legacy account's token,
// which also provisions accounts. Organizations get accounts of their own (ProvisionAccount).
func (e *Edge) Token() string { return e.token }

// Port is the loopback port the edge listens on.
func (e *Edge) Port() int { return e.port }

// Restarts counts how often the supervisor started the edge again after it died.
func (e *Edge) Restarts() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.restarts
}

// Pid is the process id of the current edge child, or 0 between restarts.
func (e *Edge) Pid() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cmd == nil || e.cmd.Process == nil {
		return 0
	}
	return e.cmd.Process.Pid
}

// Close stops the edge: SIGTERM, then SIGKILL after StopGrace. It returns once the child has exited and the
// supervisor has stopped; calling it again is a no-op.
func (e *Edge) Close() error {
	e.mu.Lock()
	if e.closing {
		e.mu.Unlock()
		<-e.done
		return nil
	}
	e.closing = true
	close(e.stop)
	e.mu.Unlock()
	e.terminate()
	<-e.done
	return nil
}

func (e *Edge) adopt(r Ready) error {
	raw, err := os.ReadFile(r.TokenFile)
	if err != nil {
		return fmt.Errorf("localedge: read token file: %w", err)
	}
	tok := strings.TrimSpace(string(raw))
	if tok == "" {
		return fmt.Errorf("localedge: token file %s is empty", r.TokenFile)
	}
	host, port, err := net.SplitHostPort(strings.TrimPrefix(strings.TrimSuffix(r.API, "/client/v4"), "http://"))
	if err != nil || host == "" {
		return fmt.Errorf("localedge: ready line has a bad api URL %q", r.API)
	}
	var p int
	if _, err := fmt.Sscanf(port, "%d", &p); err != nil {
		return fmt.Errorf("localedge: ready line has a bad api URL %q", r.API)
	}
	e.ready, e.token, e.port = r, tok, p
	return nil
}

// spawn starts one child and waits for its ready line.
func (e *Edge) spawn(ctx context.Context) (Ready, error) {
	args := []string{e.opts.Script, "--port", fmt.Sprint(e.port), "--data-dir", e.opts.DataDir}
	if allow := e.opts.AllowHosts.String(); allow != "" {
		args = append(args, "--allow-hosts", allow)
	}
	var stdin io.Reader
	if e.opts.SecretKey != nil {
		key, err := EdgeKey(e.opts.SecretKey)
		if err != nil {
			return Ready{}, err
		}
		args = append(args, "--key-stdin")
		stdin = strings.NewReader(hex.EncodeToString(key) + "\n")
	}
	cmd := exec.Command(e.opts.NodePath, args...)
	cmd.Env = edgeEnv(os.Environ())
	cmd.Stdin = stdin
	// Its own process group (workerd joins it), so that Close and the supervisor can stop everything the edge
	// started; SIGKILL when edgeflow dies, so that a killed edgeflow leaves no edge behind.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// Pipes of our own rather than cmd.StdoutPipe/StderrPipe: those are closed by cmd.Wait, which can run before
	// the readers below have read a quickly exiting child's last lines (the reason a start failed).
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		return Ready{}, fmt.Errorf("localedge: %w", err)
	}
	stderr, stderrW, err := os.Pipe()
	if err != nil {
		stdout.Close()
		stdoutW.Close()
		return Ready{}, fmt.Errorf("localedge: %w", err)
	}
	cmd.Stdout, cmd.Stderr = stdoutW, stderrW
	err = cmd.Start()
	stdoutW.Close()
	stderrW.Close()
	if err != nil {
		stdout.Close()
		stderr.Close()
		return Ready{}, fmt.Errorf("localedge: start %s: %w (is Node.js installed? set Options.NodePath)", e.opts.NodePath, err)
	}
	tail := &lineTail{max: stderrTail}
	var logWG sync.WaitGroup
	logWG.Add(1)
	go func() {
		defer logWG.Done()
		defer stderr.Close()
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			tail.add(line)
			logEdgeLine(e.logger, &e.errors, line)
		}
	}()
	readyCh := make(chan Ready, 1)
	badCh := make(chan error, 1)
	go func() {
		defer stdout.Close()
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		first := true
		for sc.Scan() {
			if !first {
				continue
			}
			first = false
			r, err := ParseReady(sc.Bytes())
			if err != nil {
				badCh <- err
				continue
			}
			readyCh <- r
		}
	}()
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	timer := time.NewTimer(e.opts.ReadyTimeout)
	defer timer.Stop()
	fail := func(why string) (Ready, error) {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(e.opts.StopGrace):
			killGroup(cmd)
			<-exited
		}
		killGroup(cmd)
		logWG.Wait()
		return Ready{}, fmt.Errorf("localedge: %s%s", why, tail.summary())
	}
	select {
	case r := <-readyCh:
		e.mu.Lock()
		e.cmd, e.exited = cmd, exited
		e.mu.Unlock()
		return r, nil
	case err := <-badCh:
		return fail(err.Error())
	case <-exited:
		killGroup(cmd)
		logWG.Wait()
		hint := ""
		// ESM imports fail with ERR_MODULE_NOT_FOUND, require (miniflare is loaded through it) with MODULE_NOT_FOUND.
		if s := tail.String(); strings.Contains(s, "Cannot find package 'miniflare'") || strings.Contains(s, "MODULE_NOT_FOUND") {
			hint = " (run `npm ci` in the edge directory)"
		}
		return Ready{}, fmt.Errorf("localedge: edge exited before it was ready (%v)%s%s", waitErr, hint, tail.summary())
	case <-timer.C:
		return fail(fmt.Sprintf("edge not ready after %s", e.opts.ReadyTimeout))
	case <-ctx.Done():
		return fail(ctx.Err().Error())
	}
}

// supervise restarts the child when it dies, with back-off from Options.RestartDelay (200 ms) doubling to 30 s;
// a child that ran for a minute resets the back-off.
func (e *Edge) supervise() {
	defer e.doneOnce.Do(func() { close(e.done) })
	first := cmp.Or(e.opts.RestartDelay, 200*time.Millisecond)
	backoff := first
	for {
		e.mu.Lock()
		exited := e.exited
		e.mu.Unlock()
		started := time.Now()
		select {
		case <-exited:
		case <-e.stop:
			<-exited
			return
		}
		// node is gone; stop whatever it left in its group (workerd, if its own parent-death signal failed).
		e.mu.Lock()
		killGroup(e.cmd)
		e.mu.Unlock()
		if time.Since(started) > time.Minute {
			backoff = first
		}
		e.logger.Warn("edge exited; restarting", "in", backoff)
		for {
			select {
			case <-e.stop:
				return
			case <-time.After(backoff):
			}
			backoff = min(backoff*2, 30*time.Second)
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				select {
				case <-e.stop:
					cancel()
				case <-ctx.Done():
				}
			}()
			r, err := e.spawn(ctx)
			cancel()
			if err == nil {
				if err = e.adopt(r); err == nil {
					e.mu.Lock()
					e.restarts++
					e.mu.Unlock()
					e.logger.Info("edge restarted", "api", r.API)
					break
				}
				e.kill()
			}
			select {
			case <-e.stop:
				return
			default:
			}
			e.logger.Error("edge restart failed", "err", err, "retry in", backoff)
		}
	}
}

func (e *Edge) terminate() {
	e.mu.Lock()
	cmd, exited := e.cmd, e.exited
	e.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(e.opts.StopGrace):
		killGroup(cmd)
		<-exited
	}
	killGroup(cmd)
}

func (e *Edge) kill() {
	e.mu.Lock()
	cmd, exited := e.cmd, e.exited
	e.mu.Unlock()
	if cmd != nil && cmd.Process != nil {
		killGroup(cmd)
		<-exited
	}
}

// killGroup sends SIGKILL to the child's whole process group (the child is its leader).
func killGroup(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// ParseReady parses the JSON line the edge prints on stdout when it is ready. Every field is required and the
// api URL must be http://HOST:PORT/client/v4.
func ParseReady(line []byte) (Ready, error) {
	var r Ready
	if err := json.Unmarshal(bytes.TrimSpace(line), &r); err != nil {
		return Ready{}, fmt.Errorf("unexpected first line %q: %v", line, err)
	}
	switch {
	case r.API == "" || r.Workers == "" || r.AccountID == "" || r.TokenFile == "":
		return Ready{}, fmt.Errorf("unexpected first line %q: api, workers, accountId and tokenFile are required", line)
	case !strings.HasPrefix(r.API, "http://") || !strings.HasSuffix(r.API, "/client/v4"):
		return Ready{}, fmt.Errorf("unexpected first line %q: api must be http://HOST:PORT/client/v4", line)
	}
	if _, _, err := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(r.API, "http://"), "/client/v4")); err != nil {
		return Ready{}, fmt.Errorf("unexpected first line %q: api has no host:port", line)
	}
	return r, nil
}

// EnvEdgeDir names the environment variable that points at the edge directory (the one holding server.mjs and
// node_modules); it wins over every other place FindScript looks.
const EnvEdgeDir = "EDGEFLOW_EDGE_DIR"

// FindScript locates edge/server.mjs: in $EDGEFLOW_EDGE_DIR when set (an error if it has no server.mjs), else
// in an `edge` directory in the working directory or one of its parents, else beside the executable (an `edge`
// directory next to it or one level up, as in a release archive or a `go build -o bin/` checkout).
func FindScript() (string, error) {
	if dir := os.Getenv(EnvEdgeDir); dir != "" {
		p := filepath.Join(dir, "server.mjs")
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("localedge: %s=%s has no server.mjs: %w", EnvEdgeDir, dir, err)
		}
		return filepath.Abs(p)
	}
	var tried []string
	try := func(dir string) (string, bool) {
		p := filepath.Join(dir, "edge", "server.mjs")
		tried = append(tried, p)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			abs, err := filepath.Abs(p)
			return abs, err == nil
		}
		return "", false
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if p, ok := try(dir); ok {
				return p, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		for _, dir := range []string{filepath.Dir(exe), filepath.Dir(filepath.Dir(exe))} {
			if p, ok := try(dir); ok {
				return p, nil
			}
		}
	}
	return "", fmt.Errorf("localedge: cannot find edge/server.mjs (set %s to the edge directory); looked at %s", EnvEdgeDir, strings.Join(tried, ", "))
}

type lineTail struct {
	mu    sync.Mutex
	max   int
	lines []string
}

func (t *lineTail) add(l string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, l)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
}

func (t *lineTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b bytes.Buffer
	for _, l := range t.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

func (t *lineTail) summary() string {
	s := strings.TrimSpace(t.String())
	if s == "" {
		return ""
	}
	return "; edge stderr:\n" + s
}
