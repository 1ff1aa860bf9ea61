package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/tracing"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Defaults of the Dispatcher.
const (
	// DefaultTimeout bounds one attempt: connecting, sending and reading
	// the answer.
	DefaultTimeout = 10 * time.Second
	// MaxResponseBody is the most of an answer's body read; the first
	// KiB of it is kept with the attempt.
	MaxResponseBody  = 64 << 10
	keptResponseBody = 1 << 10
	// ClaimFor is how long a dispatcher holds the deliveries it took:
	// longer than a round of attempts.
	ClaimFor = time.Minute
)

// Dispatcher delivers the pending webhook deliveries of the database. serve
// runs one per process (Run); replicas on one database share the work, each
// delivery being claimed by one dispatcher at a time.
type Dispatcher struct {
	Store  edgeflow.Store
	Sealer *secret.Sealer
	// Guard refuses connections to addresses the operator did not allow;
	// nil refuses every non-public address.
	Guard *netguard.Guard
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Timeout bounds one attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// Concurrency is how many deliveries are attempted at once; 0 means 8.
	Concurrency int
	Logger      *slog.Logger
	// Tracing gives each attempt a span and its request a traceparent
	// (internal/tracing); nil is off.
	Tracing *tracing.Tracing

	once   sync.Once
	client *http.Client
}

func (d *Dispatcher) init() {
	d.once.Do(func() {
		if d.Now == nil {
			d.Now = time.Now
		}
		if d.Timeout <= 0 {
			d.Timeout = DefaultTimeout
		}
		if d.Concurrency <= 0 {
			d.Concurrency = 8
		}
		if d.Logger == nil {
			d.Logger = slog.New(slog.DiscardHandler)
		}
		c := d.Guard.Client(d.Timeout)
		// A redirect is an answer like any other that is not 2xx: following
		// it would send the signed message somewhere the user did not name.
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		d.client = c
	})
}

// Run delivers due deliveries every interval (0 means 1 s) until ctx ends.
func (d *Dispatcher) Run(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		interval = time.Second
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for {
			n, err := d.DeliverDue(ctx, 50)
			if err != nil && ctx.Err() == nil {
				d.Logger.Error("webhook deliveries", "error", err.Error())
			}
			if n < 50 || ctx.Err() != nil {
				break
			}
		}
	}
}

// DeliverDue claims up to batch deliveries due now, makes one attempt of
// each, records the outcomes and returns how many it attempted.
func (d *Dispatcher) DeliverDue(ctx context.Context, batch int) (int, error) {
	d.init()
	now := d.Now().UTC()
	due, err := d.Store.ClaimWebhookDeliveries(ctx, now, now.Add(ClaimFor), batch)
	if err != nil {
		return 0, err
	}
	sem := make(chan struct{}, d.Concurrency)
	var wg sync.WaitGroup
	for i := range due {
		wg.Add(1)
		sem <- struct{}{}
		go func(dl *edgeflow.WebhookDelivery) {
			defer wg.Done()
			defer func() { <-sem }()
			d.attempt(ctx, dl)
		}(&due[i])
	}
	wg.Wait()
	return len(due), nil
}

// attempt sends dl once and records the outcome.
func (d *Dispatcher) attempt(ctx context.Context, dl *edgeflow.WebhookDelivery) {
	scheduled := d.Now().UTC()
	if dl.NextAttemptAt != nil {
		scheduled = *dl.NextAttemptAt
	}
	ctx, span := d.Tracing.Tracer().Start(ctx, "webhook delivery "+dl.EventType, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(
			attribute.String("edgeflow.webhook.id", dl.WebhookID),
			attribute.String("edgeflow.delivery.id", dl.ID),
			attribute.String("edgeflow.project.id", dl.ProjectID),
			attribute.String("edgeflow.event.type", dl.EventType),
			attribute.Int("edgeflow.delivery.attempt", len(dl.Attempts)+1),
		))
	a := d.send(ctx, dl)
	if a.ResponseStatus != 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", a.ResponseStatus))
	}
	if a.Error != "" {
		span.SetStatus(codes.Error, a.Error)
	}
	span.End()
	dl.Attempts = append(dl.Attempts, a)
	dl.ResponseStatus = a.ResponseStatus
	switch {
	case a.ResponseStatus >= 200 && a.ResponseStatus < 300:
		dl.Status, dl.NextAttemptAt = edgeflow.DeliveryDelivered, nil
	default:
		// A delivery is first due when it is created.
		if next, ok := NextAttempt(dl.CreatedAt, scheduled, len(dl.Attempts)); ok {
			dl.NextAttemptAt = &next
		} else {
			dl.Status, dl.NextAttemptAt = edgeflow.DeliveryFailed, nil
		}
	}
	if err := d.Store.FinishWebhookAttempt(context.WithoutCancel(ctx), dl); err != nil {
		var e *edgeflow.Error
		if errors.As(err, &e) && e.Code == edgeflow.ENotFound {
			return // the webhook was deleted meanwhile
		}
		d.Logger.Error("webhook attempt not recorded", "delivery", dl.ID, "error", err.Error())
	}
}

// send makes the HTTP request of one attempt.
func (d *Dispatcher) send(ctx context.Context, dl *edgeflow.WebhookDelivery) edgeflow.DeliveryAttempt {
	start := d.Now().UTC()
	a := edgeflow.DeliveryAttempt{At: start}
	fail := func(msg string) edgeflow.DeliveryAttempt {
		a.Error = msg
		a.DurationMs = d.Now().Sub(start).Milliseconds()
		return a
	}
	w, err := d.Store.FindWebhookByID(ctx, dl.ProjectID, dl.WebhookID)
	if err != nil {
		return fail("the webhook could not be read")
	}
	sec, err := d.Sealer.OpenString(w.SealedSecret, secret.WebhookSecretAD(w.OrganizationID, w.ID))
	if err != nil {
		return fail("the webhook's secret could not be opened")
	}
	sig, err := Sign(sec, dl.MessageID, start, dl.Payload)
	if err != nil {
		return fail("the webhook's secret is malformed")
	}
	rctx, cancel := context.WithTimeout(ctx, d.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, w.URL, bytes.NewReader(dl.Payload))
	if err != nil {
		return fail("the webhook's url is not usable")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "edgeflow-webhooks")
	req.Header.Set("webhook-id", dl.MessageID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(start.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	tracing.Inject(ctx, req.Header)
	res, err := d.client.Do(req)
	if err != nil {
		var refused *netguard.RefusedError
		if errors.As(err, &refused) {
			return fail(refusedMessage(refused))
		}
		if rctx.Err() != nil {
			return fail(fmt.Sprintf("no answer within %s", d.Timeout))
		}
		return fail("the request failed: " + transportReason(err))
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, MaxResponseBody))
	a.ResponseStatus = res.StatusCode
	a.ResponseBody = keptText(body)
	a.DurationMs = d.Now().Sub(start).Milliseconds()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		a.Error = "the endpoint answered " + strconv.Itoa(res.StatusCode)
	}
	return a
}

// transportReason is the part of a transport error a user can act on,
// without the request's URL (it is shown beside the attempt anyway).
func transportReason(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			return inner.Error()
		}
	}
	return err.Error()
}

// keptText is the start of an answer's body kept with the attempt: at most
// keptResponseBody bytes, cut at a character boundary, "" when it is not
// text.
func keptText(b []byte) string {
	if len(b) > keptResponseBody {
		b = b[:keptResponseBody]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	if !utf8.Valid(b) {
		return ""
	}
	return string(b)
}
