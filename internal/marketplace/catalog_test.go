package marketplace_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// slackIR is a workflow with one step and one slack-message node at
// version, with the given data.
func slackIR(version, data string) []byte {
	return []byte(`{"metadata":{"name":"n","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
"nodes":[
 {"id":"start","type":"step","name":"Start","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"code":"return {n: 1};"}},
 {"id":"notify","type":"slack-message","name":"Notify","position":{"x":0,"y":0},"version":"` + version + `","provider":"cloudflare","data":` + data + `}
],
"edges":[{"id":"e1","source":"start","target":"notify"}],
"entryNodeId":"start"}`)
}

type problem struct{ Path, NodeID, Rule string }

func TestNodeCatalogValidatesAgainstInstalledVersions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, user := f.newOrg(t, "alpha")
	other, _ := f.newOrg(t, "beta")
	if _, err := f.svc.Install(ctx, org, user, "slack-message", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	cat, err := f.svc.NodeCatalog(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	otherCat, err := f.svc.NodeCatalog(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"1.0.0"}, cat.Versions("slack-message")); diff != "" {
		t.Errorf("versions of slack-message (-want +got):\n%s", diff)
	}
	if _, ok := cat.Lookup("step", "1.0.0"); !ok {
		t.Error("the organization catalog lacks the builtins")
	}

	tests := []struct {
		name string
		org  string
		raw  []byte
		want []problem // empty = valid
	}{
		{"installed version", org, slackIR("1.0.0", `{"channel":"C1","text":"sum {{start.n}}"}`), nil},
		{"other version than installed", org, slackIR("2.0.0", `{"channel":"C1","text":"hi"}`),
			[]problem{{"/nodes/1/version", "notify", "node-type"}}},
		{"field of the other version", org, slackIR("1.0.0", `{"channel":"C1","text":"hi","blocks":"[]"}`),
			[]problem{{"/nodes/1/data/blocks", "notify", "node-data"}}},
		{"required field missing", org, slackIR("1.0.0", `{"text":"hi"}`),
			[]problem{{"/nodes/1/data/channel", "notify", "node-data"}}},
		{"not installed in this organization", other, slackIR("1.0.0", `{"channel":"C1","text":"hi"}`),
			[]problem{{"/nodes/1/type", "notify", "node-type"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := cat
			if tt.org == other {
				c = otherCat
			}
			_, problems := ir.Validate(tt.raw, ir.Options{Nodes: c})
			var got []problem
			for _, p := range problems {
				got = append(got, problem{p.Path, p.NodeID, p.Rule})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s\nall: %+v", diff, problems)
			}
		})
	}

	tpls, err := f.svc.Templates(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	if len(tpls) != 1 || tpls[0].Type != "slack-message" || tpls[0].Version != "1.0.0" || tpls[0].Definition == nil ||
		!strings.Contains(tpls[0].Source, "export default async function") {
		t.Fatalf("templates = %+v", tpls)
	}
	if tpls, err := f.svc.Templates(ctx, other); err != nil || len(tpls) != 0 {
		t.Fatalf("templates of an organization without installs = %v, %v", tpls, err)
	}

	// After an update the catalog follows the installed version.
	if _, err := f.svc.Update(ctx, org, "slack-message", "2.0.0"); err != nil {
		t.Fatal(err)
	}
	cat2, err := f.svc.NodeCatalog(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	if _, ps := ir.Validate(slackIR("2.0.0", `{"channel":"C1","text":"hi","blocks":"[]"}`), ir.Options{Nodes: cat2}); len(ps) != 0 {
		t.Fatalf("2.0.0 IR after update: %+v", ps)
	}
	if _, ps := ir.Validate(slackIR("1.0.0", `{"channel":"C1","text":"hi"}`), ir.Options{Nodes: cat2}); len(ps) == 0 {
		t.Fatal("1.0.0 IR accepted after the update to 2.0.0")
	}
}
