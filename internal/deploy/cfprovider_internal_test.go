package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestUploadWorkerExactSecrets: Cloudflare keeps a worker's secrets that an
// upload does not name and refuses a var that takes a secret's name (10053),
// so an upload deletes first the secrets it now gives another type, then
// uploads, then deletes the secrets it no longer has. The stub (Cloudflare's
// API) checks the exact requests.
func TestUploadWorkerExactSecrets(t *testing.T) {
	t.Parallel()
	want := []string{
		"GET /accounts/acct/workers/scripts/ef-wf/secrets",
		"DELETE /accounts/acct/workers/scripts/ef-wf/secrets/NOW_A_VAR",
		"PUT /accounts/acct/workers/scripts/ef-wf",
		"DELETE /accounts/acct/workers/scripts/ef-wf/secrets/EDGEFLOW_TRIGGER_SECRET",
	}
	var mu sync.Mutex
	var got []string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Header.Get("Authorization") != "Bearer tok":
			w.WriteHeader(401)
			fmt.Fprint(w, `{"success":false,"errors":[{"code":10000,"message":"Authentication error"}],"messages":[],"result":null}`)
		case r.Method == "GET":
			fmt.Fprint(w, `{"success":true,"errors":[],"messages":[],"result":[{"name":"EDGEFLOW_WORKER_TOKEN","type":"secret_text"},`+
				`{"name":"EDGEFLOW_TRIGGER_SECRET","type":"secret_text"},{"name":"NOW_A_VAR","type":"secret_text"}]}`)
		case r.Method == "PUT":
			if !strings.Contains(string(body), `"name":"NOW_A_VAR","text":"plain"`) || !strings.Contains(string(body), `"name":"EDGEFLOW_WORKER_TOKEN","text":"efw_new"`) {
				t.Errorf("upload metadata: %s", body)
			}
			fmt.Fprint(w, `{"success":true,"errors":[],"messages":[],"result":{"id":"ef-wf"}}`)
		default:
			fmt.Fprint(w, `{"success":true,"errors":[],"messages":[],"result":{}}`)
		}
	}))
	t.Cleanup(hs.Close)
	p, err := NewCloudflareProvider(ProviderConfig{BaseURL: hs.URL, APIToken: "tok", AccountID: "acct"}, hs.Client(), 10*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	err = p.UploadWorker(context.Background(), WorkerUpload{
		ScriptName: "ef-wf", MainModule: "index.js", Modules: map[string][]byte{"index.js": []byte("export default {}")},
		CompatibilityDate: "2025-01-01",
		Bindings: []Binding{
			{Type: BindingSecret, Name: "EDGEFLOW_WORKER_TOKEN", Text: "efw_new"},
			{Type: BindingPlainText, Name: "NOW_A_VAR", Text: "plain"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUploadWorkerAIBinding: a worker whose agent uses the workers-ai
// provider is uploaded with Cloudflare's AI binding, {"type":"ai","name":"AI"}
// in the metadata. The stub (Cloudflare's API) checks the exact bindings.
func TestUploadWorkerAIBinding(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var bindings string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Header.Get("Authorization") != "Bearer tok":
			w.WriteHeader(401)
			fmt.Fprint(w, `{"success":false,"errors":[{"code":10000,"message":"Authentication error"}],"messages":[],"result":null}`)
		case r.Method == "PUT" && r.URL.Path == "/accounts/acct/workers/scripts/ef-wf":
			if err := r.ParseMultipartForm(1 << 20); err != nil {
				t.Errorf("upload: %v", err)
			}
			var md struct {
				Bindings json.RawMessage `json:"bindings"`
			}
			json.Unmarshal([]byte(r.FormValue("metadata")), &md)
			mu.Lock()
			bindings = string(md.Bindings)
			mu.Unlock()
			fmt.Fprint(w, `{"success":true,"errors":[],"messages":[],"result":{"id":"ef-wf"}}`)
		default:
			fmt.Fprint(w, `{"success":true,"errors":[],"messages":[],"result":[]}`)
		}
	}))
	t.Cleanup(hs.Close)
	p, err := NewCloudflareProvider(ProviderConfig{BaseURL: hs.URL, APIToken: "tok", AccountID: "acct"}, hs.Client(), 10*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	err = p.UploadWorker(context.Background(), WorkerUpload{
		ScriptName: "ef-wf", MainModule: "index.js", Modules: map[string][]byte{"index.js": []byte("export default {}")},
		CompatibilityDate: "2025-01-01",
		Bindings:          []Binding{{Type: BindingAI, Name: "AI"}, {Type: BindingPlainText, Name: "MODE", Text: "x"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := `[{"type":"ai","name":"AI"},{"type":"plain_text","name":"MODE","text":"x"}]`; bindings != want {
		t.Errorf("the upload's bindings: %s, want %s", bindings, want)
	}
}
