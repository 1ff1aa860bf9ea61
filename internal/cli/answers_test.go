package cli

import (
	"bytes"
	"encoding/json"
	"go/build"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// cliAnswers are the types the client decodes each route's answer into, by
// "METHOD PATTERN" (the routes it calls; a route whose answer it ignores is
// left out). An event stream's types are by event name.
var cliAnswers = map[string]any{
	"POST /api/auth/sign-in":                                       edgeflow.SignedIn{},
	"GET /api/whoami":                                              edgeflow.Whoami{},
	"GET /api/organizations":                                       edgeflow.OrganizationList{},
	"GET /api/projects":                                            edgeflow.ListPage[project]{},
	"GET /api/connections":                                         edgeflow.ListPage[connection]{},
	"GET /api/workflows":                                           edgeflow.ListPage[workflow]{},
	"POST /api/workflows":                                          workflow{},
	"GET /api/workflows/{id}":                                      workflow{},
	"GET /api/workflows/{id}/full":                                 edgeflow.WorkflowFull{},
	"GET /api/workflows/{workflowId}/versions":                     edgeflow.ListPage[versionSummary]{},
	"POST /api/workflows/{workflowId}/versions":                    versionSummary{},
	"GET /api/workflows/{workflowId}/versions/{versionId}":         version{},
	"POST /api/workflows/{workflowId}/versions/{versionId}/revert": versionSummary{},
	"POST /api/workflows/{workflowId}/versions/{versionId}/test":   edgeflow.TestResult{},
	"POST /api/ir/validate":                                        edgeflow.IRValidation{},
	"GET /api/workflows/{workflowId}/deployments":                  edgeflow.ListPage[deployment]{},
	"POST /api/workflows/{workflowId}/trigger":                     edgeflow.TriggerResult{},
	"POST /api/workflows/{workflowId}/trigger/batch":               edgeflow.BatchTriggerResult{},
	"GET /api/workflows/{workflowId}/estimate":                     edgeflow.Estimate{},
	"GET /api/runs":                                                edgeflow.ListPage[run]{},
	"GET /api/runs/{runId}":                                        run{},
	"POST /api/workflows/{workflowId}/runs/{runId}/restart":        run{},
	"POST /api/workflows/{workflowId}/deploy-stream": map[string]any{
		"plan":     edgeflow.DeployPlan{},
		"progress": edgeflow.DeployProgress{},
		"result":   edgeflow.DeployResult{},
		"error":    edgeflow.StreamError{},
	},
}

// decodeStrictly decodes one JSON value into a new value of t, refusing a
// field t does not have, so that a field the server renames or adds without
// the client's type fails here rather than reading as empty.
func decodeStrictly(data []byte, t reflect.Type) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(reflect.New(t).Interface())
}

// TestAnswersDecode decodes the example answer of every route the client
// calls (internal/api's route examples, which TestRouteExamples checks
// against real answers) into the client's type for it, strictly.
func TestAnswersDecode(t *testing.T) {
	routes := map[string]api.Route{}
	for _, rt := range api.DocRoutes() {
		routes[rt.Method+" "+rt.Pattern] = rt
	}
	keys := make([]string, 0, len(cliAnswers))
	for k := range cliAnswers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		t.Run(key, func(t *testing.T) {
			rt, ok := routes[key]
			if !ok {
				t.Fatalf("no route %s: the client calls a route the server does not have", key)
			}
			if rt.Example.Answer == "" {
				t.Fatalf("%s has no example answer to decode", key)
			}
			answer := []byte(rt.Example.Answer)
			events, isStream := cliAnswers[key].(map[string]any)
			if !isStream {
				if err := decodeStrictly(answer, reflect.TypeOf(cliAnswers[key])); err != nil {
					t.Errorf("the example answer does not decode into %T: %v\n%s", cliAnswers[key], err, answer)
				}
				return
			}
			for name := range rt.Events {
				if _, ok := events[name]; !ok {
					t.Errorf("the stream's event %q has no type in the client", name)
				}
			}
			seen := 0
			err := readSSE(bytes.NewReader(answer), func(event string, data []byte) error {
				seen++
				typ, ok := events[event]
				if !ok {
					t.Errorf("the example's event %q has no type in the client", event)
					return nil
				}
				if err := decodeStrictly(data, reflect.TypeOf(typ)); err != nil {
					t.Errorf("the example's %s event does not decode into %T: %v\n%s", event, typ, err, data)
				}
				return nil
			})
			if err != nil || seen == 0 {
				t.Errorf("reading the example stream: %d events, %v", seen, err)
			}
		})
	}
}

// TestAnswersDecodeRefusesDrift: the strict decoding fails on a field the
// client's type does not have, as a renamed field would be.
func TestAnswersDecodeRefusesDrift(t *testing.T) {
	routes := map[string]api.Route{}
	for _, rt := range api.DocRoutes() {
		routes[rt.Method+" "+rt.Pattern] = rt
	}
	answer := routes["GET /api/workflows/{id}"].Example.Answer
	renamed := strings.Replace(answer, `"currentVersionId"`, `"currentVersion"`, 1)
	if renamed == answer {
		t.Fatal("the workflow example has no currentVersionId")
	}
	if err := decodeStrictly([]byte(renamed), reflect.TypeFor[workflow]()); err == nil {
		t.Error("a renamed field decoded without error")
	}
}

// TestCLIImportsNoServer: the client reads the API's answers with the domain
// package's types and imports no other package of this module, so that the
// server (internal/api and what it needs) is not part of it.
func TestCLIImportsNoServer(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.HasPrefix(imp, "github.com/edgeflow/edgeflow/") && imp != "github.com/edgeflow/edgeflow/internal/edgeflow" {
			t.Errorf("internal/cli imports %s", imp)
		}
	}
}
