package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The API's records, as far as the client reads them.
type (
	workflow struct {
		ID               string          `json:"id"`
		ProjectID        string          `json:"projectId"`
		Name             string          `json:"name"`
		Description      string          `json:"description"`
		Kind             string          `json:"kind"`
		EnvVars          []envVarRef     `json:"envVars"`
		TriggerCode      string          `json:"triggerCode"`
		Dependencies     json.RawMessage `json:"dependencies"`
		DeployConfig     json.RawMessage `json:"deployConfig"`
		CurrentVersionID *string         `json:"currentVersionId"`
		ActiveVersionID  *string         `json:"activeVersionId"`
		CreatedAt        time.Time       `json:"createdAt"`
		UpdatedAt        time.Time       `json:"updatedAt"`
	}
	envVarRef struct {
		Name     string `json:"name"`
		IsSecret bool   `json:"isSecret"`
	}
	version struct {
		ID         string          `json:"id"`
		WorkflowID string          `json:"workflowId"`
		Version    int             `json:"version"`
		Locked     bool            `json:"locked"`
		NodeTypes  []string        `json:"nodeTypes"`
		CreatedBy  string          `json:"createdBy"`
		CreatedAt  time.Time       `json:"createdAt"`
		IR         json.RawMessage `json:"ir,omitempty"`
		Code       string          `json:"code,omitempty"`
	}
	project struct {
		ID             string `json:"id"`
		OrganizationID string `json:"organizationId"`
		Name           string `json:"name"`
		Slug           string `json:"slug"`
	}
	organization struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Slug string `json:"slug"`
		Role string `json:"role"`
	}
	connection struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Provider  string `json:"provider"`
		Scope     string `json:"scope"`
		AccountID string `json:"accountId"`
	}
	deployment struct {
		ID           string    `json:"id"`
		WorkflowID   string    `json:"workflowId"`
		VersionID    string    `json:"versionId"`
		ConnectionID string    `json:"connectionId"`
		Status       string    `json:"status"`
		URL          string    `json:"url"`
		ScriptName   string    `json:"scriptName"`
		CreatedAt    time.Time `json:"createdAt"`
	}
	// run is a run as the API answers it.
	run = edgeflow.Run
)

// workflowByRef finds a workflow of the project by id or by name.
func workflowByRef(ctx context.Context, cl *client, ref string) (*workflow, error) {
	if strings.HasPrefix(ref, "wf_") {
		var w workflow
		err := cl.request(ctx, http.MethodGet, "/api/workflows/"+url.PathEscape(ref), nil, nil, &w)
		if err == nil {
			return &w, nil
		}
		if !isStatus(err, http.StatusNotFound) {
			return nil, err
		}
	}
	all, err := listAll[workflow](ctx, cl, "/api/workflows", nil, 0)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].Name == ref {
			return &all[i], nil
		}
	}
	return nil, notFound("no workflow named %q in this project (edgeflow workflows ls lists them)", ref)
}

// versionByRef finds a version of a workflow by number or id.
func versionByRef(ctx context.Context, cl *client, w *workflow, ref string) (*version, error) {
	id := ref
	if n, err := strconv.Atoi(ref); err == nil {
		all, err := listAll[version](ctx, cl, "/api/workflows/"+w.ID+"/versions", nil, 0)
		if err != nil {
			return nil, err
		}
		id = ""
		for _, v := range all {
			if v.Version == n {
				id = v.ID
			}
		}
		if id == "" {
			return nil, notFound("workflow %s has no version %d", w.Name, n)
		}
	}
	var v version
	err := cl.request(ctx, http.MethodGet, "/api/workflows/"+w.ID+"/versions/"+url.PathEscape(id), nil, nil, &v)
	if isStatus(err, http.StatusNotFound) {
		return nil, notFound("workflow %s has no version %q", w.Name, ref)
	}
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// currentVersion is the workflow's current version with its IR, or nil.
func currentVersion(ctx context.Context, cl *client, w *workflow) (*version, error) {
	if w.CurrentVersionID == nil || *w.CurrentVersionID == "" {
		return nil, nil
	}
	return versionByRef(ctx, cl, w, *w.CurrentVersionID)
}

// connectionByRef finds a connection by id or name.
func connectionByRef(ctx context.Context, cl *client, ref string) (*connection, error) {
	all, err := listAll[connection](ctx, cl, "/api/connections", nil, 0)
	if err != nil {
		return nil, err
	}
	for i := range all {
		if all[i].ID == ref {
			return &all[i], nil
		}
	}
	var found *connection
	for i := range all {
		if all[i].Name == ref {
			if found != nil {
				return nil, failed("two connections are named %q: give its id (edgeflow connections are listed by GET /api/connections)", ref)
			}
			found = &all[i]
		}
	}
	if found == nil {
		return nil, notFound("no connection named %q", ref)
	}
	return found, nil
}

// runByID reads a run of the project by its id alone (GET /api/runs/:runId),
// with its steps; a run not yet final is refreshed from the provider first.
// It also finds a run kept after its workflow was deleted.
func runByID(ctx context.Context, cl *client, id string) (*run, error) {
	var r run
	err := cl.request(ctx, http.MethodGet, "/api/runs/"+url.PathEscape(id), nil, nil, &r)
	if isStatus(err, http.StatusNotFound) {
		return nil, notFound("no run %q in this project", id)
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}
