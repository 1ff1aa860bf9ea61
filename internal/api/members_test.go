package api_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

// onBothEngines runs f on a world of SQLite and one of PostgreSQL (the
// latter needs EDGEFLOW_TEST_POSTGRES_URL; without it, it is skipped unless
// CI=1).
func onBothEngines(t *testing.T, o worldOptions, f func(t *testing.T, w *world)) {
	o.limits = ratelimit.Limits{Off: true}
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o := o
			o.postgres = pg
			f(t, newWorld(t, o))
		})
	}
}

// clock is a settable server clock.
type clock struct{ off atomic.Int64 }

func (c *clock) now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *clock) advance(d time.Duration) { c.off.Add(int64(d)) }

func signUpBody(email string, extra string) string {
	return fmt.Sprintf(`{"email":%q,"password":"password-1"%s}`, email, extra)
}

// checkSignUpOptions reads GET /api/auth/sign-up without credentials, as a
// sign-up page does before its form.
func checkSignUpOptions(t *testing.T, w *world, mode string, firstUser bool) {
	t.Helper()
	m := w.must(200, "GET", "/api/auth/sign-up", "", cred{}).json(t)
	if m["mode"] != mode || m["firstUser"] != firstUser || len(m) != 2 {
		t.Fatalf("GET /api/auth/sign-up = %v, want mode %s, firstUser %v", m, mode, firstUser)
	}
}

// TestSignUpModes: invite (the default) admits the setup token for the
// first user and invitations after; open admits anyone; closed admits only
// the setup token, and invitations only for existing users.
func TestSignUpModes(t *testing.T) {
	t.Parallel()
	t.Run("invite", func(t *testing.T) {
		onBothEngines(t, worldOptions{signUp: api.SignUpInvite, empty: true}, func(t *testing.T, w *world) {
			ctx := context.Background()
			checkSignUpOptions(t, w, "invite", true)
			r := w.do("POST", "/api/auth/sign-up", signUpBody("first@example.com", ""), cred{})
			checkError(t, r, 403, "forbidden", "")
			if !strings.Contains(string(r.body), "setup link") {
				t.Fatalf("first refusal does not point to the setup link: %s", r.body)
			}
			link, err := api.NewSetupLink(ctx, w.store, "https://ef.example.com", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			token := strings.TrimPrefix(link, "https://ef.example.com/setup?token=")
			// Attack: a wrong setup token; legit: the right one, once.
			checkError(t, w.do("POST", "/api/auth/sign-up", signUpBody("first@example.com", `,"setupToken":"setup_forged"`), cred{}), 403, "forbidden", "")
			r = w.must(201, "POST", "/api/auth/sign-up", signUpBody("first@example.com", `,"setupToken":"`+token+`"`), cred{})
			owner := w.sessionOf(r)
			orgID := r.str(t, "activeOrganizationId")
			checkSignUpOptions(t, w, "invite", false)
			checkError(t, w.do("POST", "/api/auth/sign-up", signUpBody("second@example.com", `,"setupToken":"`+token+`"`), cred{}), 403, "forbidden", "")
			if _, err := api.NewSetupLink(ctx, w.store, "https://ef.example.com", time.Now()); !edgeflow.IsConflict(err) {
				t.Fatalf("a setup link once a user exists: %v", err)
			}
			r = w.do("POST", "/api/auth/sign-up", signUpBody("second@example.com", ""), cred{})
			checkError(t, r, 403, "forbidden", "")
			if !strings.Contains(string(r.body), "invitation") {
				t.Fatalf("refusal does not mention invitations: %s", r.body)
			}
			inv := w.must(201, "POST", "/api/organizations/"+orgID+"/invitations", `{"email":"Second@Example.com","role":"member"}`, owner).str(t, "token")
			// Attack: another email with the token; legit: the invited email (any case).
			checkError(t, w.do("POST", "/api/auth/sign-up", signUpBody("mallory@example.com", `,"invitationToken":"`+inv+`"`), cred{}), 403, "forbidden", "")
			r = w.must(201, "POST", "/api/auth/sign-up", signUpBody("second@example.com", `,"invitationToken":"`+inv+`"`), cred{})
			m := r.json(t)
			if orgs := m["organizations"].([]any); len(orgs) != 1 || orgs[0].(map[string]any)["role"] != "member" || m["activeOrganizationId"] != orgID {
				t.Fatalf("joined by invitation: %s", r.body)
			}
			checkError(t, w.do("POST", "/api/auth/sign-up", signUpBody("third@example.com", `,"invitationToken":"inv_unknown"`), cred{}), 404, "not_found", "")
			checkError(t, w.do("POST", "/api/auth/sign-up", signUpBody("third@example.com", `,"invitationToken":"`+inv+`","setupToken":"x"`), cred{}), 422, "validation_failed", "/invitationToken")
		})
	})
	t.Run("open", func(t *testing.T) {
		onBothEngines(t, worldOptions{signUp: api.SignUpOpen, empty: true}, func(t *testing.T, w *world) {
			checkSignUpOptions(t, w, "open", true)
			for _, e := range []string{"a@example.com", "b@example.com"} {
				r := w.must(201, "POST", "/api/auth/sign-up", signUpBody(e, ""), cred{})
				if orgs := r.json(t)["organizations"].([]any); len(orgs) != 1 || orgs[0].(map[string]any)["role"] != "owner" {
					t.Fatalf("open sign-up: %s", r.body)
				}
			}
		})
	})
	t.Run("closed", func(t *testing.T) {
		onBothEngines(t, worldOptions{signUp: api.SignUpClosed, empty: true}, func(t *testing.T, w *world) {
			checkSignUpOptions(t, w, "closed", true)
			checkError(t, w.do("POST", "/api/auth/sign-up", signUpBody("first@example.com", ""), cred{}), 403, "forbidden", "")
			link, err := api.NewSetupLink(context.Background(), w.store, "http://x", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			token := link[strings.Index(link, "=")+1:]
			r := w.must(201, "POST", "/api/auth/sign-up", signUpBody("first@example.com", `,"setupToken":"`+token+`"`), cred{})
			owner, orgID := w.sessionOf(r), r.str(t, "activeOrganizationId")
			inv := w.must(201, "POST", "/api/organizations/"+orgID+"/invitations", `{"email":"second@example.com","role":"viewer"}`, owner).str(t, "token")
			r = w.do("POST", "/api/auth/sign-up", signUpBody("second@example.com", `,"invitationToken":"`+inv+`"`), cred{})
			checkError(t, r, 403, "forbidden", "")
			if !strings.Contains(string(r.body), "closed") {
				t.Fatalf("refusal: %s", r.body)
			}
		})
	})
}

// TestInvitationLifeCycle: an invitation is shown once, listed without its
// token, accepted once by the invited email, and refused when used,
// revoked, expired or sent to another email.
func TestInvitationLifeCycle(t *testing.T) {
	t.Parallel()
	var c clock
	onBothEngines(t, worldOptions{now: c.now}, func(t *testing.T, w *world) {
		a, b := w.a, w.b
		base := "/api/organizations/" + a.orgID + "/invitations"
		r := w.must(201, "POST", base, fmt.Sprintf(`{"email":%q,"role":"member"}`, b.email), a.session)
		token, id := r.str(t, "token"), r.str(t, "id")
		if !strings.HasPrefix(token, "inv_") || !strings.HasSuffix(r.str(t, "acceptUrl"), "/invite?token="+token) || r.str(t, "status") != "pending" {
			t.Fatalf("created: %s", r.body)
		}
		list := w.must(200, "GET", base, "", a.session)
		if strings.Contains(string(list.body), token) || !strings.Contains(string(list.body), id) {
			t.Fatalf("list shows the token or lacks the invitation: %s", list.body)
		}
		// Attack: the admin of a's member accepting b's invitation; legit: b.
		checkError(t, w.do("POST", "/api/invitations/accept", `{"token":"`+token+`"}`, a.team[edgeflow.RoleMember].session), 403, "forbidden", "")
		checkError(t, w.do("POST", "/api/invitations/accept", `{"token":"inv_nope"}`, b.session), 404, "not_found", "")
		r = w.must(200, "POST", "/api/invitations/accept", `{"token":"`+token+`"}`, b.session)
		if r.str(t, "activeOrganizationId") != a.orgID {
			t.Fatalf("accept: %s", r.body)
		}
		// b now reads a's workflows, as a member, and may not manage invitations.
		w.must(200, "GET", "/api/workflows/"+a.workflowID, "", b.session)
		checkError(t, w.do("GET", base, "", b.session), 403, "forbidden", "")
		// Used.
		checkError(t, w.do("POST", "/api/invitations/accept", `{"token":"`+token+`"}`, b.session), 409, "conflict", "")
		checkError(t, w.do("DELETE", base+"/"+id, "", a.session), 409, "conflict", "")
		// Inviting a member again.
		checkError(t, w.do("POST", base, fmt.Sprintf(`{"email":%q,"role":"viewer"}`, b.email), a.session), 409, "conflict", "")
		// Revoked.
		r = w.must(201, "POST", base, `{"email":"carol@example.com","role":"viewer"}`, a.session)
		w.must(204, "DELETE", base+"/"+r.str(t, "id"), "", a.session)
		checkError(t, w.do("POST", "/api/auth/sign-up", signUpBody("carol@example.com", `,"invitationToken":"`+r.str(t, "token")+`"`), cred{}), 409, "conflict", "")
		// Expired after 7 days.
		r = w.must(201, "POST", base, `{"email":"dan@example.com","role":"viewer"}`, a.session)
		c.advance(api.InvitationTTL + time.Minute)
		defer c.advance(-api.InvitationTTL - time.Minute)
		checkError(t, w.do("POST", "/api/auth/sign-up", signUpBody("dan@example.com", `,"invitationToken":"`+r.str(t, "token")+`"`), cred{}), 409, "conflict", "")
		if !strings.Contains(string(w.must(200, "GET", base, "", a.session).body), `"status":"expired"`) {
			t.Fatal("the list shows no expired invitation")
		}
		checkError(t, w.do("POST", base, `{"email":"x@example.com","role":"owner"}`, a.session), 422, "validation_failed", "/role")
		checkError(t, w.do("DELETE", base+"/inv_missing", "", a.session), 404, "not_found", "")
	})
}

// TestLastOwnerRules: the last owner can neither leave nor be demoted;
// ownership moves by transfer; admins cannot touch the owner.
func TestLastOwnerRules(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, func(t *testing.T, w *world) {
		a := w.a
		members := "/api/organizations/" + a.orgID + "/members/"
		adm, mem := a.team[edgeflow.RoleAdmin], a.team[edgeflow.RoleMember]
		checkError(t, w.do("DELETE", members+a.userID, "", a.session), 409, "conflict", "")
		checkError(t, w.do("PATCH", members+a.userID, `{"role":"admin"}`, a.session), 409, "conflict", "")
		checkError(t, w.do("PATCH", members+adm.userID, `{"role":"owner"}`, a.session), 422, "validation_failed", "/role")
		// Attack: an admin demoting or removing the owner; legit: the owner transferring.
		checkError(t, w.do("PATCH", members+a.userID, `{"role":"viewer"}`, adm.session), 403, "forbidden", "")
		checkError(t, w.do("DELETE", members+a.userID, "", adm.session), 403, "forbidden", "")
		checkError(t, w.do("POST", "/api/organizations/"+a.orgID+"/transfer-ownership", `{"userId":"`+a.userID+`"}`, adm.session), 403, "forbidden", "")
		checkError(t, w.do("POST", "/api/organizations/"+a.orgID+"/transfer-ownership", `{"userId":"`+w.b.userID+`"}`, a.session), 422, "validation_failed", "/userId")
		r := w.must(200, "POST", "/api/organizations/"+a.orgID+"/transfer-ownership", `{"userId":"`+adm.userID+`"}`, a.session)
		if r.str(t, "role") != "owner" {
			t.Fatalf("transfer: %s", r.body)
		}
		list := string(w.must(200, "GET", "/api/organizations/"+a.orgID+"/members", "", mem.session).body)
		if strings.Count(list, `"role":"owner"`) != 1 || !strings.Contains(list, `"userId":"`+a.userID+`","email":"alice@example.com","name":"","role":"admin"`) {
			t.Fatalf("members after transfer: %s", list)
		}
		// A member removes only itself (leaves).
		checkError(t, w.do("DELETE", members+a.team[edgeflow.RoleViewer].userID, "", mem.session), 403, "forbidden", "")
		w.must(204, "DELETE", members+mem.userID, "", mem.session)
		checkError(t, w.do("GET", "/api/workflows?organizationId="+a.orgID, "", mem.session), 404, "not_found", "")
		// The former owner (now admin) may leave.
		w.must(204, "DELETE", members+a.userID, "", a.session)
		checkError(t, w.do("GET", "/api/organizations/"+a.orgID+"/members", "", a.session), 404, "not_found", "")
	})
}

// TestKeysShrinkWithRole: a key acts with its creator's current role:
// demoted, the creator's keys lose their writes at once; removed, they
// stop.
func TestKeysShrinkWithRole(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, func(t *testing.T, w *world) {
		a := w.a
		adm := a.team[edgeflow.RoleAdmin]
		members := "/api/organizations/" + a.orgID + "/members/"
		w.must(201, "POST", "/api/workflows", `{"name":"by the admin's key"}`, adm.keyProject)
		w.must(201, "POST", "/api/env-vars", `{"name":"ORG_WIDE","value":"v","isSecret":false,"scope":"organization"}`, adm.keyOrg)
		w.must(200, "PATCH", members+adm.userID, `{"role":"member"}`, a.session)
		// A member's organization key no longer changes organization-wide records.
		checkError(t, w.do("POST", "/api/env-vars", `{"name":"ORG_TWO","value":"v","isSecret":false,"scope":"organization"}`, adm.keyOrg), 403, "forbidden", "")
		checkError(t, w.do("POST", "/api/connections", `{"provider":"aws","credentials":{}}`, adm.keyProject), 403, "forbidden", "")
		w.must(201, "POST", "/api/workflows", `{"name":"still a member"}`, adm.keyProject)
		w.must(200, "PATCH", members+adm.userID, `{"role":"viewer"}`, a.session)
		r := w.do("POST", "/api/workflows", `{"name":"x"}`, adm.keyProject)
		checkError(t, r, 403, "forbidden", "")
		if !strings.Contains(string(r.body), "viewer") {
			t.Fatalf("refusal does not name the role: %s", r.body)
		}
		w.must(200, "GET", "/api/workflows", "", adm.keyProject)
		// A viewer creates only read keys, and no organization key.
		checkError(t, w.do("POST", "/api/api-keys", `{"name":"k","projectId":"`+a.projectID+`","scopes":["read","write"]}`, adm.session), 403, "forbidden", "")
		w.must(201, "POST", "/api/api-keys", `{"name":"k","projectId":"`+a.projectID+`","scopes":["read"]}`, adm.session)
		checkError(t, w.do("POST", "/api/api-keys", `{"name":"k","scopes":["read"]}`, adm.session), 403, "forbidden", "")
		// Others' keys: a viewer sees only its own.
		own := string(w.must(200, "GET", "/api/api-keys", "", adm.session).body)
		if strings.Contains(own, a.apiKeyID) {
			t.Fatalf("a viewer lists the owner's keys: %s", own)
		}
		checkError(t, w.do("DELETE", "/api/api-keys/"+a.apiKeyID, "", adm.session), 403, "forbidden", "")
		// Removed: the keys stop.
		w.must(204, "DELETE", members+adm.userID, "", a.session)
		checkError(t, w.do("GET", "/api/workflows", "", adm.keyProject), 401, "unauthorized", "")
		checkError(t, w.do("GET", "/api/workflows", "", adm.keyOrg), 401, "unauthorized", "")
	})
}

// TestOrganizationKeys: an organization key acts in the project
// X-Edgeflow-Project names (default the first), and changes
// organization-wide records; a project key naming another project gets 404.
func TestOrganizationKeys(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, func(t *testing.T, w *world) {
		a := w.a
		r := w.must(201, "POST", "/api/api-keys", `{"name":"ci","scopes":["read","write","deploy"]}`, a.session)
		if r.json(t)["projectId"] != nil || r.str(t, "scope") != "organization" {
			t.Fatalf("organization key: %s", r.body)
		}
		org := cred{key: r.str(t, "key")}
		inOther := func(c cred, method, path, body string) response {
			req := w.doHeader(method, path, body, c, api.ProjectHeader, a.otherProjectID)
			return req
		}
		// Legit: the organization key works in the other project.
		r = inOther(org, "POST", "/api/workflows", `{"name":"in other"}`)
		if r.status != 201 || r.str(t, "projectId") != a.otherProjectID {
			t.Fatalf("organization key in another project: %d %s", r.status, r.body)
		}
		if r := w.must(200, "GET", "/api/workflows", "", org); strings.Contains(string(r.body), "in other") {
			t.Fatalf("without the header the key is in the first project: %s", r.body)
		}
		// Attack: a project key naming another project of its organization.
		checkError(t, inOther(a.keyAll, "GET", "/api/workflows", ""), 404, "not_found", "")
		checkError(t, w.doHeader("GET", "/api/workflows", "", org, api.ProjectHeader, w.b.projectID), 404, "not_found", "")
		// Organization-wide records: the organization key changes them, a project key may not.
		w.must(200, "PATCH", "/api/env-vars/"+a.envVarID, `{"value":"new"}`, org)
		checkError(t, w.do("PATCH", "/api/env-vars/"+a.envVarID, `{"value":"newer"}`, a.keyAll), 403, "forbidden", "")
		w.must(201, "POST", "/api/projects", `{"name":"Provisioned"}`, org)
		// A member may not create an organization key.
		checkError(t, w.do("POST", "/api/api-keys", `{"name":"k","scopes":["read"]}`, a.team[edgeflow.RoleMember].session), 403, "forbidden", "")
	})
}

// TestOrganizationLifeCycle: rename (admins), delete (the owner only,
// refused while a deployment is active).
func TestOrganizationLifeCycle(t *testing.T) {
	t.Parallel()
	onBothEngines(t, worldOptions{}, func(t *testing.T, w *world) {
		a := w.a
		path := "/api/organizations/" + a.orgID
		r := w.must(200, "PATCH", path, `{"name":"Renamed"}`, a.team[edgeflow.RoleAdmin].session)
		if r.str(t, "name") != "Renamed" || r.str(t, "role") != "admin" {
			t.Fatalf("rename: %s", r.body)
		}
		checkError(t, w.do("DELETE", path, "", a.team[edgeflow.RoleAdmin].session), 403, "forbidden", "")
		ctx := context.Background()
		d := &edgeflow.Deployment{WorkflowID: a.workflowID, VersionID: a.versionID, ConnectionID: a.connectionID, URL: "http://x", ScriptName: "s"}
		if err := w.store.RecordDeployment(ctx, d); err != nil {
			t.Fatal(err)
		}
		r = w.do("DELETE", path, "", a.session)
		checkError(t, r, 409, "conflict", "")
		if !strings.Contains(string(r.body), d.ID) {
			t.Fatalf("the refusal does not list the deployment: %s", r.body)
		}
		if _, err := w.store.RemoveDeployment(ctx, a.workflowID, a.connectionID, time.Now()); err != nil {
			t.Fatal(err)
		}
		w.must(204, "DELETE", path, "", a.session)
		if _, err := w.store.FindOrganizationByID(ctx, a.orgID); !edgeflow.IsNotFound(err) {
			t.Fatalf("organization after delete: %v", err)
		}
		// The session goes on without an organization; keys of it stop.
		r = w.must(200, "GET", "/api/auth/session", "", a.session)
		if r.str(t, "activeOrganizationId") != "" {
			t.Fatalf("session after delete: %s", r.body)
		}
		checkError(t, w.do("GET", "/api/workflows", "", a.keyAll), 401, "unauthorized", "")
		w.must(200, "GET", "/api/workflows/"+w.b.workflowID, "", w.b.keyAll)
	})
}
