package api_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/webhook"
)

// verifyStandardWebhook checks a request as a receiver following the
// Standard Webhooks specification does, written here from the
// specification, independently of internal/webhook: the signed content is
// "<webhook-id>.<webhook-timestamp>.<body>", the key the base64 after
// "whsec_", the signature header a space-separated list of "v1,<base64
// HMAC-SHA256>", one of which must match.
func verifyStandardWebhook(secretText string, h http.Header, body []byte) error {
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return fmt.Errorf("missing headers: id %q timestamp %q signature %q", id, ts, sigs)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secretText, "whsec_"))
	if err != nil {
		return err
	}
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "%s.%s.%s", id, ts, body)
	want := m.Sum(nil)
	for _, s := range strings.Fields(sigs) {
		version, b64, ok := strings.Cut(s, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return fmt.Errorf("no signature of %q matches", sigs)
}

// receiver is a webhook endpoint for tests: it records every request and
// answers the statuses of answers in turn (the last one from then on).
type receiver struct {
	srv     *httptest.Server
	mu      sync.Mutex
	got     []received
	answers []int
}

type received struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, answers ...int) *receiver {
	rc := &receiver{answers: answers}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{r.Header.Clone(), b})
		status := rc.answers[min(len(rc.got), len(rc.answers))-1]
		rc.mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, "answer "+fmt.Sprint(status))
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// fixedClock is a clock that stands still until set.
type fixedClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fixedClock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fixedClock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// webhookWorld is a world whose operator allows 127.0.0.1 (the receivers)
// and a dispatcher on its store with a settable clock.
func webhookWorld(t *testing.T) (*world, *webhook.Dispatcher, *fixedClock) {
	allow, err := netguard.ParseAllowList("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, config: func(c *api.Config) { c.AllowHosts = allow }})
	// The fixture webhooks (and their pending deliveries) go: the
	// dispatcher here must attempt only what each test queues.
	for _, tn := range []*tenant{w.a, w.b} {
		w.must(204, "DELETE", "/api/webhooks/"+tn.webhookID, "", tn.keyAll)
	}
	sealer, _ := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	clk := &fixedClock{t: time.Now()}
	d := &webhook.Dispatcher{Store: w.store, Sealer: sealer, Guard: netguard.New(allow), Now: clk.now, Timeout: 5 * time.Second}
	return w, d, clk
}

// completeRun stores a run of tn's workflow and completes it: one
// run.completed event.
func completeRun(t *testing.T, w *world, tn *tenant) *edgeflow.Run {
	ctx := context.Background()
	r := &edgeflow.Run{WorkflowID: tn.workflowID, Status: edgeflow.RunQueued}
	mustTB(t, w.store.CreateRun(ctx, r))
	r.Status = edgeflow.RunComplete
	r.Output = json.RawMessage(`{"ok":true}`)
	mustTB(t, w.store.UpdateRun(ctx, r))
	return r
}

type deliveryView struct {
	ID             string `json:"id"`
	MessageID      string `json:"messageId"`
	EventType      string `json:"eventType"`
	Status         string `json:"status"`
	ResponseStatus int    `json:"responseStatus"`
	RedeliveryOf   string `json:"redeliveryOf"`
	Attempts       []struct {
		At             time.Time `json:"at"`
		ResponseStatus int       `json:"responseStatus"`
		Error          string    `json:"error"`
	} `json:"attempts"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
}

func deliveriesOf(t *testing.T, w *world, hook string, c cred) []deliveryView {
	var page struct{ Data []deliveryView }
	if err := json.Unmarshal(w.must(200, "GET", "/api/webhooks/"+hook+"/deliveries", "", c).body, &page); err != nil {
		t.Fatal(err)
	}
	return page.Data
}

// TestWebhookDelivery: a run's completion reaches the receiver signed as
// the specification says (verified independently), retried after failures
// with the same webhook-id, never again after a 2xx; the secret is shown
// once; a rotated secret signs what follows; redelivery sends the same
// message as a new delivery.
func TestWebhookDelivery(t *testing.T) {
	t.Parallel()
	w, d, clk := webhookWorld(t)
	rc := newReceiver(t, 503, 500, 204)
	created := w.must(201, "POST", "/api/webhooks", `{"url":"`+rc.srv.URL+`/hook","events":["run.completed"]}`, w.a.keyAll)
	hook, sec := created.str(t, "id"), created.str(t, "secret")
	if !strings.HasPrefix(sec, "whsec_") {
		t.Fatalf("secret %q", sec)
	}
	for _, p := range []string{"/api/webhooks", "/api/webhooks/" + hook, "/api/webhooks/" + hook + "/deliveries"} {
		if r := w.must(200, "GET", p, "", w.a.keyAll); strings.Contains(string(r.body), sec) || strings.Contains(string(r.body), "secret") {
			t.Fatalf("GET %s shows the secret: %s", p, r.body)
		}
	}

	run := completeRun(t, w, w.a)
	ctx := context.Background()
	start := time.Now().UTC()
	for _, after := range []time.Duration{0, 5 * time.Second, 35 * time.Second} {
		clk.set(start.Add(after + time.Second))
		if n, err := d.DeliverDue(ctx, 10); err != nil || n != 1 {
			t.Fatalf("at +%s: %d attempts, %v; want 1", after, n, err)
		}
	}
	// Delivered: nothing is sent again, however late.
	for _, later := range []time.Duration{time.Minute, 3 * time.Hour, 30 * time.Hour} {
		clk.set(start.Add(later))
		if n, _ := d.DeliverDue(ctx, 10); n != 0 {
			t.Fatalf("at +%s after the 2xx: %d attempts", later, n)
		}
	}
	got := rc.requests()
	if len(got) != 3 {
		t.Fatalf("the receiver got %d requests, want 3", len(got))
	}
	for i, g := range got {
		if err := verifyStandardWebhook(sec, g.header, g.body); err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
		if g.header.Get("webhook-id") != got[0].header.Get("webhook-id") || !bytes.Equal(g.body, got[0].body) {
			t.Fatalf("attempt %d differs from the first: %s %s", i+1, g.header.Get("webhook-id"), g.body)
		}
	}
	var body struct {
		Type      string            `json:"type"`
		Timestamp time.Time         `json:"timestamp"`
		Data      edgeflow.RunEvent `json:"data"`
	}
	if err := json.Unmarshal(got[0].body, &body); err != nil || body.Type != "run.completed" || body.Data.ID != run.ID ||
		body.Data.Status != "complete" || body.Data.WorkflowID != w.a.workflowID || body.Timestamp.IsZero() {
		t.Fatalf("body %s (%v)", got[0].body, err)
	}
	ds := deliveriesOf(t, w, hook, w.a.keyAll)
	if len(ds) != 1 || ds[0].Status != "delivered" || ds[0].ResponseStatus != 204 || len(ds[0].Attempts) != 3 ||
		ds[0].Attempts[0].ResponseStatus != 503 || ds[0].Attempts[0].Error == "" || ds[0].NextAttemptAt != nil ||
		ds[0].MessageID != got[0].header.Get("webhook-id") {
		t.Fatalf("deliveries %+v", ds)
	}

	// Rotation: the old secret no longer verifies, the new one does.
	rot := w.must(200, "POST", "/api/webhooks/"+hook+"/rotate-secret", "", w.a.keyAll)
	newSec := rot.str(t, "secret")
	if newSec == sec || !strings.HasPrefix(newSec, "whsec_") {
		t.Fatalf("rotated secret %q", newSec)
	}
	re := w.must(202, "POST", "/api/webhooks/"+hook+"/deliveries/"+ds[0].ID+"/redeliver", "", w.a.keyAll)
	var nd deliveryView
	json.Unmarshal(re.body, &nd)
	if nd.MessageID != ds[0].MessageID || nd.RedeliveryOf != ds[0].ID || nd.Status != "pending" || nd.ID == ds[0].ID {
		t.Fatalf("redelivery %s", re.body)
	}
	clk.set(time.Now().Add(time.Second))
	if n, err := d.DeliverDue(ctx, 10); err != nil || n != 1 {
		t.Fatalf("redelivery: %d attempts, %v", n, err)
	}
	last := rc.requests()[3]
	if verifyStandardWebhook(sec, last.header, last.body) == nil {
		t.Fatal("the old secret still verifies after rotation")
	}
	if err := verifyStandardWebhook(newSec, last.header, last.body); err != nil || last.header.Get("webhook-id") != ds[0].MessageID {
		t.Fatalf("redelivery: %v, webhook-id %s", err, last.header.Get("webhook-id"))
	}

	// Events the webhook did not subscribe to are not delivered.
	r := &edgeflow.Run{WorkflowID: w.a.workflowID, Status: edgeflow.RunRunning}
	mustTB(t, w.store.CreateRun(ctx, r))
	if n := len(deliveriesOf(t, w, hook, w.a.keyAll)); n != 2 {
		t.Fatalf("%d deliveries after a run.started the webhook does not want, want 2", n)
	}
}

// TestWebhookRetrySchedule: a receiver that always fails gets attempts at
// 0, 5 s, 30 s, 2 min, 10 min, 30 min and 1 h after the one before, then
// every 2 h until 24 h after the first; then the delivery is failed and
// nothing more is sent. The clock is the dispatcher's: no real waiting.
func TestWebhookRetrySchedule(t *testing.T) {
	t.Parallel()
	w, d, clk := webhookWorld(t)
	rc := newReceiver(t, 500)
	hook := w.must(201, "POST", "/api/webhooks", `{"url":"`+rc.srv.URL+`"}`, w.a.keyAll).str(t, "id")
	completeRun(t, w, w.a)
	ctx := context.Background()
	first := deliveriesOf(t, w, hook, w.a.keyAll)
	if len(first) != 1 || first[0].NextAttemptAt == nil {
		t.Fatalf("deliveries %+v", first)
	}
	due := *first[0].NextAttemptAt
	var want []time.Duration
	at := time.Duration(0)
	for _, step := range []time.Duration{0, 5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour} {
		at += step
		want = append(want, at)
	}
	for at+2*time.Hour <= 24*time.Hour {
		at += 2 * time.Hour
		want = append(want, at)
	}
	var dueTimes []time.Duration
	for i := 0; i < 40; i++ {
		ds := deliveriesOf(t, w, hook, w.a.keyAll)
		if ds[0].NextAttemptAt == nil {
			if ds[0].Status != "failed" {
				t.Fatalf("no attempt left but status %s", ds[0].Status)
			}
			break
		}
		next := *ds[0].NextAttemptAt
		dueTimes = append(dueTimes, next.Sub(due))
		clk.set(next.Add(-time.Millisecond))
		if n, _ := d.DeliverDue(ctx, 10); n != 0 {
			t.Fatalf("an attempt before it was due (%s)", next.Sub(due))
		}
		clk.set(next)
		if n, err := d.DeliverDue(ctx, 10); err != nil || n != 1 {
			t.Fatalf("at +%s: %d attempts, %v", next.Sub(due), n, err)
		}
	}
	if fmt.Sprint(dueTimes) != fmt.Sprint(want) {
		t.Fatalf("attempts at\n%v\nwant\n%v", dueTimes, want)
	}
	clk.set(due.Add(48 * time.Hour))
	if n, _ := d.DeliverDue(ctx, 10); n != 0 || len(rc.requests()) != len(want) {
		t.Fatalf("after the last attempt: %d more, %d requests in all, want %d", n, len(rc.requests()), len(want))
	}
	ids := map[string]bool{}
	for _, g := range rc.requests() {
		ids[g.header.Get("webhook-id")] = true
	}
	if len(ids) != 1 {
		t.Fatalf("webhook-ids %v, want one", ids)
	}
}

// TestWebhookPrivateTargets: URLs whose host is or resolves to a loopback,
// link-local or private address are refused at creation and on change
// (attack); the operator's --allow-hosts admits them (twin). Delivery checks
// the address again as it connects: a webhook whose host the operator no
// longer allows gets nothing.
func TestWebhookPrivateTargets(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, u := range []string{"http://127.0.0.1:9/hook", "http://localhost/hook", "http://169.254.169.254/latest/meta-data",
		"http://10.1.2.3/", "http://[::1]/", "http://[::ffff:192.168.1.1]/", "http://0.0.0.0/", "ftp://93.184.215.14/",
		"https://user:pw@93.184.215.14/", "not a url",
		// every IPv6 form that carries a loopback or private IPv4 address: translated, compatible, NAT64, 6to4, Teredo
		"http://[::ffff:0:7f00:1]/", "http://[::ffff:0:127.0.0.1]/", "http://[::127.0.0.1]/", "http://[64:ff9b::7f00:1]/",
		"http://[64:ff9b:1::a00:1]/", "http://[2002:7f00:1::]/", "http://[2001:0:7f00:1::]/",
		"http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "http://[100::1]/"} {
		checkError(t, w.do("POST", "/api/webhooks", `{"url":"`+u+`"}`, w.a.keyAll), 422, "validation_failed", "/url")
		checkError(t, w.do("PATCH", "/api/webhooks/"+w.a.webhookID, `{"url":"`+u+`"}`, w.a.keyAll), 422, "validation_failed", "/url")
	}
	checkError(t, w.do("POST", "/api/webhooks", `{"url":"https://93.184.215.14/","events":["run.exploded"]}`, w.a.keyAll), 422, "validation_failed", "/events/0")
	// Twin: public addresses pass in their IPv6 spellings too.
	for _, u := range []string{"https://[2606:4700::1111]/hook", "https://[::ffff:93.184.215.14]/hook", "https://[2002:5db8:d70e::]/hook"} {
		w.must(201, "POST", "/api/webhooks", `{"url":"`+u+`"}`, w.a.keyAll)
	}

	// Twin: the operator allows the receiver's address.
	ww, d, clk := webhookWorld(t)
	rc := newReceiver(t, 200)
	hook := ww.must(201, "POST", "/api/webhooks", `{"url":"`+rc.srv.URL+`"}`, ww.a.keyAll).str(t, "id")
	ww.must(200, "PATCH", "/api/webhooks/"+hook, `{"url":"`+rc.srv.URL+`/v2"}`, ww.a.keyAll)
	checkError(t, ww.do("PATCH", "/api/webhooks/"+hook, `{"url":"http://10.0.0.1/"}`, ww.a.keyAll), 422, "validation_failed", "/url")

	// The same webhook delivered by a dispatcher whose operator allows nothing.
	completeRun(t, ww, ww.a)
	strict := &webhook.Dispatcher{Store: d.Store, Sealer: d.Sealer, Now: clk.now}
	clk.set(time.Now().Add(time.Second))
	if n, err := strict.DeliverDue(context.Background(), 10); err != nil || n != 1 {
		t.Fatalf("%d attempts, %v", n, err)
	}
	if len(rc.requests()) != 0 {
		t.Fatal("a refused address received the message")
	}
	ds := deliveriesOf(t, ww, hook, ww.a.keyAll)
	if len(ds) != 1 || ds[0].Status != "pending" || len(ds[0].Attempts) != 1 || !strings.Contains(ds[0].Attempts[0].Error, "loopback") {
		t.Fatalf("deliveries %+v", ds)
	}
	// The allowing dispatcher delivers at the retry.
	clk.set(ds[0].NextAttemptAt.Add(time.Millisecond))
	if n, _ := d.DeliverDue(context.Background(), 10); n != 1 || len(rc.requests()) != 1 {
		t.Fatalf("retry: %d attempts, %d received", n, len(rc.requests()))
	}
}

// TestWebhookTenancy: another organization's key or session, and another
// project's key, neither see nor change a webhook or its deliveries, and
// an event of one project never reaches another project's webhook.
func TestWebhookTenancy(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	for _, c := range []cred{w.b.keyAll, w.b.session, a.keyOtherProject} {
		for _, req := range [][2]string{{"GET", "/api/webhooks/" + a.webhookID}, {"PATCH", "/api/webhooks/" + a.webhookID},
			{"DELETE", "/api/webhooks/" + a.webhookID}, {"POST", "/api/webhooks/" + a.webhookID + "/rotate-secret"},
			{"GET", "/api/webhooks/" + a.webhookID + "/deliveries"},
			{"POST", "/api/webhooks/" + a.webhookID + "/deliveries/" + a.deliveryID + "/redeliver"}} {
			body := ""
			if req[0] == "PATCH" {
				body = `{"events":[]}`
			}
			checkError(t, w.do(req[0], req[1], body, c), 404, "not_found", "")
		}
		if r := w.must(200, "GET", "/api/webhooks", "", c); strings.Contains(string(r.body), a.webhookID) {
			t.Fatalf("another tenant's list shows a's webhook: %s", r.body)
		}
	}
	before := len(deliveriesOf(t, w, a.webhookID, a.keyAll))
	completeRun(t, w, w.b)
	if n := len(deliveriesOf(t, w, a.webhookID, a.keyAll)); n != before {
		t.Fatalf("b's run queued a delivery to a's webhook (%d, was %d)", n, before)
	}
}
