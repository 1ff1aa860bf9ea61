package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The API's records as the server writes them: the client decodes each
// answer into the server's own type (internal/edgeflow), so that a field the
// server renames fails TestAnswersDecode rather than reading as empty.
type (
	// workflow is a workflow or function (GET /api/workflows/:id).
	workflow = edgeflow.Workflow
	// versionSummary is a version as lists show it, without IR and code.
	versionSummary = edgeflow.VersionSummary
	// version is one version with its IR and code (GET …/versions/:id).
	version = edgeflow.VersionDetail
	// project is a project of the organization (GET /api/projects).
	project = edgeflow.Project
	// connection is a connection, its credentials masked.
	connection = edgeflow.ConnectionView
	// deployment is a deployment of a workflow.
	deployment = edgeflow.Deployment
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
		all, err := listAll[versionSummary](ctx, cl, "/api/workflows/"+w.ID+"/versions", nil, 0)
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
	if w.CurrentVersionID == "" {
		return nil, nil
	}
	return versionByRef(ctx, cl, w, w.CurrentVersionID)
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
	if found == nil && ref == edgeflow.ProviderLocal {
		return localConnection(all)
	}
	if found == nil {
		return nil, notFound("no connection named %q", ref)
	}
	return found, nil
}

// localConnection is what `--connection local` names when no connection is
// called "local": the one connection to the local edge (Studio names it
// "Local edge" when it makes one).
func localConnection(all []connection) (*connection, error) {
	var found *connection
	var names []string
	for i := range all {
		if all[i].Provider == edgeflow.ProviderLocal {
			if found == nil {
				found = &all[i]
			}
			names = append(names, fmt.Sprintf("%q (%s)", all[i].Name, all[i].ID))
		}
	}
	switch {
	case found == nil:
		return nil, notFound("no connection to the local edge: make one with Studio's Settings → Connections or POST /api/connections {\"provider\": \"local\"}")
	case len(names) > 1:
		return nil, failed("%d connections reach the local edge (%s): give the name or id of one", len(names), strings.Join(names, ", "))
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
