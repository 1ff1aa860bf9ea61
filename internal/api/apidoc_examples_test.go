package api_test

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
)

// liveExamples are the routes whose examples need a deployed workflow or a
// provider account, which this package's test world does not have; the e2e
// test TestRouteExamplesLive replays them against the local edge.
var liveExamples = map[string]bool{
	"POST /api/workflows/{workflowId}/deploy":                        true,
	"POST /api/workflows/{workflowId}/deploy-stream":                 true,
	"POST /api/workflows/{workflowId}/takedown":                      true,
	"POST /api/workflows/{workflowId}/trigger":                       true,
	"GET /api/workflows/{workflowId}/trigger-secret":                 true,
	"GET /api/workflows/{workflowId}/runs/{runId}":                   true,
	"POST /api/workflows/{workflowId}/runs/{runId}/pause":            true,
	"POST /api/workflows/{workflowId}/runs/{runId}/resume":           true,
	"POST /api/workflows/{workflowId}/runs/{runId}/terminate":        true,
	"GET /api/resources/kv/namespaces":                               true,
	"GET /api/resources/kv/namespaces/{namespaceId}/keys":            true,
	"GET /api/resources/kv/namespaces/{namespaceId}/values/{key...}": true,
	"GET /api/resources/d1/databases":                                true,
	"POST /api/resources/d1/databases/{databaseId}/query":            true,
	"GET /api/resources/r2/buckets":                                  true,
	"GET /api/resources/r2/buckets/{bucketName}/objects":             true,
	"POST /api/connections/verify-token":                             true,
}

// exampleSetup prepares a world for an example that needs more than the
// tenants' records.
var exampleSetup = map[string]func(w *world){
	// The example deletes the fixture version, which must not be the
	// current one.
	"DELETE /api/workflows/{workflowId}/versions/{versionId}": func(w *world) {
		w.submitVersion(w.a, w.a.workflowID, minimalIR)
	},
	"POST /api/marketplace/update": func(w *world) {
		w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"openai-chat","version":"1.0.0"}`, w.a.keyAll)
	},
	"POST /api/marketplace/uninstall": func(w *world) {
		w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"openai-chat","version":"1.0.0"}`, w.a.keyAll)
	},
	"GET /api/marketplace/installed": func(w *world) {
		w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"openai-chat","version":"1.0.0"}`, w.a.keyAll)
	},
}

// TestRouteExamples sends every route's example request (routes.go,
// route_examples.go) to a fresh test world, its example ids replaced by the
// world's records, and checks that the answer has the example's status and
// shape: the same field names at every depth (a subset of them for a
// Partial example; a list's first item stands for all).
func TestRouteExamples(t *testing.T) {
	t.Parallel()
	for _, rt := range api.DocRoutes() {
		name := rt.Method + " " + rt.Pattern
		if liveExamples[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			if setup := exampleSetup[name]; setup != nil {
				setup(w)
			}
			ids := map[string]string{
				"user": w.a.userID, "organization": w.a.orgID, "project": w.a.projectID,
				"otherProject": w.a.otherProjectID, "workflow": w.a.workflowID, "version": w.a.versionID,
				"envVar": w.a.projectEnvVarID, "connection": w.a.connectionID, "apiKey": w.a.apiKeyID,
			}
			c := w.a.keyAll
			switch {
			case rt.Auth == api.AuthNone:
				c = cred{}
			case rt.Auth == api.AuthSession || rt.Example.Session:
				c = w.a.session
			}
			r := w.do(rt.Method, substituteIDs(rt.Example.Path, ids), substituteIDs(rt.Example.Body, ids), c)
			if os.Getenv("APIDOC_DUMP") != "" {
				fmt.Printf("=== %s %d\n%s\n", name, r.status, r.body)
			}
			if r.status != rt.Status {
				t.Fatalf("the example answers %d, the route says %d\n%s", r.status, rt.Status, r.body)
			}
			checkExampleShape(t, rt, r.body)
		})
	}
}

// substituteIDs replaces the examples' ids by a world's records.
func substituteIDs(s string, world map[string]string) string {
	for what, id := range api.ExampleIDs() {
		if v, ok := world[what]; ok {
			s = strings.ReplaceAll(s, id, v)
		}
	}
	return s
}

// checkExampleShape compares a route's example answer with a real one.
func checkExampleShape(t *testing.T, rt api.Route, real []byte) {
	t.Helper()
	if rt.Example.Answer == "" {
		if len(real) != 0 {
			t.Fatalf("the example shows no answer, the route answered %s", real)
		}
		return
	}
	var ex, got any
	if err := json.Unmarshal([]byte(rt.Example.Answer), &ex); err != nil {
		// Not JSON (the metrics' text): the same first line.
		first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
		if first(rt.Example.Answer) != first(string(real)) {
			t.Fatalf("the example answer starts %q, the real one %q", first(rt.Example.Answer), first(string(real)))
		}
		return
	}
	if err := json.Unmarshal(real, &got); err != nil {
		t.Fatalf("the example answer is JSON, the real one not: %v\n%s", err, real)
	}
	if diff := shapeDiff(ex, got, rt.Example.Partial, ""); len(diff) > 0 {
		t.Fatalf("the example answer's shape differs from the real one:\n%s\nreal answer: %s", strings.Join(diff, "\n"), real)
	}
}

// shapeDiff lists where the field names of example and real differ. An
// empty object on either side matches any object: it is a map whose keys are
// data, like a workflow's dependencies.
func shapeDiff(example, real any, partial bool, path string) []string {
	if example == nil || real == nil {
		return nil
	}
	switch e := example.(type) {
	case map[string]any:
		r, ok := real.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: the example has an object, the answer %T", orRoot(path), real)}
		}
		if len(e) == 0 || len(r) == 0 {
			return nil // a map of data (dependencies, a schema), empty on one side
		}
		var out []string
		for k, v := range e {
			rv, ok := r[k]
			if !ok {
				out = append(out, fmt.Sprintf("%s/%s: in the example, not in the answer", path, k))
				continue
			}
			out = append(out, shapeDiff(v, rv, partial, path+"/"+k)...)
		}
		if !partial {
			for k := range r {
				if _, ok := e[k]; !ok {
					out = append(out, fmt.Sprintf("%s/%s: in the answer, not in the example", path, k))
				}
			}
		}
		sort.Strings(out)
		return out
	case []any:
		r, ok := real.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: the example has an array, the answer %T", orRoot(path), real)}
		}
		if len(e) == 0 || len(r) == 0 {
			return nil
		}
		return shapeDiff(e[0], r[0], partial, path+"/0")
	}
	switch real.(type) {
	case map[string]any, []any:
		return []string{fmt.Sprintf("%s: the example has a %T, the answer %T", orRoot(path), example, real)}
	}
	return nil
}

func orRoot(path string) string {
	if path == "" {
		return "/"
	}
	return path
}
