package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// replicas are n API servers, each with its own store (connection pool) on
// one PostgreSQL schema and the same secret key, as replicas behind a proxy
// run, with a user, organization, project and API key.
type replicas struct {
	urls     []string
	store    edgeflow.Store // the first replica's
	dsn      string         // the database, for more stores
	key      string
	org, prj string
}

func startReplicas(tb testing.TB, n int) *replicas {
	tb.Helper()
	ctx := context.Background()
	dsn := testenv.PostgresSchema(tb)
	sealer, err := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	if err != nil {
		tb.Fatal(err)
	}
	rs := &replicas{dsn: dsn}
	for i := range n {
		st, err := postgres.Open(ctx, dsn, postgres.Options{MaxConns: 12})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { st.Close() })
		s, err := api.New(api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}, RateCounter: st})
		if err != nil {
			tb.Fatal(err)
		}
		srv := httptest.NewServer(s)
		tb.Cleanup(srv.Close)
		rs.urls = append(rs.urls, srv.URL)
		if i == 0 {
			rs.store = st
		}
	}
	u := &edgeflow.User{Email: "replicas@example.com", PasswordHash: []byte("x")}
	mustTB(tb, rs.store.CreateUser(ctx, u))
	o := &edgeflow.Organization{Name: "Replicas", Slug: "replicas"}
	mustTB(tb, rs.store.CreateOrganization(ctx, o, u.ID))
	p := &edgeflow.Project{OrganizationID: o.ID, Name: "Replicas", Slug: "replicas"}
	mustTB(tb, rs.store.CreateProject(ctx, p))
	key, prefix, hash := auth.NewAPIKey()
	mustTB(tb, rs.store.CreateAPIKey(ctx, &edgeflow.APIKey{OrganizationID: o.ID, ProjectID: p.ID, UserID: u.ID, Name: "k",
		Prefix: prefix, Hash: hash, Scopes: []edgeflow.Scope{edgeflow.ScopeRead, edgeflow.ScopeWrite}}))
	rs.key, rs.org, rs.prj = key, o.ID, p.ID
	return rs
}

func (rs *replicas) newWorkflow(tb testing.TB, name string) string {
	tb.Helper()
	w := &edgeflow.Workflow{OrganizationID: rs.org, ProjectID: rs.prj, Name: name, Kind: edgeflow.KindWorkflow}
	mustTB(tb, rs.store.CreateWorkflow(context.Background(), w))
	return w.ID
}

// call sends a request to replica i and returns the status and body.
func (rs *replicas) call(client *http.Client, i int, method, path string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, rs.urls[i%len(rs.urls)]+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+rs.key)
	res, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	return res.StatusCode, out, err
}

func mustTB(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// TestVersionNumbersAcrossReplicas submits versions of one workflow through
// two servers on one PostgreSQL database while a third store on it writes
// versions too, concurrently and then strictly alternating between the
// servers: every submission is 201 (none answers 409), the numbers are 1..n
// without a gap, each submitted version's IR and code show its own number,
// and after deletes the only missing numbers are the deleted versions'.
func TestVersionNumbersAcrossReplicas(t *testing.T) {
	t.Parallel()
	rs := startReplicas(t, 2)
	wf := rs.newWorkflow(t, "shared")
	client := &http.Client{Timeout: 30 * time.Second}
	body := []byte(`{"ir":` + minimalIR + `}`)
	path := "/api/workflows/" + wf + "/versions"

	type created struct {
		ID      string `json:"id"`
		Version int    `json:"version"`
	}
	// A third replica writes versions meanwhile through its own store, as
	// a process that shares nothing with these two but the database.
	third, err := postgres.Open(context.Background(), rs.dsn, postgres.Options{MaxConns: 4})
	mustTB(t, err)
	t.Cleanup(func() { third.Close() })
	const concurrent, direct = 40, 10
	got := make([]created, concurrent)
	errs := make([]error, concurrent+direct)
	directNums, directIDs := make([]int, direct), make([]string, direct)
	var wg sync.WaitGroup
	for i := range direct {
		wg.Go(func() {
			v := &edgeflow.Version{WorkflowID: wf, IR: json.RawMessage(`{}`), Code: "// written directly"}
			errs[concurrent+i] = third.CreateVersion(context.Background(), v)
			directNums[i], directIDs[i] = v.Number, v.ID
		})
	}
	for i := range concurrent {
		wg.Go(func() {
			status, out, err := rs.call(client, i, "POST", path, body)
			if err == nil && status != http.StatusCreated {
				err = fmt.Errorf("submission %d through replica %d: status %d: %s", i, i%2, status, out)
			}
			if err == nil {
				err = json.Unmarshal(out, &got[i])
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Strictly sequential, alternating replicas: each gets the next number.
	for i := range 6 {
		status, out, err := rs.call(client, i, "POST", path, body)
		if err != nil || status != http.StatusCreated {
			t.Fatalf("sequential submission %d: %d %s %v", i, status, out, err)
		}
		var c created
		mustTB(t, json.Unmarshal(out, &c))
		if want := concurrent + direct + i + 1; c.Version != want {
			t.Fatalf("sequential submission %d through replica %d numbered %d, want %d", i, i%2, c.Version, want)
		}
		got = append(got, c)
	}
	nums := append([]int(nil), directNums...)
	for _, c := range got {
		nums = append(nums, c.Version)
	}
	sort.Ints(nums)
	for i, n := range nums {
		if n != i+1 {
			t.Fatalf("version numbers %v, want 1..%d", nums, len(nums))
		}
	}
	// Each version was built for its number, whichever replica built it.
	for i, c := range got {
		status, out, err := rs.call(client, i+1, "GET", path+"/"+c.ID, nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("GET version %d: %d %s %v", c.Version, status, out, err)
		}
		var v struct {
			IR struct {
				Metadata struct {
					Version int `json:"version"`
				} `json:"metadata"`
			} `json:"ir"`
			Code string `json:"code"`
		}
		mustTB(t, json.Unmarshal(out, &v))
		if v.IR.Metadata.Version != c.Version || !strings.Contains(v.Code, fmt.Sprintf(", version %d.\n", c.Version)) {
			t.Errorf("version %d: metadata.version %d, code header %q", c.Version, v.IR.Metadata.Version,
				strings.SplitN(v.Code, "\n", 2)[0])
		}
	}

	// Deleting versions leaves exactly those gaps (3 and 10 are the HTTP
	// submissions' or the third replica's: either kind can be deleted). (The current version is
	// not deleted here: the store keeps numbers after a deleted highest one,
	// as the storetest cases show.)
	byNumber := map[int]string{}
	for _, c := range got {
		byNumber[c.Version] = c.ID
	}
	for i, n := range directNums {
		byNumber[n] = directIDs[i]
	}
	last := len(nums)
	for _, n := range []int{3, 10} {
		if status, out, err := rs.call(client, n, "DELETE", path+"/"+byNumber[n], nil); err != nil || status != http.StatusNoContent {
			t.Fatalf("DELETE version %d: %d %s %v", n, status, out, err)
		}
	}
	for i := range 2 {
		status, out, err := rs.call(client, i, "POST", path, body)
		if err != nil || status != http.StatusCreated {
			t.Fatalf("submission after deletes: %d %s %v", status, out, err)
		}
		var c created
		mustTB(t, json.Unmarshal(out, &c))
		if c.Version != last+1+i {
			t.Errorf("submission after deleting 3 and 10 numbered %d, want %d", c.Version, last+1+i)
		}
	}
	var listed []int
	cursor := ""
	for {
		status, out, err := rs.call(client, 1, "GET", path+"?limit=100&cursor="+url.QueryEscape(cursor), nil)
		if err != nil || status != http.StatusOK {
			t.Fatalf("list versions: %d %s %v", status, out, err)
		}
		var page struct {
			Items []created `json:"data"`
			Next  string    `json:"nextCursor"`
		}
		mustTB(t, json.Unmarshal(out, &page))
		for _, c := range page.Items {
			listed = append(listed, c.Version)
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	var want []int
	for n := last + 2; n >= 1; n-- {
		if n != 3 && n != 10 {
			want = append(want, n)
		}
	}
	if fmt.Sprint(listed) != fmt.Sprint(want) {
		t.Errorf("listed numbers %v, want %v (gaps only at the deleted 3 and 10)", listed, want)
	}
}

// BenchmarkVersionSubmitReplicas submits mixed-100 as new versions through
// one and through two API servers on one PostgreSQL database (each server
// its own connection pool, real HTTP on loopback), from 10 concurrent
// connections spread over the servers, each connection to its own workflow
// ("10 workflows") or all to one ("1 workflow"). It reports submissions/s.
func BenchmarkVersionSubmitReplicas(b *testing.B) {
	raw := testenv.BenchIR(b, "mixed-100")
	body := append(append([]byte(`{"ir":`), raw...), '}')
	if _, ok := os.LookupEnv("GOGC"); !ok {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	for _, n := range []int{1, 2} {
		for _, shared := range []bool{false, true} {
			name := fmt.Sprintf("%d replicas/10 workflows", n)
			if shared {
				name = fmt.Sprintf("%d replicas/1 workflow", n)
			}
			b.Run(name, func(b *testing.B) { benchSubmitReplicas(b, body, n, 10, shared) })
		}
	}
}

func benchSubmitReplicas(b *testing.B, body []byte, n, conns int, shared bool) {
	rs := startReplicas(b, n)
	workflows := make([]string, conns)
	for i := range workflows {
		if shared && i > 0 {
			workflows[i] = workflows[0]
			continue
		}
		workflows[i] = rs.newWorkflow(b, fmt.Sprintf("bench %d", i))
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}
	submit := func(i int) error {
		status, out, err := rs.call(client, i, "POST", "/api/workflows/"+workflows[i]+"/versions", body)
		if err == nil && status != http.StatusCreated {
			err = fmt.Errorf("status %d: %s", status, out)
		}
		return err
	}
	for i := range workflows { // warm up connections and caches
		mustTB(b, submit(i))
	}

	cpu0 := cpuTime()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	b.ResetTimer()
	start := time.Now()
	for i := range conns {
		wg.Go(func() {
			for next.Add(1) <= int64(b.N) {
				if err := submit(i); err != nil { // connection i goes to replica i % n
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "submissions/s")
	// CPU of this process (servers and client; PostgreSQL not counted) per
	// submission, as in BenchmarkVersionSubmit.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
