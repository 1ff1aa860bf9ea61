package e2e_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/backup"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestBackupRestoreUnderLoad is issue 36's demonstration, on each store: a
// server (`edgeflow serve` with its own local edge) takes a write load
// (workflow and version creates, triggers of a workflow that writes KV, D1
// and R2, secret env vars) while `edgeflow admin backup` runs against it; a
// run waiting for an event is in the archive. Then:
//   - restore with another secret key exits 1 and writes nothing;
//   - restore into a new data dir (and a new PostgreSQL schema) succeeds,
//     and every table of the restored database has the rows the manifest
//     counts;
//   - `edgeflow serve` on the restored data serves the workflows, and every
//     writer run complete in the restored database has its KV value, D1 row
//     and R2 object in the restored edge (the database is copied first);
//   - a new run on the restored server sees the secret variable (the edge's
//     sealed secret binding opens with the restored key);
//   - the waiting run completes when its event is sent to the restored server.
func TestBackupRestoreUnderLoad(t *testing.T) {
	requireEdge(t)
	if testing.Short() {
		t.Skip("builds the binary and starts four servers with their own edges")
	}
	bin := buildEdgeflow(t)
	t.Run("sqlite", func(t *testing.T) { backupRestore(t, bin, "", "") })
	t.Run("postgres", func(t *testing.T) {
		base := testenv.PostgresURL(t)
		backupRestore(t, bin, replicaSchema(t, base), replicaSchema(t, base))
	})
}

func backupRestore(t *testing.T, bin, srcDB, dstDB string) {
	env := procEnv()
	storeArgs := func(dataDir, db string) []string {
		a := []string{"--data-dir", dataDir}
		if db != "" {
			a = append(a, "--database-url", db)
		}
		return a
	}
	serve := func(dataDir, db string) *proc {
		p := startProc(t, bin, env, append([]string{"serve", "--addr", "127.0.0.1:0", "--signup", "open"}, storeArgs(dataDir, db)...)...)
		p.url = p.waitLine(t, "edgeflow listening on ", 120*time.Second)
		return p
	}
	admin := func(extraEnv []string, args ...string) (int, string) {
		cmd := exec.Command(bin, append([]string{"admin"}, args...)...)
		cmd.Env = append(append([]string{}, env...), extraEnv...)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}

	src := filepath.Join(t.TempDir(), "src")
	p := serve(src, srcDB)
	s := &server{t: t, url: p.url, http: &http.Client{Timeout: 2 * time.Minute}}
	s.bootstrap("backup@example.com")

	writer, _ := s.workflow("Writer", "workflow", chain("Writer",
		step("write", `const key = 'orders/' + event.payload.id;
const text = 'order ' + event.payload.id + ' ' + env.API_KEY.length;
await env.KV_ORDERS.put(key, text);
await env.DB_ORDERS.exec('CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, label TEXT)');
await env.DB_ORDERS.prepare('INSERT OR REPLACE INTO orders (id, label) VALUES (?1, ?2)').bind(event.payload.id, text).run();
await env.BUCKET_ORDERS.put(key + '.txt', text);
return { key };`),
		step("done", "return { id: event.payload.id };"),
	))
	// A sealed value in the database: restore checks the key against it.
	s.must(200, "PATCH", "/api/workflows/"+writer, map[string]any{"envVars": []map[string]any{{"name": "API_KEY", "value": "sk-" + randomHex(t), "isSecret": true}}})
	s.deploy(writer)
	approval, _ := s.workflow("Approval", "workflow", chain("Approval",
		step("request", "return { order: event.payload.order };"),
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		step("finish", "return { order: {{request.order}}, approved: {{approval.approved}} };"),
	))
	s.deploy(approval)
	waiting := s.trigger(approval, map[string]any{"order": 36})
	s.waitRun(approval, waiting, 90*time.Second, "waiting for the event", func(r run) bool {
		return r.Status == "paused" && r.StatusDetail == "waiting"
	})
	first := s.trigger(writer, map[string]any{"id": 0})
	s.waitStatus(writer, first, "complete", 90*time.Second)

	// The load: creates and triggers until the backup is done.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var loadErrs []string
	triggered := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			for _, r := range []reply{
				s.do("POST", "/api/workflows", map[string]any{"name": fmt.Sprintf("Load %d", i), "kind": "workflow"}),
				s.do("POST", "/api/workflows/"+writer+"/versions", map[string]any{"ir": chain("Writer", step("noop", "return {};"))}),
				s.do("POST", "/api/workflows/"+writer+"/trigger", map[string]any{"connectionId": s.conn, "params": map[string]any{"id": i}}),
			} {
				if r.status >= 300 {
					mu.Lock()
					loadErrs = append(loadErrs, fmt.Sprintf("%d %s", r.status, r.body))
					mu.Unlock()
				}
			}
			mu.Lock()
			triggered = i
			mu.Unlock()
		}
	}()
	testenv.WaitFor(t, 60*time.Second, 50*time.Millisecond, "the load to trigger 3 runs", func() (bool, string) {
		mu.Lock()
		defer mu.Unlock()
		return triggered >= 3, fmt.Sprint(triggered)
	})
	archive := filepath.Join(t.TempDir(), "edgeflow.tar.gz")
	code, out := admin(nil, append([]string{"backup", "--out", archive}, storeArgs(src, srcDB)...)...)
	mu.Lock()
	during := triggered
	mu.Unlock()
	close(stop)
	wg.Wait()
	if code != 0 {
		t.Fatalf("admin backup exited %d: %s", code, out)
	}
	if len(loadErrs) > 0 {
		t.Fatalf("the load's requests failed during the backup: %q", loadErrs)
	}
	t.Logf("backup under load (%d writer runs triggered by its end): %s", during, strings.TrimSpace(out))
	p.stop(t)

	m, err := backup.Verify(t.Context(), archive)
	if err != nil {
		t.Fatal(err)
	}
	if code, out := admin(nil, "verify-backup", archive); code != 0 {
		t.Fatalf("admin verify-backup exited %d: %s", code, out)
	}

	// A wrong secret key: exit 1, nothing written.
	dst := filepath.Join(t.TempDir(), "dst")
	otherKey := "EDGEFLOW_SECRET_KEY=" + hex.EncodeToString(make([]byte, len(testSecretKey)))
	code, out = admin([]string{otherKey}, append([]string{"restore", "--from", archive}, storeArgs(dst, dstDB)...)...)
	if code != 1 || !strings.Contains(out, "secret key") {
		t.Fatalf("restore with another key exited %d: %s", code, out)
	}
	if _, err := os.Stat(dst); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused restore wrote the data dir: %v", err)
	}
	if dstDB != "" {
		if counts, err := backup.Counts(t.Context(), "", dstDB); err != nil || len(counts) != 0 {
			t.Fatalf("a refused restore wrote the database: %v %v", counts, err)
		}
	}

	if code, out := admin(nil, append([]string{"restore", "--from", archive}, storeArgs(dst, dstDB)...)...); code != 0 {
		t.Fatalf("admin restore exited %d: %s", code, out)
	}
	counts, err := backup.Counts(t.Context(), dst, dstDB)
	if err != nil {
		t.Fatal(err)
	}
	for table, n := range m.Tables {
		if counts[table] != n {
			t.Errorf("restored table %s has %d rows, the archive %d", table, counts[table], n)
		}
	}
	if m.Tables["workflows"] < 3 || m.Tables["runs"] < 3 {
		t.Fatalf("the archive holds %d workflows and %d runs: the load was not in it", m.Tables["workflows"], m.Tables["runs"])
	}

	q := serve(dst, dstDB)
	r := &server{t: t, url: q.url, http: s.http, key: s.key, conn: s.conn, orgID: s.orgID, projID: s.projID}
	var wfs struct {
		Data []json.RawMessage `json:"data"`
	}
	r.must(200, "GET", "/api/workflows?limit=100", nil).into(&wfs)
	if int64(len(wfs.Data)) != m.Tables["workflows"] {
		t.Fatalf("the restored server lists %d workflows, the archive holds %d", len(wfs.Data), m.Tables["workflows"])
	}

	// Every writer run complete in the restored database wrote to the restored edge.
	var runs struct {
		Data []run `json:"data"`
	}
	r.must(200, "GET", "/api/workflows/"+writer+"/runs?limit=100", nil).into(&runs)
	nsID, dbID, bucket := r.projectResources(r.projID)
	c := "connectionId=" + r.conn
	complete := 0
	for _, run := range runs.Data {
		if run.Status != "complete" {
			continue
		}
		complete++
		var out struct{ ID int }
		json.Unmarshal(run.Output, &out)
		key := fmt.Sprintf("orders/%d", out.ID)
		want := fmt.Sprintf("order %d ", out.ID)
		if v := r.must(200, "GET", "/api/resources/kv/namespaces/"+nsID+"/values/"+url.PathEscape(key)+"?"+c, nil).obj(); !strings.HasPrefix(fmt.Sprint(v["value"]), want) {
			t.Errorf("restored KV %s = %v", key, v["value"])
		}
		if rr := r.do("GET", "/api/resources/r2/buckets/"+bucket+"/objects/"+key+".txt?"+c, nil); rr.status != 200 || !strings.HasPrefix(string(rr.body), want) {
			t.Errorf("restored R2 %s.txt: %d %.100s", key, rr.status, rr.body)
		}
		var rows d1Rows
		r.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": r.conn,
			"sql": fmt.Sprintf("SELECT label FROM orders WHERE id = %d", out.ID)}).into(&rows)
		if len(rows.Rows) != 1 || !strings.HasPrefix(fmt.Sprint(rows.Rows[0][0]), want) {
			t.Errorf("restored D1 row %d = %v", out.ID, rows.Rows)
		}
	}
	if complete == 0 {
		t.Fatal("no writer run is complete in the restored database")
	}
	t.Logf("%d writer runs complete in the archive, each with its KV value, D1 row and R2 object restored; edge: %s", complete, m.Edge)

	// A new run on the restored server opens the restored edge's sealed secret binding (API_KEY, 35 characters).
	again := r.trigger(writer, map[string]any{"id": 9999})
	r.waitStatus(writer, again, "complete", 90*time.Second)
	if v := r.must(200, "GET", "/api/resources/kv/namespaces/"+nsID+"/values/"+url.PathEscape("orders/9999")+"?"+c, nil).obj(); v["value"] != "order 9999 35" {
		t.Fatalf("a run after the restore wrote %v, want the secret's length 35", v["value"])
	}

	// The run waiting at backup time completes once its event is sent.
	r.must(202, "POST", "/api/workflows/"+approval+"/trigger", map[string]any{"connectionId": r.conn,
		"params": map[string]any{"instanceId": waiting, "eventType": "approval", "payload": map[string]any{"approved": true}}})
	done := r.waitStatus(approval, waiting, "complete", 90*time.Second)
	jsonEqual(t, done.Output, `{"order":36,"approved":true}`)
	q.stop(t)
}
