package e2e_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
)

// Local edge accounts (issue 14, item 2): every organization reaches the local
// edge through an account of its own. These tests attack through edgeflow's
// public API with two sign-ups, beside the legitimate use.

// writerIR writes one KV value, one D1 row and one R2 object through the
// project's bindings.
func writerIR() map[string]any {
	return chain("Writer",
		step("make", "return { key: 'orders/' + event.payload.id, text: 'order ' + event.payload.id };"),
		node("kv", "kv-put", "kv", map[string]any{"key": "{{make.key}}", "value": "{{make.text}}"}),
		node("table", "d1-query", "table", map[string]any{"sql": "CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, label TEXT)"}),
		node("row", "d1-query", "row", map[string]any{"sql": "INSERT OR REPLACE INTO orders (id, label) VALUES (?1, ?2)",
			"params": "[{{event.payload.id}}, \"{{make.text}}\"]"}),
		node("obj", "r2-put", "obj", map[string]any{"key": "{{make.key}}.txt", "content": "{{make.text}}"}),
	)
}

// projectResources finds, through /api/resources with the server's own
// connection, the KV namespace, D1 database and R2 bucket of project projID
// ("" when the connection does not list it).
func (s *server) projectResources(projID string) (nsID, dbID, bucket string) {
	s.t.Helper()
	c := "connectionId=" + s.conn
	mark := strings.ReplaceAll(projID, "_", "-")
	var nss struct {
		Data []struct{ ID, Title string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/kv/namespaces?"+c, nil).into(&nss)
	for _, n := range nss.Data {
		if strings.Contains(n.Title, mark) {
			nsID = n.ID
		}
	}
	var dbs struct {
		Data []struct{ ID, Name string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/d1/databases?"+c, nil).into(&dbs)
	for _, d := range dbs.Data {
		if strings.Contains(d.Name, mark) {
			dbID = d.ID
		}
	}
	var buckets struct {
		Data []struct{ Name string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/r2/buckets?"+c, nil).into(&buckets)
	for _, b := range buckets.Data {
		if strings.Contains(b.Name, mark) {
			bucket = b.Name
		}
	}
	return nsID, dbID, bucket
}

// TestAttackLocalEdgeResourcesOfAnotherOrganization: tenant B lists and reads
// A's KV, D1 and R2 through /api/resources with its own connection, naming
// A's ids: nothing is listed and every read is not found. Twin: A browses
// its own data.
func TestAttackLocalEdgeResourcesOfAnotherOrganization(t *testing.T) {
	t.Parallel()
	a := newServer(t, serverOptions{})
	b := a.tenant("mallory-resources@example.com")
	for _, n := range []string{"kv-put", "d1-query", "r2-put"} {
		a.must(201, "POST", "/api/marketplace/install", map[string]any{"nodeId": n})
	}
	wf, _ := a.workflow("Writer", "workflow", writerIR())
	a.deploy(wf)
	a.waitStatus(wf, a.trigger(wf, map[string]any{"id": 7}), "complete", 60*time.Second)

	// twin: A sees and reads its own data
	nsID, dbID, bucket := a.projectResources(a.projID)
	if nsID == "" || dbID == "" || bucket == "" {
		t.Fatalf("A does not see its own resources: kv %q d1 %q r2 %q", nsID, dbID, bucket)
	}
	ac := "connectionId=" + a.conn
	if v := a.must(200, "GET", "/api/resources/kv/namespaces/"+nsID+"/values/"+url.PathEscape("orders/7")+"?"+ac, nil).obj(); v["value"] != "order 7" {
		t.Fatalf("A's own value = %v", v)
	}
	var q struct {
		Rows [][]any `json:"rows"`
	}
	a.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": a.conn,
		"sql": "SELECT label FROM orders WHERE id = 7"}).into(&q)
	if len(q.Rows) != 1 || q.Rows[0][0] != "order 7" {
		t.Fatalf("A's own query = %+v", q)
	}
	var objs struct {
		Data []struct{ Key string } `json:"data"`
	}
	a.must(200, "GET", "/api/resources/r2/buckets/"+bucket+"/objects?"+ac, nil).into(&objs)
	if len(objs.Data) != 1 || objs.Data[0].Key != "orders/7.txt" {
		t.Fatalf("A's own objects = %+v", objs)
	}
	var folders struct {
		Data     []struct{ Key string } `json:"data"`
		Prefixes []string               `json:"delimitedPrefixes"`
	}
	a.must(200, "GET", "/api/resources/r2/buckets/"+bucket+"/objects?delimiter=/&"+ac, nil).into(&folders)
	if len(folders.Data) != 0 || len(folders.Prefixes) != 1 || folders.Prefixes[0] != "orders/" {
		t.Fatalf("A's top folder = %+v, want only the prefix orders/", folders)
	}
	objectPath := "/api/resources/r2/buckets/" + bucket + "/objects/orders/7.txt?"
	req, _ := http.NewRequest("GET", a.url+objectPath+ac, nil)
	req.Header.Set("Authorization", "Bearer "+a.key)
	res, err := a.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != "order 7" || res.Header.Get("Content-Length") != "7" ||
		res.Header.Get("Content-Disposition") != `attachment; filename="7.txt"` || res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("A's own object download: %d %q %v", res.StatusCode, body, res.Header)
	}
	wantError(t, a.do("GET", "/api/resources/r2/buckets/"+bucket+"/objects/orders/8.txt?"+ac, nil), 404, "not_found")

	// attack: B's lists hold nothing of A's project
	if n, d, r := b.projectResources(a.projID); n != "" || d != "" || r != "" {
		t.Fatalf("B lists A's resources: kv %q d1 %q r2 %q", n, d, r)
	}
	// attack: B names A's ids and bucket with its own connection: not found
	bc := "connectionId=" + b.conn
	wantError(t, b.do("GET", "/api/resources/kv/namespaces/"+nsID+"/keys?"+bc, nil), 404, "not_found")
	wantError(t, b.do("GET", "/api/resources/kv/namespaces/"+nsID+"/values/"+url.PathEscape("orders/7")+"?"+bc, nil), 404, "not_found")
	wantError(t, b.do("POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": b.conn,
		"sql": "SELECT label FROM orders"}), 404, "not_found")
	wantError(t, b.do("GET", "/api/resources/r2/buckets/"+bucket+"/objects?"+bc, nil), 404, "not_found")
	wantError(t, b.do("GET", objectPath+bc, nil), 404, "not_found")
	wantError(t, b.do("GET", objectPath+ac, nil), 404, "not_found")
	// and A's connection stays A's: B cannot name it
	wantError(t, b.do("GET", "/api/resources/kv/namespaces?"+ac, nil), 404, "not_found")

	if aa, ba := a.connectionAccount(), b.connectionAccount(); aa == ba || aa == shared.edge.AccountID() || ba == shared.edge.AccountID() {
		t.Fatalf("accounts: A %q, B %q, legacy %q: each organization must have its own", aa, ba, shared.edge.AccountID())
	}
}

// TestAttackLocalEdgeWorkersOfAnotherOrganization: B cannot submit a
// sub_workflow node naming A's workflow id (binding another account's script
// is refused by the edge as well: edge/test/accounts.test.mjs), B does not see
// A's workers or instances in its account; A's workers answer under A's own
// workers.dev subdomain. Twin: A's deploys and runs work, and a second local
// connection of A shares A's account.
func TestAttackLocalEdgeWorkersOfAnotherOrganization(t *testing.T) {
	t.Parallel()
	a := newServer(t, serverOptions{})
	b := a.tenant("mallory-workers@example.com")
	target, _ := a.workflow("Target", "workflow", chain("Target", step("only", "return { from: 'a' };")))
	dA := a.deploy(target)
	// twin: A's run works
	a.waitStatus(target, a.trigger(target, map[string]any{}), "complete", 60*time.Second)

	acctA, acctB := a.connectionAccount(), b.connectionAccount()
	subA := edgeSubdomain(t, acctA)
	if !strings.HasPrefix(dA.URL, shared.edge.WorkersBaseURL()+"/"+subA+"/") {
		t.Fatalf("A's worker URL %q is not under A's subdomain %q", dA.URL, subA)
	}
	if res, err := http.Get(dA.URL); err != nil || res.StatusCode == 404 {
		t.Fatalf("A's worker URL %s: %v %v", dA.URL, res, err)
	} else {
		res.Body.Close()
	}

	// attack: B submits a workflow whose sub_workflow node names A's workflow;
	// it is refused at submit (the same answer as for an id that does not exist).
	thief, _ := b.workflow("Thief", "workflow", chain("Thief", step("only", "return 1;")))
	wantError(t, b.do("POST", "/api/workflows/"+thief+"/versions", map[string]any{"ir": chain("Thief",
		node("sub", "sub_workflow", "sub", map[string]any{"workflowId": target, "waitForCompletion": false}))}),
		422, "validation_failed")
	dB := b.deploy(thief)
	b.waitStatus(thief, b.trigger(thief, map[string]any{}), "complete", 60*time.Second)
	// A's Workflow has only A's own instance
	if n := edgeInstances(t, acctA, dA.WorkflowName); n != 1 {
		t.Fatalf("A's workflow has %d instances; B started some", n)
	}
	// B's account lists only B's worker
	scripts := edgeScripts(t, acctB)
	if len(scripts) != 1 || scripts[0] != dB.ScriptName {
		t.Fatalf("B's account holds %v", scripts)
	}
	// A's worker is not served under B's subdomain
	subB := edgeSubdomain(t, acctB)
	res, err := http.Get(shared.edge.WorkersBaseURL() + "/" + subB + "/" + dA.ScriptName + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("A's worker under B's subdomain answered %d", res.StatusCode)
	}

	// twin: a second local connection of A shares A's account
	conn2 := a.must(201, "POST", "/api/connections", map[string]any{"provider": "local", "name": "second"}).obj()
	stored2, err := a.store.FindConnectionByID(context.Background(), a.orgID, conn2["id"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if stored2.AccountID != acctA || conn2["accountId"] != api.RedactAccountID(acctA) {
		t.Fatalf("A's second connection has account %q (shown as %v), want %s", stored2.AccountID, conn2["accountId"], acctA)
	}
	if _, ok := conn2["credentials"].(map[string]any)["apiToken"]; ok {
		t.Fatalf("a local connection shows a token: %v", conn2)
	}
}

// edgeAdmin sends a GET with the edge's root token (the test's view of the
// edge, not an attacker's) and decodes the result.
func edgeAdmin(t *testing.T, path string, into any) {
	t.Helper()
	req, _ := http.NewRequest("GET", shared.edge.APIBaseURL()+path, nil)
	req.Header.Set("Authorization", "Bearer "+shared.edge.Token())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var env struct {
		Success bool            `json:"success"`
		Result  json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || !env.Success {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, raw)
	}
	if err := json.Unmarshal(env.Result, into); err != nil {
		t.Fatal(err)
	}
}

func edgeSubdomain(t *testing.T, account string) string {
	var out struct {
		Subdomain string `json:"subdomain"`
	}
	edgeAdmin(t, "/accounts/"+account+"/workers/subdomain", &out)
	return out.Subdomain
}

func edgeInstances(t *testing.T, account, workflow string) int {
	var out []json.RawMessage
	edgeAdmin(t, "/accounts/"+account+"/workflows/"+workflow+"/instances?per_page=100", &out)
	return len(out)
}

func edgeScripts(t *testing.T, account string) []string {
	var out []struct {
		ID string `json:"id"`
	}
	edgeAdmin(t, "/accounts/"+account+"/workers/scripts", &out)
	names := make([]string, len(out))
	for i, s := range out {
		names[i] = s.ID
	}
	return names
}
