package e2e_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestFunction: a function is invoked at its url (EXPORT_ values, non-POST
// 200, an error 500 {message}); trigger refuses it; takedown stops the url
// and a second takedown is 409.
func TestFunction(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	validate := step("validate", "if (event.payload.fail) throw new Error('refused: ' + event.payload.fail); return { ok: true };")
	validate["name"] = "validate"
	sum := step("sum", "return {{validate.ok}} ? event.payload.a + event.payload.b : 0;")
	sum["name"] = "EXPORT_sum"
	label := step("label", "return 'sum is ' + {{sum}};")
	label["name"] = "EXPORT_label"
	wf, _ := s.workflow("Adder", "script", script("Adder", validate, sum, label))
	d := s.deploy(wf)
	if d.WorkflowName != "" || d.URL == "" {
		t.Fatalf("function deployment = %+v", d)
	}
	full := s.must(200, "GET", "/api/workflows/"+wf+"/full", nil).obj()
	if a, _ := full["activeDeployment"].(map[string]any); a == nil || a["url"] != d.URL {
		t.Fatalf("full.activeDeployment = %v, want url %s", full["activeDeployment"], d.URL)
	}

	status, body := post(t, "POST", d.URL, `{"a":2,"b":3}`)
	if status != 200 {
		t.Fatalf("POST url = %d %s", status, body)
	}
	jsonEqual(t, body, `{"sum":5,"label":"sum is 5"}`)
	if status, _ := post(t, "GET", d.URL, ""); status != 200 {
		t.Fatalf("GET url = %d", status)
	}
	status, body = post(t, "POST", d.URL, `{"fail":"no"}`)
	var msg struct {
		Message string `json:"message"`
	}
	json.Unmarshal(body, &msg)
	if status != 500 || !strings.Contains(msg.Message, "refused: no") {
		t.Fatalf("failing POST = %d %s", status, body)
	}

	m := wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn}), 400, "bad_request")
	if !strings.Contains(m["error"].(string), "url") {
		t.Fatalf("trigger of a function: %v", m)
	}
	if runs := s.runs(wf); len(runs) != 0 {
		t.Fatalf("a function has runs: %+v", runs)
	}

	s.must(200, "POST", "/api/workflows/"+wf+"/takedown", map[string]any{"connectionId": s.conn})
	if status, _ := post(t, "POST", d.URL, `{"a":1,"b":1}`); status == 200 {
		t.Fatalf("the url still answers after takedown")
	}
	full = s.must(200, "GET", "/api/workflows/"+wf+"/full", nil).obj()
	if full["activeDeployment"] != nil || full["workflow"].(map[string]any)["activeVersionId"] != "" {
		t.Fatalf("after takedown: activeDeployment %v, activeVersionId %v", full["activeDeployment"], full["workflow"].(map[string]any)["activeVersionId"])
	}
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/takedown", map[string]any{"connectionId": s.conn}), 409, "conflict")
}

// TestTakedownWorkflow: takedown of a workflow deletes its worker and
// Workflow; trigger afterwards is 409 and a redeploy works again.
func TestTakedownWorkflow(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Gone", "workflow", chain("Gone", step("only", "return 'v1';")))
	d := s.deploy(wf)
	id := s.trigger(wf, map[string]any{})
	s.waitStatus(wf, id, "complete", 30*time.Second)
	s.must(200, "POST", "/api/workflows/"+wf+"/takedown", map[string]any{"connectionId": s.conn})
	if status, _ := post(t, "POST", d.URL, `{}`); status == 200 {
		t.Fatal("the worker still answers after takedown")
	}
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn}), 409, "conflict")
	// The run keeps its record.
	if r := s.run(wf, id); r.Status != "complete" {
		t.Fatalf("run after takedown = %+v", r)
	}
	d2 := s.deploy(wf)
	if d2.ID == d.ID {
		t.Fatal("redeploy after takedown reused the removed deployment")
	}
	id2 := s.trigger(wf, map[string]any{})
	jsonEqual(t, s.waitStatus(wf, id2, "complete", 30*time.Second).Output, `"v1"`)
}

// TestDeployRefusals: a locked version → 409; missing variables and
// secrets → 400 naming every one; nothing is deployed.
func TestDeployRefusals(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, ver := s.workflow("Locked", "workflow", chain("Locked", step("only", "return 1;")))
	s.must(200, "PATCH", "/api/workflows/"+wf+"/versions/"+ver, map[string]any{"locked": true})
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn}), 409, "conflict")
	if st, _ := s.deployStream(wf, map[string]any{"connectionId": s.conn}, nil); st != 409 {
		t.Fatalf("deploy-stream of a locked version = %d", st)
	}
	s.must(200, "PATCH", "/api/workflows/"+wf+"/versions/"+ver, map[string]any{"locked": false})
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": "con_unknown"}), 404, "not_found")
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": "ver_unknown"}), 404, "not_found")

	// A marketplace node that needs a secret, a global reference that does
	// not resolve and an env reference nothing defines.
	s.must(201, "POST", "/api/marketplace/install", map[string]any{"nodeId": "slack-message", "version": "2.0.0"})
	slack := node("post", "slack-message", "Post", map[string]any{"channel": "#ops", "text": "hi {{env.UNDEFINED_NAME}}"})
	slack["version"] = "2.0.0"
	wf2, _ := s.workflow("Notify", "workflow", chain("Notify", step("first", "return 1;"), slack))
	s.must(200, "PATCH", "/api/workflows/"+wf2, map[string]any{"envVars": []map[string]any{
		{"name": "REGION", "value": "{{global.env.NOT_DEFINED}}", "isSecret": false},
		{"name": "API_KEY", "value": "sk-very-secret-value", "isSecret": true},
	}})
	r := s.do("POST", "/api/workflows/"+wf2+"/deploy", map[string]any{"connectionId": s.conn})
	m := wantError(t, r, 400, "deploy_failed")
	for _, name := range []string{"SLACK_BOT_TOKEN", "REGION", "UNDEFINED_NAME"} {
		if !strings.Contains(m["error"].(string), name) || !strings.Contains(string(r.body), `"name":"`+name+`"`) {
			t.Errorf("the refusal does not name %s: %s", name, r.body)
		}
	}
	if strings.Contains(string(r.body), "sk-very-secret-value") {
		t.Fatalf("the refusal shows a secret: %s", r.body)
	}
	var deps struct {
		Data []deployment `json:"data"`
	}
	s.must(200, "GET", "/api/deployments", nil).into(&deps)
	if len(deps.Data) != 0 {
		t.Fatalf("refused deploys recorded deployments: %+v", deps.Data)
	}

	// Defining them (the global in the project, the secret in the
	// organization) makes the deploy pass the check.
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "NOT_DEFINED", "value": "eu", "isSecret": false})
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "SLACK_BOT_TOKEN", "value": "xoxb-secret", "isSecret": true})
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "UNDEFINED_NAME", "value": "x", "isSecret": false})
	d := s.deploy(wf2)
	if d.URL == "" {
		t.Fatalf("deploy = %+v", d)
	}
	code := s.must(200, "GET", "/api/workflows/"+wf2+"/versions/"+d.VersionID, nil).str("code")
	for _, secret := range []string{"xoxb-secret", "sk-very-secret-value"} {
		if strings.Contains(code, secret) {
			t.Fatalf("generated code holds a secret")
		}
	}
}

// TestVerifyToken: a local verification without a token only says the edge
// answers (the edge's root token and legacy account are never shown); a
// wrong token is not valid.
func TestVerifyToken(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	var ok struct {
		Valid    bool `json:"valid"`
		Accounts []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"accounts"`
	}
	s.must(200, "POST", "/api/connections/verify-token", map[string]any{"provider": "local", "credentials": map[string]string{}}).into(&ok)
	if !ok.Valid || len(ok.Accounts) != 0 {
		t.Fatalf("verify = %+v", ok)
	}
	s.must(200, "POST", "/api/connections/verify-token", map[string]any{"provider": "local",
		"credentials": map[string]string{"apiToken": "wrong-token"}}).into(&ok)
	if ok.Valid || len(ok.Accounts) != 0 {
		t.Fatalf("verify of a wrong token = %+v", ok)
	}
	wantError(t, s.do("POST", "/api/connections/verify-token", map[string]any{"provider": "aws"}), 422, "validation_failed")
}

// TestResources: data a workflow writes through its KV, D1 and R2
// bindings is browsed through /resources.
func TestResources(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	for _, n := range []string{"kv-put", "d1-query", "r2-put"} {
		s.must(201, "POST", "/api/marketplace/install", map[string]any{"nodeId": n})
	}
	wf, _ := s.workflow("Writer", "workflow", chain("Writer",
		step("make", "return { key: 'orders/' + event.payload.id, text: 'order ' + event.payload.id };"),
		node("kv", "kv-put", "kv", map[string]any{"key": "{{make.key}}", "value": "{{make.text}}"}),
		node("table", "d1-query", "table", map[string]any{"sql": "CREATE TABLE IF NOT EXISTS orders (id INTEGER PRIMARY KEY, label TEXT)"}),
		node("row", "d1-query", "row", map[string]any{"sql": "INSERT OR REPLACE INTO orders (id, label) VALUES (?1, ?2)",
			"params": "[{{event.payload.id}}, \"{{make.text}}\"]"}),
		node("obj", "r2-put", "obj", map[string]any{"key": "{{make.key}}.txt", "content": "{{make.text}}"}),
	))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"id": 42})
	s.waitStatus(wf, id, "complete", 60*time.Second)

	c := "connectionId=" + s.conn
	var nss struct {
		Data []struct{ ID, Title string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/kv/namespaces?"+c, nil).into(&nss)
	nsID := ""
	for _, n := range nss.Data {
		if strings.HasPrefix(n.Title, "ef-"+strings.ReplaceAll(s.projID, "_", "-")) && strings.HasSuffix(n.Title, "-kv") {
			nsID = n.ID
		}
	}
	if nsID == "" {
		t.Fatalf("no namespace of the project in %+v", nss.Data)
	}
	var keys struct {
		Data       []struct{ Name string } `json:"data"`
		NextCursor *string                 `json:"nextCursor"`
	}
	s.must(200, "GET", "/api/resources/kv/namespaces/"+nsID+"/keys?prefix=orders/&limit=10&"+c, nil).into(&keys)
	if len(keys.Data) != 1 || keys.Data[0].Name != "orders/42" {
		t.Fatalf("keys = %+v", keys)
	}
	v := s.must(200, "GET", "/api/resources/kv/namespaces/"+nsID+"/values/"+url.PathEscape("orders/42")+"?"+c, nil).obj()
	if v["value"] != "order 42" {
		t.Fatalf("value = %v", v)
	}
	wantError(t, s.do("GET", "/api/resources/kv/namespaces/"+nsID+"/values/missing-key?"+c, nil), 404, "not_found")

	var dbs struct {
		Data []struct{ ID, Name string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/d1/databases?"+c, nil).into(&dbs)
	dbID := ""
	for _, d := range dbs.Data {
		if strings.HasSuffix(d.Name, "-db") && strings.Contains(d.Name, strings.ReplaceAll(s.projID, "_", "-")) {
			dbID = d.ID
		}
	}
	if dbID == "" {
		t.Fatalf("no database of the project in %+v", dbs.Data)
	}
	var q struct {
		Columns []string `json:"columns"`
		Rows    [][]any  `json:"rows"`
	}
	s.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": s.conn,
		"sql": "SELECT id, label FROM orders WHERE id = ?", "params": []any{42}}).into(&q)
	if len(q.Columns) != 2 || q.Columns[0] != "id" || len(q.Rows) != 1 || q.Rows[0][1] != "order 42" {
		t.Fatalf("query = %+v", q)
	}
	wantError(t, s.do("POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": s.conn,
		"sql": "SELECT nope FROM nowhere"}), 422, "validation_failed")

	var buckets struct {
		Data []struct{ Name string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/r2/buckets?"+c, nil).into(&buckets)
	bucket := ""
	for _, b := range buckets.Data {
		if strings.HasSuffix(b.Name, "-bucket") && strings.Contains(b.Name, strings.ReplaceAll(s.projID, "_", "-")) {
			bucket = b.Name
		}
	}
	if bucket == "" {
		t.Fatalf("no bucket of the project in %+v", buckets.Data)
	}
	var objs struct {
		Data []struct {
			Key  string
			Size int64
		} `json:"data"`
	}
	s.must(200, "GET", "/api/resources/r2/buckets/"+bucket+"/objects?prefix=orders/&"+c, nil).into(&objs)
	if len(objs.Data) != 1 || objs.Data[0].Key != "orders/42.txt" || objs.Data[0].Size != int64(len("order 42")) {
		t.Fatalf("objects = %+v", objs.Data)
	}

	wantError(t, s.do("GET", "/api/resources/kv/namespaces", nil), 422, "validation_failed")
	wantError(t, s.do("GET", "/api/resources/r2/buckets?connectionId=con_other", nil), 404, "not_found")
}

// TestCodeBindings: step code that reads env.KV_*, env.DB_* and env.BUCKET_*
// gets a KV namespace, a D1 database and an R2 bucket of the project at
// deploy, and the run uses them for real; the data is then browsable.
func TestCodeBindings(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Code bindings", "workflow", chain("Code bindings",
		step("write", `const key = 'note/' + event.payload.id;
await env.KV_NOTES.put(key, event.payload.text);
await env.DB_NOTES.exec('CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT)');
await env.DB_NOTES.prepare('INSERT OR REPLACE INTO notes (id, text) VALUES (?1, ?2)').bind(event.payload.id, event.payload.text).run();
await env.BUCKET_NOTES.put(key + '.txt', event.payload.text);
return { key };`),
		step("read", `const kv = await env.KV_NOTES.get({{write.key}});
const row = await env.DB_NOTES.prepare('SELECT text FROM notes WHERE id = ?1').bind(event.payload.id).first();
const obj = await env.BUCKET_NOTES.get({{write.key}} + '.txt');
return { kv, d1: row ? row.text : null, r2: obj ? await obj.text() : null };`),
	))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"id": 7, "text": "hello"})
	r := s.waitStatus(wf, id, "complete", 60*time.Second)
	var out map[string]any
	if err := json.Unmarshal(r.Output, &out); err != nil || out["kv"] != "hello" || out["d1"] != "hello" || out["r2"] != "hello" {
		t.Fatalf("output = %s (%v)", r.Output, err)
	}

	c := "connectionId=" + s.conn
	project := strings.ReplaceAll(s.projID, "_", "-")
	var nss struct {
		Data []struct{ ID, Title string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/kv/namespaces?"+c, nil).into(&nss)
	found := false
	for _, n := range nss.Data {
		found = found || n.Title == "ef-"+project+"-kv-notes"
	}
	if !found {
		t.Errorf("no namespace ef-%s-kv-notes in %+v", project, nss.Data)
	}
	var buckets struct {
		Data []struct{ Name string } `json:"data"`
	}
	s.must(200, "GET", "/api/resources/r2/buckets?"+c, nil).into(&buckets)
	found = false
	for _, b := range buckets.Data {
		found = found || b.Name == "ef-"+project+"-bucket-notes"
	}
	if !found {
		t.Errorf("no bucket ef-%s-bucket-notes in %+v", project, buckets.Data)
	}
}

// TestCloudflareConnection deploys through a connection of provider
// cloudflare whose API is the local edge's: a refused token is a 400 with
// the provider's reason and records nothing; the right one deploys and runs,
// with the workers.dev URL of the account's subdomain.
func TestCloudflareConnection(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{cloudflareBase: shared.edge.APIBaseURL()})
	bad := s.must(201, "POST", "/api/connections", map[string]any{"provider": "cloudflare", "name": "bad",
		"credentials": map[string]string{"apiToken": "not-the-token-of-this-edge", "accountId": shared.edge.AccountID()}}).str("id")
	good := s.must(201, "POST", "/api/connections", map[string]any{"provider": "cloudflare", "name": "good",
		"credentials": map[string]string{"apiToken": shared.edge.Token(), "accountId": shared.edge.AccountID()}}).str("id")
	wf, _ := s.workflow("Remote", "workflow", chain("Remote", step("only", "return { from: 'cloudflare' };")))

	r := s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": bad})
	m := wantError(t, r, 400, "deploy_failed")
	if !strings.Contains(m["error"].(string), "credentials were refused") || strings.Contains(string(r.body), "not-the-token") {
		t.Fatalf("refused credentials: %s", r.body)
	}
	var ok struct {
		Valid bool `json:"valid"`
	}
	s.must(200, "POST", "/api/connections/verify-token", map[string]any{"provider": "cloudflare",
		"credentials": map[string]string{"apiToken": "not-the-token"}}).into(&ok)
	if ok.Valid {
		t.Fatal("a wrong token verified")
	}

	var d deployment
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": good}).into(&d)
	if !strings.HasPrefix(d.URL, "https://"+d.ScriptName+".") || !strings.HasSuffix(d.URL, ".workers.dev") {
		t.Fatalf("url = %q", d.URL)
	}
	id := s.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": good}).str("id")
	jsonEqual(t, s.waitStatus(wf, id, "complete", 30*time.Second).Output, `{"from":"cloudflare"}`)
	// A route of deployConfig is set and becomes the url.
	routed, _ := s.workflow("Routed", "workflow", chain("Routed", step("only", "return 1;")))
	s.must(200, "PATCH", "/api/workflows/"+routed, map[string]any{"deployConfig": map[string]any{
		"route": map[string]any{"pattern": "shop.example.com/orders/*", "zoneName": "example.com"}}})
	var rd deployment
	s.must(200, "POST", "/api/workflows/"+routed+"/deploy", map[string]any{"connectionId": good}).into(&rd)
	if rd.URL != "https://shop.example.com/orders/" {
		t.Fatalf("routed url = %q", rd.URL)
	}
	// Not deployed on the other connection.
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn}), 409, "conflict")
}

// TestDeleteDeployedWorkflow: deleting a deployed workflow takes its worker
// down first, so its url stops answering.
func TestDeleteDeployedWorkflow(t *testing.T) {
	requireEdge(t)
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("doomed", "script", script("doomed", node("out", "step", "EXPORT_out", map[string]any{"code": "return 1;"})))
	d := s.deploy(wf)
	if status, body := post(t, "POST", d.URL, `{}`); status != 200 {
		t.Fatalf("deployed function answered %d %s", status, body)
	}
	s.must(204, "DELETE", "/api/workflows/"+wf, nil)
	if status, _ := post(t, "POST", d.URL, `{}`); status == 200 {
		t.Fatalf("the url still answers after the workflow was deleted")
	}
	wantError(t, s.do("GET", "/api/workflows/"+wf, nil), 404, "not_found")
}
