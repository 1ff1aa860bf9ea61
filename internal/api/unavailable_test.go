package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"golang.org/x/crypto/bcrypt"
)

// pgSchema is a fresh schema's URL (testenv.PostgresSchema) with a
// connect_timeout of 3 s: short, so that the hanging database below is
// given up on quickly, yet long enough for a connection's start-up through
// the proxy on a loaded machine (1 s was not, in a CI run).
func pgSchema(t *testing.T) *url.URL {
	t.Helper()
	u, err := url.Parse(testenv.PostgresSchema(t))
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("EDGEFLOW_TEST_POSTGRES_URL must be a postgres:// URL here: %v", err)
	}
	q := u.Query()
	q.Set("connect_timeout", "3")
	u.RawQuery = q.Encode()
	return u
}

// cutProxy forwards TCP connections to target until cut, which closes the
// listener and every connection (the database "goes away": new connections
// are refused); restore listens again on the same address.
type cutProxy struct {
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
	hang  bool // accept connections but forward nothing (a database that does not answer)
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	p := &cutProxy{target: target, conns: map[net.Conn]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.ln = ln
	go p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

func (p *cutProxy) serve(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		hang := p.hang
		if hang {
			p.conns[c] = true
		}
		p.mu.Unlock()
		if hang {
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go func() { io.Copy(up, c); up.Close() }()
		go func() { io.Copy(c, up); c.Close() }()
	}
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *cutProxy) restore(t *testing.T, hang bool) {
	t.Helper()
	p.mu.Lock()
	p.hang = hang
	p.mu.Unlock()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go p.serve(ln)
}

// TestDatabaseUnreachable runs a server on PostgreSQL through a TCP proxy
// and cuts it: while the database cannot be reached every request that
// needs it, authenticated by API key or session or not at all, answers 503
// unavailable with Retry-After (never 500, nor 401 for a valid credential),
// /readyz answers 503 naming the database, /healthz and /metrics still 200;
// the same when the proxy accepts connections but never answers (after
// the connect timeout); once the proxy is back the same requests succeed and nothing written
// before is lost.
func TestDatabaseUnreachable(t *testing.T) {
	t.Parallel()
	u := pgSchema(t)
	proxy := newCutProxy(t, u.Host)
	u.Host = proxy.addr
	ctx := context.Background()
	st, err := postgres.Open(ctx, u.String(), postgres.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sealer, err := secret.New(bytes.Repeat([]byte{3}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	s, err := api.New(api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, BcryptCost: bcrypt.MinCost, Logger: jsonLogger(&logs),
		Limits: ratelimit.Limits{Global: 10000, Write: 1000, Verify: 1000}, RateCounter: st})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	w := &world{t: t, srv: srv, api: s}

	sess, signedUp := w.signUp("outage@example.com")
	key := cred{key: w.must(201, "POST", "/api/api-keys",
		`{"name":"k","scopes":["read","write"],"projectId":"`+signedUp.str(t, "activeProjectId")+`"}`, sess).str(t, "key")}
	wfID := w.must(201, "POST", "/api/workflows", `{"name":"kept"}`, key).str(t, "id")
	w.must(200, "GET", "/readyz", "", cred{})

	type call struct {
		name         string
		method, path string
		body         string
		c            cred
	}
	calls := []call{
		{"key read", "GET", "/api/workflows", "", key},
		{"key write", "POST", "/api/workflows", `{"name":"during"}`, key},
		{"session read", "GET", "/api/auth/session", "", sess},
		{"session write", "PATCH", "/api/workflows/" + wfID, `{"description":"x"}`, sess},
		{"sign-in", "POST", "/api/auth/sign-in", `{"email":"outage@example.com","password":"password-1"}`, cred{}},
		{"sign-up", "POST", "/api/auth/sign-up", `{"email":"new@example.com","password":"password-1"}`, cred{}},
	}

	proxy.cut()
	for _, c := range calls {
		r := w.do(c.method, c.path, c.body, c.c)
		checkError(t, r, 503, "unavailable", "")
		if r.header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After: %v", c.name, r.header)
		}
		if bytes.Contains(r.body, []byte(proxy.addr)) || bytes.Contains(r.body, []byte("postgres")) {
			t.Errorf("%s: the body shows internals: %s", c.name, r.body)
		}
	}
	r := w.do("GET", "/readyz", "", cred{})
	var ready map[string]any
	if err := json.Unmarshal(r.body, &ready); err != nil || r.status != 503 || ready["database"] != "down" ||
		ready["edge"] != "off" || ready["code"] != "unavailable" || r.header.Get("Retry-After") == "" {
		t.Fatalf("readyz while down = %d %s %v", r.status, r.body, r.header)
	}
	w.must(200, "GET", "/healthz", "", cred{})
	w.must(200, "GET", "/metrics", "", cred{})
	if strings.Contains(logs.String(), `"status":500`) || strings.Contains(logs.String(), `"level":"ERROR"`) {
		t.Fatalf("the outage was logged as internal errors:\n%s", logs.String())
	}

	// A database that accepts connections but never answers: each new
	// connection gives up after connect_timeout (3 s here, 5 s by default).
	proxy.restore(t, true)
	for _, c := range calls[:2] {
		r := w.do(c.method, c.path, c.body, c.c)
		checkError(t, r, 503, "unavailable", "")
	}
	proxy.cut()

	proxy.restore(t, false)
	testenv.WaitFor(t, 15*time.Second, 50*time.Millisecond, "readyz to recover", func() (bool, string) {
		r := w.do("GET", "/readyz", "", cred{})
		return r.status == 200, fmt.Sprintf("%d %s", r.status, r.body)
	})
	w.must(200, "GET", "/api/workflows/"+wfID, "", key)
	w.must(200, "GET", "/api/auth/session", "", sess)
	w.must(201, "POST", "/api/workflows", `{"name":"after"}`, key)
	w.must(200, "POST", "/api/auth/sign-in", `{"email":"outage@example.com","password":"password-1"}`, cred{})
	body := string(w.must(200, "GET", "/api/workflows", "", key).body)
	if !strings.Contains(body, `"kept"`) || !strings.Contains(body, `"after"`) {
		t.Fatalf("workflows after recovery: %s", body)
	}
}
