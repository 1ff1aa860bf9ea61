package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testWebhooks: webhooks per project; an event queues one delivery per
// subscribing webhook of its project; deliveries are claimed by one caller
// at a time, finished, redelivered, and deleted with their webhook.
func testWebhooks(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn, other := newTenant(t, s), newTenant(t, s)
	all := &edgeflow.Webhook{OrganizationID: tn.org.ID, ProjectID: tn.project.ID, URL: "https://93.184.215.14/a", SealedSecret: "sealed-a"}
	must(t, s.CreateWebhook(ctx, all))
	some := &edgeflow.Webhook{OrganizationID: tn.org.ID, ProjectID: tn.project.ID, URL: "https://93.184.215.14/b",
		Events: []string{edgeflow.EventDeployFailed}, SealedSecret: "sealed-b"}
	must(t, s.CreateWebhook(ctx, some))
	theirs := &edgeflow.Webhook{OrganizationID: other.org.ID, ProjectID: other.project.ID, URL: "https://93.184.215.14/c", SealedSecret: "sealed-c"}
	must(t, s.CreateWebhook(ctx, theirs))
	if err := s.CreateWebhook(ctx, &edgeflow.Webhook{OrganizationID: tn.org.ID, ProjectID: other.project.ID, URL: "https://x.example"}); edgeflow.ErrorCode(err) != edgeflow.ENotFound {
		t.Fatalf("a webhook in another organization's project: %v", err)
	}
	got, err := s.FindWebhookByID(ctx, tn.project.ID, all.ID)
	must(t, err)
	diff(t, "found webhook", got, all)
	if _, err := s.FindWebhookByID(ctx, other.project.ID, all.ID); edgeflow.ErrorCode(err) != edgeflow.ENotFound {
		t.Fatalf("another project finds the webhook: %v", err)
	}
	page, err := s.ListWebhooks(ctx, tn.project.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 2 || page.Items[0].ID != some.ID {
		t.Fatalf("list %+v", page.Items)
	}

	ev := &edgeflow.Event{ProjectID: tn.project.ID, Type: edgeflow.EventDeployComplete, Data: json.RawMessage(`{"workflowId":"wf_1"}`)}
	must(t, s.RecordEvent(ctx, ev))
	if ev.ID == "" || ev.Seq == 0 {
		t.Fatalf("event %+v", ev)
	}
	for _, h := range []*edgeflow.Webhook{some, theirs} {
		if p, _ := s.ListWebhookDeliveries(ctx, h.ID, edgeflow.ListOptions{}); len(p.Items) != 0 {
			t.Fatalf("webhook %s got %d deliveries of an event it does not want", h.URL, len(p.Items))
		}
	}
	dp, err := s.ListWebhookDeliveries(ctx, all.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(dp.Items) != 1 {
		t.Fatalf("deliveries %+v", dp.Items)
	}
	d := dp.Items[0]
	var payload struct {
		Type      string          `json:"type"`
		Timestamp time.Time       `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}
	must(t, json.Unmarshal(d.Payload, &payload))
	if d.MessageID != ev.ID || d.Status != edgeflow.DeliveryPending || d.NextAttemptAt == nil || payload.Type != ev.Type ||
		string(payload.Data) != string(ev.Data) || !payload.Timestamp.Equal(ev.CreatedAt) {
		t.Fatalf("delivery %+v %s", d, d.Payload)
	}

	now := time.Now().Add(time.Second)
	claimed, err := s.ClaimWebhookDeliveries(ctx, now, now.Add(time.Minute), 10)
	must(t, err)
	if len(claimed) != 1 || claimed[0].ID != d.ID {
		t.Fatalf("claimed %+v", claimed)
	}
	if again, _ := s.ClaimWebhookDeliveries(ctx, now, now.Add(time.Minute), 10); len(again) != 0 {
		t.Fatalf("a held delivery was claimed again: %+v", again)
	}
	// A dispatcher that died holding it: another takes it once the hold passed.
	if again, _ := s.ClaimWebhookDeliveries(ctx, now.Add(2*time.Minute), now.Add(3*time.Minute), 10); len(again) != 1 || again[0].ID != d.ID {
		t.Fatalf("after the hold passed: %+v", again)
	}
	c := claimed[0]
	next := now.Add(5 * time.Second)
	c.Attempts = append(c.Attempts, edgeflow.DeliveryAttempt{At: now.UTC().Truncate(time.Microsecond), ResponseStatus: 500, Error: "the endpoint answered 500"})
	c.ResponseStatus, c.NextAttemptAt = 500, &next
	must(t, s.FinishWebhookAttempt(ctx, &c))
	if again, _ := s.ClaimWebhookDeliveries(ctx, now, now.Add(time.Minute), 10); len(again) != 0 {
		t.Fatal("a delivery was claimed before its next attempt")
	}
	claimed, err = s.ClaimWebhookDeliveries(ctx, next, next.Add(time.Minute), 10)
	must(t, err)
	if len(claimed) != 1 || len(claimed[0].Attempts) != 1 || claimed[0].ResponseStatus != 500 {
		t.Fatalf("second claim %+v", claimed)
	}
	c = claimed[0]
	c.Status, c.ResponseStatus, c.NextAttemptAt = edgeflow.DeliveryDelivered, 204, nil
	c.Attempts = append(c.Attempts, edgeflow.DeliveryAttempt{At: next.UTC().Truncate(time.Microsecond), ResponseStatus: 204})
	must(t, s.FinishWebhookAttempt(ctx, &c))
	if again, _ := s.ClaimWebhookDeliveries(ctx, next.Add(time.Hour), next.Add(2*time.Hour), 10); len(again) != 0 {
		t.Fatal("a delivered message was claimed again")
	}
	found, err := s.FindWebhookDelivery(ctx, all.ID, d.ID)
	must(t, err)
	if found.Status != edgeflow.DeliveryDelivered || len(found.Attempts) != 2 || found.NextAttemptAt != nil {
		t.Fatalf("delivered %+v", found)
	}

	re, err := s.RedeliverWebhookDelivery(ctx, all.ID, d.ID, now)
	must(t, err)
	if re.MessageID != d.MessageID || re.RedeliveryOf != d.ID || re.Status != edgeflow.DeliveryPending || string(re.Payload) != string(d.Payload) {
		t.Fatalf("redelivery %+v", re)
	}
	if _, err := s.RedeliverWebhookDelivery(ctx, theirs.ID, d.ID, now); edgeflow.ErrorCode(err) != edgeflow.ENotFound {
		t.Fatalf("redelivery through another webhook: %v", err)
	}

	all.URL, all.Events, all.SealedSecret = "https://93.184.215.14/z", []string{edgeflow.EventRunErrored}, "sealed-z"
	must(t, s.UpdateWebhook(ctx, all))
	got, err = s.FindWebhookByID(ctx, tn.project.ID, all.ID)
	must(t, err)
	diff(t, "updated webhook", got, all)

	if err := s.DeleteWebhook(ctx, other.project.ID, all.ID); edgeflow.ErrorCode(err) != edgeflow.ENotFound {
		t.Fatalf("another project deletes the webhook: %v", err)
	}
	must(t, s.DeleteWebhook(ctx, tn.project.ID, all.ID))
	if _, err := s.FindWebhookDelivery(ctx, all.ID, d.ID); edgeflow.ErrorCode(err) != edgeflow.ENotFound {
		t.Fatalf("a deleted webhook's delivery: %v", err)
	}
	c.Status = edgeflow.DeliveryFailed
	if err := s.FinishWebhookAttempt(ctx, &c); edgeflow.ErrorCode(err) != edgeflow.ENotFound {
		t.Fatalf("finishing a deleted delivery: %v", err)
	}
}
