package api_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// caller is one credential of the role matrix: a member of tenant a's
// organization with a role, signed in or holding a key.
type caller struct {
	name string
	role edgeflow.Role
	kind string // "session", "project key", "organization key"
	c    cred
}

func (w *world) callers() []caller {
	var out []caller
	add := func(role edgeflow.Role, session, project, org cred) {
		out = append(out, caller{string(role) + " session", role, "session", session},
			caller{string(role) + " project key", role, "project key", project},
			caller{string(role) + " organization key", role, "organization key", org})
	}
	add(edgeflow.RoleOwner, w.a.session, w.a.keyAll, w.a.keyOrg)
	for _, role := range []edgeflow.Role{edgeflow.RoleAdmin, edgeflow.RoleMember, edgeflow.RoleViewer} {
		tm := w.a.team[role]
		add(role, tm.session, tm.keyProject, tm.keyOrg)
	}
	return out
}

// missingIDs replaces the ids of tenant a's records in path, except its
// organization's, by ids of records that do not exist: a request the route
// admits then ends in not_found instead of changing anything.
func (w *world) missingIDs(path string) string {
	for _, id := range w.a.ids() {
		if id != w.a.orgID && id != "" {
			path = strings.ReplaceAll(path, id, id+"x")
		}
	}
	return strings.ReplaceAll(path, "run_fixture000000000000", "run_fixture000000000000x")
}

// TestRoleMatrix sends every route of the table, from every role (owner,
// admin, member, viewer) with a session, a project key and an organization
// key, and checks that the route table's role and scope decide: a caller
// below the route's role, or a key whose scope its creator's current role
// does not allow, gets 403; every other caller gets past the check. The
// keys of the admin, member and viewer were created while they were admins,
// so the matrix also shows that keys shrink with their creator's role.
func TestRoleMatrix(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, testRoleMatrix)
}

func testRoleMatrix(t *testing.T, w *world) {
	before := w.snapshot(w.a)
	for _, rt := range w.api.Routes() {
		if rt.MinRole() == "" {
			continue // public and personal routes: no role (TestPersonalRoutes)
		}
		path, _ := w.pathOf(rt)
		body := ""
		if rt.ReadsBody() {
			body = rt.BadBody
		}
		// Reads go to the real records; writes to records that do not exist.
		target := path
		if rt.Method != "GET" {
			target = w.missingIDs(path)
		}
		name := rt.Method + " " + rt.Pattern
		t.Run(name, func(t *testing.T) {
			for _, c := range w.callers() {
				if rt.Auth == api.AuthSession && c.kind != "session" {
					continue // keys get 403 there (TestAuthorizationMatrix)
				}
				allowed := c.role.AtLeast(rt.MinRole())
				if rt.Scope != "" && !slices.Contains(api.RoleScopes(c.role), rt.Scope) {
					allowed = false
				}
				if !allowed {
					r := w.do(rt.Method, target, body, c.c)
					checkError(t, r, 403, "forbidden", "")
					if !strings.Contains(string(r.body), "role") {
						t.Errorf("%s: the refusal does not name the role: %s", c.name, r.body)
					}
					continue
				}
				if rt.Method == "DELETE" && rt.Pattern == "/api/organizations/{organizationId}" {
					continue // admitted, it would delete the organization (TestOrganizationLifeCycle)
				}
				r := w.do(rt.Method, target, body, c.c)
				if r.status == 401 || (r.status == 403 && strings.Contains(string(r.body), "role")) {
					t.Errorf("%s: refused: %d %s", c.name, r.status, r.body)
				}
				if rt.Method == "GET" && !reachesProvider[rt.Pattern] && rt.Protocol == "" && r.status != 200 {
					t.Errorf("%s: GET %s = %d %s", c.name, target, r.status, r.body)
				}
			}
		})
	}
	if after := w.snapshot(w.a); after != before {
		t.Errorf("the matrix changed tenant a's data:\nbefore %s\nafter  %s", before, after)
	}
}

// TestPersonalRoutes: the routes about the signed-in user need no role: a
// viewer lists its organizations, creates one of its own (as owner) and
// switches to it.
func TestPersonalRoutes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	v := w.a.team[edgeflow.RoleViewer]
	r := w.must(200, "GET", "/api/organizations", "", v.session)
	if !strings.Contains(string(r.body), `"role":"viewer"`) || strings.Contains(string(r.body), w.b.orgID) {
		t.Fatalf("organizations: %s", r.body)
	}
	r = w.must(201, "POST", "/api/organizations", `{"name":"Viewer's own"}`, v.session)
	m := r.json(t)
	if m["role"] != "owner" || m["project"].(map[string]any)["name"] != "Default" {
		t.Fatalf("created: %s", r.body)
	}
	orgID := m["id"].(string)
	w.must(200, "PUT", "/api/session/active", fmt.Sprintf(`{"organizationId":%q}`, orgID), v.session)
	// In its own organization the viewer is owner: it writes there.
	w.must(201, "POST", "/api/workflows", `{"name":"mine"}`, v.session)
	// In a's organization it still only reads.
	checkError(t, w.do("POST", "/api/workflows?organizationId="+w.a.orgID, `{"name":"x"}`, v.session), 403, "forbidden", "")
}
