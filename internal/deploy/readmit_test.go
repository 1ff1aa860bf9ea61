package deploy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestStrandedCronStartIsAdmittedAgain: the admission event of a cron start
// (docs/deploy.md, "Cron starts") is sent by the deployed worker's event
// path; when that send fails, the start would wait at its gate until the
// gate times out after 10 minutes and end having run nothing. The
// refresher, reading the run, sees its instance still waiting at the gate
// 30 s after it began and sends the event again — once per 30 s, until the
// instance is past the gate. Its twins: a start that began to wait 5 s ago,
// and one waiting for an ordinary event, are sent nothing. The worker here
// stands for the deployed worker on Cloudflare: it records the exact
// requests and fails the first.
func TestStrandedCronStartIsAdmittedAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	var got []string
	fail := atomic.Int32{}
	fail.Store(1)
	worker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, fmt.Sprintf("%s %s %s", r.Method, r.URL.Path, body))
		mu.Unlock()
		if fail.Add(-1) >= 0 {
			http.Error(w, `{"message":"try later"}`, http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, `{"ok":true}`)
	}))
	defer worker.Close()
	sent := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}

	w := newRunWorld(t)
	v := &edgeflow.Version{WorkflowID: w.wf.ID, IR: json.RawMessage(`{"metadata":{"name":"orders"},"trigger":{"type":"cron","expression":"*/5 * * * *"},` +
		`"nodes":[{"id":"load","type":"step","name":"Load","data":{"code":"return 1;"}}],"edges":[],"entryNodeId":"load"}`)}
	must(t, w.st.CreateVersion(ctx, v))
	dep := &edgeflow.Deployment{WorkflowID: w.wf.ID, ProjectID: w.tenant.ProjectID, VersionID: v.ID, ConnectionID: w.conn.ID,
		ScriptName: "s", WorkflowName: w.dep.WorkflowName, URL: worker.URL}
	must(t, w.st.RecordDeployment(ctx, dep))
	var offset atomic.Int64
	svc, err := deploy.New(deploy.Options{Store: w.st, Secrets: fixedSecrets{},
		NewProvider: func(deploy.ProviderConfig) (deploy.Provider, error) { return w.prov, nil },
		Now:         func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }})
	must(t, err)

	gate := func(since time.Time) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`[{"type":"waitForEvent","name":"edgeflow admission","start":%q,"finished":false}]`,
			since.UTC().Format(time.RFC3339Nano)))
	}
	start := func(instanceID string, steps json.RawMessage) *edgeflow.Run {
		r := &edgeflow.Run{WorkflowID: w.wf.ID, VersionID: v.ID, ConnectionID: w.conn.ID, DeploymentID: dep.ID,
			WorkflowName: dep.WorkflowName, Status: edgeflow.RunPaused, StatusDetail: "waiting", Params: json.RawMessage(`{}`), InstanceID: instanceID}
		r.ID = edgeflow.NewID(edgeflow.PrefixRun)
		must(t, w.st.CreateRun(ctx, r))
		w.prov.set(instanceID, "waiting", steps)
		return r
	}
	refreshAt := func(d time.Duration) {
		offset.Store(int64(d))
		page, err := w.st.ListRuns(ctx, edgeflow.RunFilter{ProjectID: w.tenant.ProjectID}, edgeflow.ListOptions{Limit: 100})
		must(t, err)
		for i := range page.Items {
			r := page.Items[i]
			due := time.Now().Add(time.Duration(offset.Load()) - time.Second)
			r.NextRefreshAt = &due
			must(t, w.st.UpdateRun(ctx, &r))
		}
		svc.RefreshDue(ctx, 100, 4)
	}
	waitSent := func(n int) {
		t.Helper()
		testenv.WaitFor(t, 10*time.Second, 10*time.Millisecond, fmt.Sprintf("%d admission events sent", n), func() (bool, string) {
			s := sent()
			return len(s) >= n, fmt.Sprint(s)
		})
	}
	event := `POST / {"instanceId":"sched-stranded","eventType":"edgeflow-admission","payload":{"admittedBy":"edgeflow"}}`

	t0 := time.Now()
	start("sched-stranded", gate(t0.Add(-40*time.Second)))
	start("sched-young", gate(t0.Add(-5*time.Second)))
	start("sched-approval", json.RawMessage(fmt.Sprintf(`[{"type":"waitForEvent","name":"approval","start":%q,"finished":false}]`,
		t0.Add(-time.Hour).UTC().Format(time.RFC3339Nano))))

	// the first refresh sends the stranded start its event again; the worker fails it
	refreshAt(0)
	waitSent(1)
	if s := sent(); s[0] != event {
		t.Fatalf("the worker got %q, want %q", s[0], event)
	}
	// the young start's wait passes 30 s from here on: it is past the gate by then
	w.prov.set("sched-young", "running", json.RawMessage(`[{"type":"waitForEvent","name":"edgeflow admission","finished":true}]`))
	// a refresh within 30 s of the send does not send again
	refreshAt(10 * time.Second)
	// past 30 s the next refresh sends it again, and the worker takes it
	refreshAt(41 * time.Second)
	waitSent(2)
	if s := sent(); s[1] != event {
		t.Fatalf("the worker got %q, want %q", s[1], event)
	}
	// the instance took it and runs its steps: no more sends
	w.prov.set("sched-stranded", "running", json.RawMessage(`[{"type":"waitForEvent","name":"edgeflow admission","finished":true},{"type":"step","name":"Load"}]`))
	refreshAt(100 * time.Second)
	refreshAt(200 * time.Second)
	// a start stranded since then is sent its event at the next refresh, and nothing else is sent
	start("sched-late", gate(t0.Add(250*time.Second)))
	refreshAt(300 * time.Second)
	waitSent(3)
	late := `POST / {"instanceId":"sched-late","eventType":"edgeflow-admission","payload":{"admittedBy":"edgeflow"}}`
	if s := sent(); len(s) != 3 || s[2] != late {
		t.Fatalf("the worker got %q, want the two sends to sched-stranded and one to sched-late", s)
	}
}
