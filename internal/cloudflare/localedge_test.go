package cloudflare_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

const edgeWorker = `import { WorkflowEntrypoint } from "cloudflare:workers";
import { double } from "./lib/steps.js";

export class TestFlow extends WorkflowEntrypoint {
  async run(event, step) {
    const p = event.payload ?? {};
    const a = await step.do("double", async () => ({ n: double(p.n ?? 1) }));
    if (p.sleepMs) await step.sleep("nap", p.sleepMs);
    let approved = null;
    if (p.waitFor) {
      const ev = await step.waitForEvent("approval", { type: p.waitFor, timeout: "1 hour" });
      approved = ev.payload;
    }
    if (p.fail) {
      await step.do("boom", { retries: { limit: 1, delay: 10 } }, async () => { throw new Error("kaboom"); });
    }
    return { a, approved, greeting: this.env.GREETING };
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/seed") {
      await env.KV.put("dir/a b", "kv value");
      await env.KV.put("other", "x");
      await env.DB.exec("CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, name TEXT)");
      await env.DB.prepare("INSERT OR REPLACE INTO items (id, name) VALUES (?, ?), (?, ?)").bind(1, "one", 2, "two").run();
      await env.BUCKET.put("docs/readme.txt", "hello r2", { httpMetadata: { contentType: "text/plain" } });
      return Response.json({ seeded: true });
    }
    return Response.json({ greeting: env.GREETING, secret: env.API_KEY ? "set" : "unset" });
  },
};
`

// startEdge starts the local edge for the test, or skips when its npm packages are missing (fails under CI=1).
func startEdge(t *testing.T) *localedge.Edge {
	t.Helper()
	script, err := filepath.Abs("../../edge/server.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "miniflare")); err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("edge/node_modules is missing (run npm ci in edge/); set CI=1 to make this a failure")
		}
		t.Fatalf("edge/node_modules is missing: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	e, err := localedge.Start(ctx, localedge.Options{Script: script, DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func waitInstance(t *testing.T, c *cloudflare.Client, wf, id string, ok func(cloudflare.InstanceStatus) bool) cloudflare.InstanceStatus {
	t.Helper()
	var last cloudflare.InstanceStatus
	testenv.WaitFor(t, 30*time.Second, 50*time.Millisecond, "instance "+id+" to reach the condition", func() (bool, string) {
		st, err := c.GetInstance(context.Background(), wf, id)
		if err != nil {
			t.Fatalf("GetInstance %s: %v", id, err)
		}
		last = st
		return ok(st), "status " + st.Status
	})
	return last
}

func status(s string) func(cloudflare.InstanceStatus) bool {
	return func(st cloudflare.InstanceStatus) bool { return st.Status == s }
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestLocalEdge(t *testing.T) {
	t.Parallel()
	e := startEdge(t)
	ctx := context.Background()
	c, err := cloudflare.New(cloudflare.Options{BaseURL: e.APIBaseURL(), APIToken: e.Token(), AccountID: e.AccountID(), WorkersBaseURL: e.WorkersBaseURL()})
	if err != nil {
		t.Fatal(err)
	}

	tok, err := c.VerifyToken(ctx)
	if err != nil || !tok.Active() {
		t.Fatalf("VerifyToken = %+v, %v", tok, err)
	}
	accts, err := c.ListAccounts(ctx)
	if err != nil || !slices.ContainsFunc(accts, func(a cloudflare.Account) bool { return a.ID == e.AccountID() }) {
		t.Fatalf("ListAccounts = %+v, %v", accts, err)
	}
	bad, _ := cloudflare.New(cloudflare.Options{BaseURL: e.APIBaseURL(), APIToken: "wrong", AccountID: e.AccountID()})
	if _, err := bad.VerifyToken(ctx); !cloudflare.IsUnauthorized(err) {
		t.Errorf("VerifyToken with a wrong token: %v, want unauthorized", err)
	}

	// Resources first, as deploy creates them before binding them; Ensure* twice finds the same one.
	ns, err := c.EnsureKVNamespace(ctx, "cf-test-kv")
	if err != nil {
		t.Fatal(err)
	}
	db, err := c.EnsureD1Database(ctx, "cf-test-db")
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := c.EnsureR2Bucket(ctx, "cf-test-bucket")
	if err != nil {
		t.Fatal(err)
	}
	ns2, err1 := c.EnsureKVNamespace(ctx, "cf-test-kv")
	db2, err2 := c.EnsureD1Database(ctx, "cf-test-db")
	bucket2, err3 := c.EnsureR2Bucket(ctx, "cf-test-bucket")
	if err1 != nil || err2 != nil || err3 != nil || ns2.ID != ns.ID || db2.UUID != db.UUID || bucket2.Name != bucket.Name {
		t.Fatalf("second Ensure*: %+v %v, %+v %v, %+v %v", ns2, err1, db2, err2, bucket2, err3)
	}

	err = c.UploadScript(ctx, "cftest", cloudflare.Script{
		MainModule: "index.js",
		Modules: []cloudflare.Module{
			{Name: "index.js", Content: []byte(edgeWorker)},
			{Name: "lib/steps.js", Content: []byte("export function double(n) { return n * 2; }\n")},
		},
		CompatibilityDate: "2025-01-01",
		Bindings: []cloudflare.Binding{
			cloudflare.WorkflowBinding("FLOW", "cf-test-flow", "TestFlow"),
			cloudflare.KVBinding("KV", ns.ID), cloudflare.D1Binding("DB", db.UUID), cloudflare.R2Binding("BUCKET", bucket.Name),
			cloudflare.PlainText("GREETING", "hello"), cloudflare.SecretText("API_KEY", "s3cr3t"),
		},
	})
	if err != nil {
		t.Fatalf("UploadScript: %v", err)
	}
	wf, err := c.PutWorkflow(ctx, cloudflare.WorkflowSpec{Name: "cf-test-flow", ScriptName: "cftest", ClassName: "TestFlow"})
	if err != nil || wf.Name != "cf-test-flow" || wf.ScriptName != "cftest" || wf.ID == "" {
		t.Fatalf("PutWorkflow = %+v, %v", wf, err)
	}
	if err := c.SetScriptSubdomain(ctx, "cftest", true); err != nil {
		t.Fatal(err)
	}
	workerURL, err := c.WorkersDevURL(ctx, "cftest")
	if err != nil || workerURL != e.WorkerURL("cftest") {
		t.Fatalf("WorkersDevURL = %q, %v; want %q", workerURL, err, e.WorkerURL("cftest"))
	}
	if code, body := httpGet(t, workerURL+"/"); code != 200 || body != `{"greeting":"hello","secret":"set"}` {
		t.Fatalf("worker answered %d %s", code, body)
	}
	if sub, err := c.GetAccountSubdomain(ctx); err != nil || sub == "" {
		t.Errorf("GetAccountSubdomain = %q, %v", sub, err)
	}
	if got, err := c.GetWorkflow(ctx, "cf-test-flow"); err != nil || got.ClassName != "TestFlow" {
		t.Errorf("GetWorkflow = %+v, %v", got, err)
	}
	if all, err := c.ListWorkflows(ctx); err != nil || !slices.ContainsFunc(all, func(w cloudflare.Workflow) bool { return w.Name == "cf-test-flow" }) {
		t.Errorf("ListWorkflows = %+v, %v", all, err)
	}

	t.Run("instances", func(t *testing.T) {
		in, err := c.CreateInstance(ctx, "cf-test-flow", "run-1", json.RawMessage(`{"n":4}`))
		if err != nil || in.ID != "run-1" {
			t.Fatalf("CreateInstance = %+v, %v", in, err)
		}
		done := waitInstance(t, c, "cf-test-flow", "run-1", status("complete"))
		if diff := cmp.Diff(`{"a":{"n":8},"approved":null,"greeting":"hello"}`, canonJSON(t, string(done.Output))); diff != "" {
			t.Errorf("output (-want +got):\n%s", diff)
		}
		if done.Start == nil || done.End == nil || done.Error != nil || len(done.Steps) == 0 {
			t.Errorf("complete instance: %+v", done)
		}
		if _, err := c.CreateInstance(ctx, "cf-test-flow", "run-1", nil); !cloudflare.IsConflict(err) {
			t.Errorf("duplicate id: %v, want conflict", err)
		}
		gen, err := c.CreateInstance(ctx, "cf-test-flow", "", nil)
		if err != nil || gen.ID == "" {
			t.Fatalf("CreateInstance without id = %+v, %v", gen, err)
		}
		waitInstance(t, c, "cf-test-flow", gen.ID, status("complete"))

		// An event to a waiting instance completes it.
		if _, err := c.CreateInstance(ctx, "cf-test-flow", "wait-1", json.RawMessage(`{"waitFor":"approve"}`)); err != nil {
			t.Fatal(err)
		}
		waitInstance(t, c, "cf-test-flow", "wait-1", func(st cloudflare.InstanceStatus) bool {
			return slices.ContainsFunc(st.Steps, func(s cloudflare.InstanceStep) bool { return s.Type == "waitForEvent" })
		})
		if err := c.SendEvent(ctx, "cf-test-flow", "wait-1", "approve", json.RawMessage(`{"by":"ann"}`)); err != nil {
			t.Fatal(err)
		}
		done = waitInstance(t, c, "cf-test-flow", "wait-1", status("complete"))
		if got := canonJSON(t, string(done.Output)); got != `{"a":{"n":2},"approved":{"by":"ann"},"greeting":"hello"}` {
			t.Errorf("output after event: %s", got)
		}

		// Pause, resume, terminate.
		if _, err := c.CreateInstance(ctx, "cf-test-flow", "ctl-1", json.RawMessage(`{"waitFor":"never"}`)); err != nil {
			t.Fatal(err)
		}
		waitInstance(t, c, "cf-test-flow", "ctl-1", status("waiting"))
		if err := c.ChangeInstanceStatus(ctx, "cf-test-flow", "ctl-1", "pause"); err != nil {
			t.Fatal(err)
		}
		waitInstance(t, c, "cf-test-flow", "ctl-1", status("paused"))
		if err := c.ChangeInstanceStatus(ctx, "cf-test-flow", "ctl-1", "resume"); err != nil {
			t.Fatal(err)
		}
		waitInstance(t, c, "cf-test-flow", "ctl-1", func(st cloudflare.InstanceStatus) bool { return st.Status == "waiting" || st.Status == "running" })
		if err := c.ChangeInstanceStatus(ctx, "cf-test-flow", "ctl-1", "terminate"); err != nil {
			t.Fatal(err)
		}
		waitInstance(t, c, "cf-test-flow", "ctl-1", status("terminated"))
		if err := c.ChangeInstanceStatus(ctx, "cf-test-flow", "ctl-1", "terminate"); !cloudflare.IsConflict(err) {
			t.Errorf("terminating a terminated instance: %v, want conflict", err)
		}

		// A step that fails after its retries errors the instance with the step's error.
		if _, err := c.CreateInstance(ctx, "cf-test-flow", "fail-1", json.RawMessage(`{"fail":true}`)); err != nil {
			t.Fatal(err)
		}
		failed := waitInstance(t, c, "cf-test-flow", "fail-1", status("errored"))
		if failed.Error == nil || failed.Error.Message != "kaboom" {
			t.Errorf("errored instance error = %+v", failed.Error)
		}

		list, err := c.ListInstances(ctx, "cf-test-flow", cloudflare.InstancesQuery{PerPage: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"run-1", "wait-1", "ctl-1", "fail-1", gen.ID} {
			if !slices.ContainsFunc(list, func(i cloudflare.InstanceSummary) bool { return i.ID == id }) {
				t.Errorf("ListInstances lacks %s", id)
			}
		}
		errored, err := c.ListInstances(ctx, "cf-test-flow", cloudflare.InstancesQuery{Status: "errored"})
		if err != nil || len(errored) != 1 || errored[0].ID != "fail-1" {
			t.Errorf("ListInstances(errored) = %+v, %v", errored, err)
		}
		if _, err := c.GetInstance(ctx, "cf-test-flow", "nope"); !cloudflare.IsNotFound(err) {
			t.Errorf("missing instance: %v, want not found", err)
		}
	})

	t.Run("storage", func(t *testing.T) {
		if code, body := httpGet(t, workerURL+"/seed"); code != 200 {
			t.Fatalf("seed: %d %s", code, body)
		}
		nss, err := c.ListKVNamespaces(ctx)
		if err != nil || !slices.Contains(nss, ns) {
			t.Errorf("ListKVNamespaces = %+v, %v", nss, err)
		}
		keys, err := c.ListKVKeys(ctx, ns.ID, cloudflare.KVKeysQuery{Prefix: "dir/"})
		if err != nil || len(keys.Keys) != 1 || keys.Keys[0].Name != "dir/a b" || keys.Cursor != "" {
			t.Errorf("ListKVKeys = %+v, %v", keys, err)
		}
		val, err := c.GetKVValue(ctx, ns.ID, "dir/a b")
		if err != nil || string(val) != "kv value" {
			t.Errorf("GetKVValue = %q, %v", val, err)
		}
		if _, err := c.GetKVValue(ctx, ns.ID, "missing"); !cloudflare.IsNotFound(err) {
			t.Errorf("missing key: %v, want not found", err)
		}
		dbs, err := c.ListD1Databases(ctx)
		if err != nil || !slices.ContainsFunc(dbs, func(d cloudflare.D1Database) bool { return d.UUID == db.UUID && d.Name == "cf-test-db" }) {
			t.Errorf("ListD1Databases = %+v, %v", dbs, err)
		}
		res, err := c.QueryD1(ctx, db.UUID, "SELECT id, name FROM items WHERE id >= ? ORDER BY id", []any{1})
		if err != nil {
			t.Fatal(err)
		}
		want := cloudflare.D1Result{Columns: []string{"id", "name"}, Rows: [][]any{{json.Number("1"), "one"}, {json.Number("2"), "two"}}}
		if diff := cmp.Diff(want, res, cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Meta" }, cmp.Ignore())); diff != "" {
			t.Errorf("QueryD1 (-want +got):\n%s", diff)
		}
		if _, err := c.QueryD1(ctx, db.UUID, "SELECT * FROM no_such_table", nil); !cloudflare.IsInvalidArgument(err) {
			t.Errorf("bad SQL: %v, want invalid argument", err)
		}
		buckets, err := c.ListR2Buckets(ctx)
		if err != nil || !slices.ContainsFunc(buckets, func(b cloudflare.R2Bucket) bool { return b.Name == "cf-test-bucket" }) {
			t.Errorf("ListR2Buckets = %+v, %v", buckets, err)
		}
		objs, err := c.ListR2Objects(ctx, bucket.Name, cloudflare.R2ObjectsQuery{Prefix: "docs/"})
		if err != nil || len(objs.Objects) != 1 || objs.Objects[0].Key != "docs/readme.txt" || objs.Objects[0].Size != 8 {
			t.Errorf("ListR2Objects = %+v, %v", objs, err)
		}
	})

	t.Run("bad upload", func(t *testing.T) {
		err := c.UploadScript(ctx, "cfbroken", cloudflare.Script{MainModule: "index.js", Modules: []cloudflare.Module{{Name: "index.js", Content: []byte("export default {")}}})
		if !cloudflare.IsInvalidArgument(err) || strings.Contains(err.Error(), e.Token()) {
			t.Errorf("broken upload: %v, want invalid argument", err)
		}
	})

	t.Run("teardown", func(t *testing.T) {
		if err := c.DeleteWorkflow(ctx, "cf-test-flow"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetWorkflow(ctx, "cf-test-flow"); !cloudflare.IsNotFound(err) {
			t.Errorf("deleted workflow: %v, want not found", err)
		}
		if err := c.DeleteScript(ctx, "cftest"); err != nil {
			t.Fatal(err)
		}
		if err := c.DeleteScript(ctx, "cftest"); !cloudflare.IsNotFound(err) {
			t.Errorf("deleting again: %v, want not found", err)
		}
		if code, _ := httpGet(t, workerURL+"/"); code != 404 {
			t.Errorf("deleted worker answered %d", code)
		}
	})
}
