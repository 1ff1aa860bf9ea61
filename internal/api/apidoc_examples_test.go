package api_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// liveExamples are the routes whose examples need a deployed workflow or a
// provider account, which this package's test world does not have; the e2e
// test TestRouteExamplesLive replays them against the local edge.
var liveExamples = map[string]bool{
	"POST /api/workflows/{workflowId}/deploy":                            true,
	"POST /api/workflows/{workflowId}/deploy-stream":                     true,
	"POST /api/workflows/{workflowId}/takedown":                          true,
	"POST /api/workflows/{workflowId}/rollback":                          true,
	"POST /api/workflows/{workflowId}/promote":                           true,
	"POST /api/workflows/{workflowId}/trigger":                           true,
	"POST /api/workflows/{workflowId}/trigger/batch":                     true,
	"POST /api/workflows/{workflowId}/invoke":                            true,
	"POST /api/workflows/{workflowId}/versions/{versionId}/test":         true,
	"POST /api/workflows/{workflowId}/test":                              true,
	"GET /api/workflows/{workflowId}/trigger-secret":                     true,
	"POST /api/workflows/{workflowId}/signed-trigger":                    true, // signed with the deployment's secret: internal/e2e's TestSignedTriggerFlowControl
	"GET /api/workflows/{workflowId}/deploy-plan":                        true,
	"GET /api/workflows/{workflowId}/runs/{runId}":                       true,
	"POST /api/workflows/{workflowId}/runs/{runId}/pause":                true,
	"POST /api/workflows/{workflowId}/runs/{runId}/resume":               true,
	"POST /api/workflows/{workflowId}/runs/{runId}/terminate":            true,
	"POST /api/workflows/{workflowId}/runs/{runId}/restart":              true,
	"POST /api/workflows/{workflowId}/runs/{runId}/replay":               true,
	"POST /api/runs/bulk":                                                true,
	"GET /api/runs/bulk/{bulkId}":                                        true,
	"DELETE /api/runs/bulk/{bulkId}":                                     true,
	"GET /api/workflows/{workflowId}/runs/{runId}/logs":                  true,
	"GET /api/workflows/{workflowId}/runs/{runId}/worker-logs":           true,
	"GET /api/workflows/{workflowId}/runs/{runId}/steps/{nodeId}/output": true,
	"GET /api/resources/kv/namespaces":                                   true,
	"GET /api/resources/kv/namespaces/{namespaceId}/keys":                true,
	"GET /api/resources/kv/namespaces/{namespaceId}/values/{key...}":     true,
	"GET /api/resources/d1/databases":                                    true,
	"POST /api/resources/d1/databases/{databaseId}/query":                true,
	"GET /api/resources/r2/buckets":                                      true,
	"GET /api/resources/r2/buckets/{bucketName}/objects":                 true,
	"GET /api/resources/r2/buckets/{bucketName}/objects/{key...}":        true,
	"POST /api/connections/verify-token":                                 true,
}

// mcpSessionExamples are the routes whose examples need an MCP session
// (Mcp-Session-Id); internal/mcp's TestRouteExamplesMCP opens one and sends
// them.
var mcpSessionExamples = map[string]bool{"GET /api/mcp": true, "DELETE /api/mcp": true}

// exampleSetup prepares a world for an example that needs more than the
// tenants' records.
var exampleSetup = map[string]func(w *world){
	// A run of tenant a that is created and completes: the stream's
	// events 3 and 4 (the world's fixture deliveries are events 1 and 2).
	"GET /api/runs/stream": func(w *world) {
		ctx := context.Background()
		r := &edgeflow.Run{WorkflowID: w.a.workflowID, Status: edgeflow.RunQueued}
		if err := w.store.CreateRun(ctx, r); err != nil {
			w.t.Fatal(err)
		}
		r.Status = edgeflow.RunComplete
		if err := w.store.UpdateRun(ctx, r); err != nil {
			w.t.Fatal(err)
		}
		w.exRun = r.ID
	},
	// Alice accepts an invitation to Bob's organization.
	"POST /api/invitations/accept": func(w *world) {
		w.exToken, _ = w.invite(w.b, w.a.email, edgeflow.RoleMember)
	},
	// The example deletes the fixture version, which must not be the
	// current one.
	"DELETE /api/workflows/{workflowId}/versions/{versionId}": func(w *world) {
		w.submitVersion(w.a, w.a.workflowID, minimalIR)
	},
	// The example reads a run kept after its workflow was deleted.
	"GET /api/runs/{runId}": func(w *world) {
		w.fixtureRun(w.a)
		w.must(204, "DELETE", "/api/workflows/"+w.a.workflowID+"?runs=keep&force=true", "", w.a.keyAll)
	},
	// The fixture workflow reads a global variable through one of its own.
	"GET /api/env-vars/usage": func(w *world) {
		w.must(200, "PATCH", "/api/workflows/"+w.a.workflowID, `{"envVars":[{"name":"TOKEN","value":"{{global.env.API_TOKEN}}","isSecret":false}]}`, w.a.keyAll)
	},
	// The example deletes staging, which it makes first.
	"DELETE /api/projects/{id}/environments/{name}": func(w *world) {
		w.must(201, "POST", "/api/projects/"+w.a.projectID+"/environments", `{"name":"staging"}`, w.a.session)
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
// Partial example; a list's first item stands for all); and that it fits
// the route's response schema (Route.CheckReply).
func TestRouteExamples(t *testing.T) {
	t.Parallel()
	for _, rt := range api.DocRoutes() {
		name := rt.Method + " " + rt.Pattern
		if liveExamples[name] || mcpSessionExamples[name] {
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
				"session": w.a.sessionID, "run": w.a.runID,
				"member": w.a.team[edgeflow.RoleMember].userID, "invitation": w.a.invitationID, "invitationToken": w.exToken,
				"webhook": w.a.webhookID, "delivery": w.a.deliveryID, "event": w.a.eventID,
			}
			if w.exRun != "" {
				ids["run"] = w.exRun
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
			if err := rt.Example.CheckAnswer(r.body); err != nil {
				t.Fatal(err)
			}
			if err := rt.CheckReply(r.body, false); err != nil {
				t.Fatal(err)
			}
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
