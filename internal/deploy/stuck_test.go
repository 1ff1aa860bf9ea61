package deploy_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// TestStuckQueuedRule: a run queued past StuckAfter gets statusDetail stuck
// (an event of the run stream) and its instance is created again once (the
// provider that has it answers that it exists, so nothing runs twice; one
// that lost it runs it now, once); past StuckFailAfter the run is failed
// with an error saying why, after its instance is terminated, and not
// before: while the terminate fails it stays stuck.
func TestStuckQueuedRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newRunWorld(t)
	var offset atomic.Int64
	svc, err := deploy.New(deploy.Options{Store: w.st, Secrets: fixedSecrets{},
		NewProvider: func(deploy.ProviderConfig) (deploy.Provider, error) { return w.prov, nil },
		Now:         func() time.Time { return time.Now().Add(time.Duration(offset.Load())) },
		StuckAfter:  2 * time.Minute, StuckFailAfter: 10 * time.Minute})
	must(t, err)
	at := func(d time.Duration) {
		offset.Store(int64(d))
		svc.RefreshDue(ctx, 100, 4)
	}
	get := func(r *edgeflow.Run) *edgeflow.Run {
		cur, err := w.st.FindRunByID(ctx, r.WorkflowID, r.ID)
		must(t, err)
		return cur
	}
	due := func(r *edgeflow.Run) {
		// each step of the clock below makes every run due
		now := time.Now().Add(-time.Second)
		r.NextRefreshAt = &now
		must(t, w.st.UpdateRun(ctx, r))
	}
	// a webhook that subscribes to run.stuck alone
	hook := &edgeflow.Webhook{OrganizationID: w.tenant.OrganizationID, ProjectID: w.tenant.ProjectID, URL: "https://hooks.example.com/x",
		Events: []string{edgeflow.EventRunStuck}, SealedSecret: "sealed"}
	must(t, w.st.CreateWebhook(ctx, hook))
	seq, err := w.st.LastEventSeq(ctx)
	must(t, err)
	held := w.run(t, edgeflow.RunQueued, "", "queued", nil) // the provider has it and never starts it
	lost := w.run(t, edgeflow.RunQueued, "", "queued", nil) // the provider lost its create
	w.prov.mu.Lock()
	delete(w.prov.instances, lost.InstanceID)
	w.prov.mu.Unlock()
	due(held)
	due(lost)
	at(time.Minute)
	if r := get(held); r.Status != edgeflow.RunQueued || r.StatusDetail != "" {
		t.Fatalf("after a minute: %s/%s, want queued with no detail", r.Status, r.StatusDetail)
	}
	w.prov.take()
	due(get(held))
	due(get(lost))
	at(3 * time.Minute)
	if r := get(held); r.Status != edgeflow.RunQueued || r.StatusDetail != deploy.DetailStuck {
		t.Fatalf("after 3 minutes: %s/%s, want queued/stuck", r.Status, r.StatusDetail)
	}
	creates := 0
	for _, c := range w.prov.take() {
		if strings.HasPrefix(c, "create ") {
			creates++
		}
	}
	if creates != 2 {
		t.Errorf("creates after 3 minutes = %d, want one per stuck run", creates)
	}
	// the stream carries the stuck detail
	events, err := w.st.ListEventsAfter(ctx, seq, 100)
	must(t, err)
	stuck := 0
	for _, e := range events {
		var d edgeflow.RunEvent
		must(t, json.Unmarshal(e.Data, &d))
		if d.ID == held.ID && d.StatusDetail == deploy.DetailStuck {
			stuck++
			if e.Type != edgeflow.EventRunStuck {
				t.Errorf("the held run's stuck event is %s, want %s", e.Type, edgeflow.EventRunStuck)
			}
		}
	}
	if stuck != 1 {
		t.Errorf("events of the held run with statusDetail stuck = %d, want 1", stuck)
	}
	// and reaches the webhook: one delivery per stuck run
	dl, err := w.st.ListWebhookDeliveries(ctx, hook.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(dl.Items) != 2 {
		t.Errorf("deliveries to the run.stuck webhook = %d, want 2 (one per stuck run)", len(dl.Items))
	}
	for _, d := range dl.Items {
		if d.EventType != edgeflow.EventRunStuck {
			t.Errorf("a delivery of %s to a webhook of run.stuck alone", d.EventType)
		}
	}
	// the lost run's instance exists again: it runs, once
	w.prov.set(lost.InstanceID, "complete", nil)
	due(get(held))
	due(get(lost))
	at(4 * time.Minute)
	if r := get(lost); r.Status != edgeflow.RunComplete {
		t.Errorf("the lost run: %s, want complete", r.Status)
	}
	for _, c := range w.prov.take() {
		if strings.HasPrefix(c, "create ") {
			t.Errorf("a stuck run's instance was created again twice: %s", c)
		}
	}
	// past the fail bound, a failing terminate leaves it stuck...
	w.prov.mu.Lock()
	w.prov.changeErr = errors.New("edge down")
	w.prov.mu.Unlock()
	due(get(held))
	at(11 * time.Minute)
	if r := get(held); r.Status != edgeflow.RunQueued || r.StatusDetail != deploy.DetailStuck {
		t.Fatalf("with the terminate failing: %s/%s, want queued/stuck", r.Status, r.StatusDetail)
	}
	// ...and once it succeeds the run fails, saying why
	w.prov.mu.Lock()
	w.prov.changeErr = nil
	w.prov.mu.Unlock()
	due(get(held))
	at(12 * time.Minute)
	r := get(held)
	if r.Status != edgeflow.RunErrored || !strings.Contains(r.Error, "stayed queued for 10m0s") || r.NextRefreshAt != nil {
		t.Fatalf("after 12 minutes: %s %q next %v, want errored saying it stayed queued, no next refresh", r.Status, r.Error, r.NextRefreshAt)
	}
	if inst, _ := w.prov.GetInstance(ctx, "", held.InstanceID); inst.Status != "terminated" {
		t.Errorf("the failed run's instance is %s, want terminated", inst.Status)
	}
}
