package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/localedge"
)

// fillerWorker is one worker of the benchmark's layout: a module with a
// Workflow class, deployed with its Workflow, as an edgeflow deployment is.
const fillerWorker = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Filler extends WorkflowEntrypoint {
  async run(event, step) { return await step.do("only", async () => ({ ok: true })); }
}
export default { async fetch() { return new Response("filler"); } };
`

// BenchmarkDeploy50NodesLayout deploys a 50-node workflow through edgeflow's
// API to a fresh local edge that already holds 50 other workers, laid out
// as the issue asks: in 10 accounts of 5 workers each (organizations with
// accounts of their own), or all 50 in the deploying organization's account
// (today's layout, one shared account). Besides ns/op (one deploy) it
// reports the edge's idle resident memory after the layout is built and
// deployed (node-MiB, workerd-MiB, from GET /__edge/stats). Run it with a
// fixed count, since each sub-benchmark starts its own edge:
//
//	go test ./internal/e2e -run '^$' -bench Deploy50NodesLayout -benchtime 3x
//
// The edge is an input: without Node and the edge's packages it fails.
func BenchmarkDeploy50NodesLayout(b *testing.B) {
	if shared.skip != "" {
		b.Fatalf("the local edge is required: %s", shared.skip)
	}
	type layout struct {
		name               string
		accounts, perAcct  int
		inDeployersAccount bool
		edge               *localedge.Edge
		s                  *server
		wf                 string
		versions           int
		deployed           bool
	}
	layouts := []*layout{
		{name: "accounts=10x5", accounts: 10, perAcct: 5},
		{name: "accounts=1x50", accounts: 1, perAcct: 50, inDeployersAccount: true},
	}
	script, why := edgeScript()
	if why != "" {
		b.Fatal(why)
	}
	ctx := context.Background()
	ir := func(i int) map[string]any {
		nodes := []map[string]any{step("n0", fmt.Sprintf("return { v: %d };", i))}
		for j := 1; j < 50; j++ {
			nodes = append(nodes, step(fmt.Sprintf("n%d", j), fmt.Sprintf("return { v: {{n%d.v}} + 1 };", j-1)))
		}
		return chain("Fifty", nodes...)
	}
	// Each layout gets its own edge, built before any timing (the benchmark
	// function of a sub-benchmark runs more than once).
	for _, l := range layouts {
		edge, err := localedge.Start(ctx, localedge.Options{Script: script, DataDir: filepath.Join(b.TempDir(), "edge")})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { edge.Close() })
		l.edge = edge
		l.s = newServer(b, serverOptions{edge: edge})
		own := l.s.connectionAccount()
		for i := 0; i < l.accounts; i++ {
			acct, token := own, edge.Token() // the root token administers any account
			if !l.inDeployersAccount {
				a, err := edge.Provision(ctx, fmt.Sprintf("bench-%d", i), fmt.Sprintf("bench %d", i))
				if err != nil {
					b.Fatal(err)
				}
				acct, token = a.ID, a.Token
			}
			for j := 0; j < l.perAcct; j++ {
				fillWorker(b, edge, acct, token, fmt.Sprintf("filler-%d-%d", i, j))
			}
		}
		l.wf, _ = l.s.workflow("Fifty", "workflow", ir(0))
		l.versions = 1
	}
	for _, l := range layouts {
		b.Run(l.name, func(b *testing.B) {
			s := l.s
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if l.deployed {
					s.version(l.wf, ir(l.versions)) // every deploy but the first brings a new version
					l.versions++
				}
				b.StartTimer()
				s.deploy(l.wf)
				l.deployed = true
			}
			b.StopTimer()
			id := s.trigger(l.wf, map[string]any{})
			if r := s.waitStatus(l.wf, id, "complete", 120*time.Second); len(r.Output) == 0 {
				b.Fatalf("run %s has no output", id)
			}
			time.Sleep(3 * time.Second) // let the edge settle before reading its idle memory
			st := edgeStats(b, l.edge)
			if st.Scripts != l.accounts*l.perAcct+1 {
				b.Fatalf("the edge runs %d scripts, want %d", st.Scripts, l.accounts*l.perAcct+1)
			}
			b.ReportMetric(float64(st.NodeRSS)/(1<<20), "node-MiB")
			b.ReportMetric(float64(st.WorkerdRSS)/(1<<20), "workerd-MiB")
		})
	}
}

// connectionAccount is the local edge account id of the server's connection
// (its organization's own account). Answers show account ids redacted, so
// the test reads the stored connection; the answer must show the same id's
// last four characters.
func (s *server) connectionAccount() string {
	s.t.Helper()
	c, err := s.store.FindConnectionByID(context.Background(), s.orgID, s.conn)
	if err != nil {
		s.t.Fatal(err)
	}
	if c.AccountID == "" || c.AccountID == api.LocalAccountID {
		s.t.Fatalf("connection %s has no local edge account", s.conn)
	}
	var list struct {
		Data []struct{ ID, AccountID string } `json:"data"`
	}
	s.must(200, "GET", "/api/connections", nil).into(&list)
	for _, shown := range list.Data {
		if shown.ID == s.conn && shown.AccountID != api.RedactAccountID(c.AccountID) {
			s.t.Fatalf("connection %s shows account %q, stored %q", s.conn, shown.AccountID, c.AccountID)
		}
	}
	return c.AccountID
}

// fillWorker uploads one filler worker with its Workflow into account acct.
func fillWorker(b *testing.B, edge *localedge.Edge, acct, token, name string) {
	b.Helper()
	cl, err := cloudflare.New(cloudflare.Options{BaseURL: edge.APIBaseURL(), APIToken: token, AccountID: acct})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	err = cl.UploadScript(ctx, name, cloudflare.Script{MainModule: "index.js", CompatibilityDate: "2025-01-01",
		Modules:  []cloudflare.Module{{Name: "index.js", Content: []byte(fillerWorker)}},
		Bindings: []cloudflare.Binding{cloudflare.WorkflowBinding("WF", name+"-wf", "Filler")}})
	if err != nil {
		b.Fatalf("upload %s: %v", name, err)
	}
	if _, err := cl.PutWorkflow(ctx, cloudflare.WorkflowSpec{Name: name + "-wf", ScriptName: name, ClassName: "Filler"}); err != nil {
		b.Fatalf("workflow %s: %v", name, err)
	}
}

type edgeStatsReply struct {
	NodeRSS    int64 `json:"node_rss"`
	WorkerdRSS int64 `json:"workerd_rss"`
	Scripts    int   `json:"scripts"`
}

func edgeStats(b *testing.B, edge *localedge.Edge) edgeStatsReply {
	b.Helper()
	req, _ := http.NewRequest("GET", strings.TrimSuffix(edge.APIBaseURL(), "/client/v4")+"/__edge/stats", nil)
	req.Header.Set("Authorization", "Bearer "+edge.Token())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var st edgeStatsReply
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil || res.StatusCode != 200 {
		b.Fatalf("stats: %d %v", res.StatusCode, err)
	}
	if st.WorkerdRSS == 0 {
		b.Fatal("stats: the edge reports no workerd memory")
	}
	return st
}
