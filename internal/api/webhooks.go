package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/webhook"
)

// Outbound webhooks of the active project (docs/runs.md, "Webhooks"): the
// endpoints, their secrets, and their deliveries. internal/webhook signs and
// delivers.

type webhookCreateRequest struct {
	// URL is the endpoint; its host may not be (or resolve to) a loopback,
	// link-local or private address unless serve --allow-hosts allows it.
	URL string `json:"url"`
	// Events are the subscribed event types; omitted or empty: all.
	Events []string `json:"events"`
}

type webhookUpdateRequest struct {
	URL    *string   `json:"url"`
	Events *[]string `json:"events"`
}

// webhookWithSecret is a webhook with its signing secret, answered once:
// at creation and when the secret is rotated.
type webhookWithSecret struct {
	edgeflow.Webhook
	Secret string `json:"secret"`
}

// checkWebhookEvents records a problem for every unknown or repeated type.
func checkWebhookEvents(p *problems, events []string) {
	if len(events) > len(edgeflow.WebhookEventTypes) {
		p.add("/events", "events lists more types than there are")
		return
	}
	for i, e := range events {
		switch {
		case !edgeflow.IsWebhookEventType(e):
			p.add("/events/"+strconv.Itoa(i), "unknown event type "+strconv.Quote(e)+"; one of "+strings.Join(edgeflow.WebhookEventTypes, ", "))
		case slices.Index(events, e) != i:
			p.add("/events/"+strconv.Itoa(i), "event type "+strconv.Quote(e)+" is listed twice")
		}
	}
}

// checkWebhookURL records a problem when the URL is malformed or its host
// is not allowed.
func (s *Server) checkWebhookURL(r *http.Request, p *problems, url string) {
	if strings.TrimSpace(url) == "" {
		p.add("/url", "url is required")
		return
	}
	if msg := webhook.CheckURL(r.Context(), url, netguard.New(s.AllowHosts), s.Resolver); msg != "" {
		p.add("/url", msg)
	}
}

// handleWebhookList lists the active project's webhooks, newest first.
func (s *Server) handleWebhookList(w http.ResponseWriter, r *http.Request) error {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListWebhooks(r.Context(), projectID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(h edgeflow.Webhook) edgeflow.Webhook { return h }))
	return nil
}

// handleWebhookCreate creates a webhook with a new secret, answered this
// once.
func (s *Server) handleWebhookCreate(w http.ResponseWriter, r *http.Request) error {
	var req webhookCreateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	checkWebhookEvents(&p, req.Events)
	s.checkWebhookURL(r, &p, req.URL)
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	projectID, err := pr.Project()
	if err != nil {
		return err
	}
	h := &edgeflow.Webhook{ID: edgeflow.NewID(edgeflow.PrefixWebhook), OrganizationID: pr.OrganizationID,
		ProjectID: projectID, URL: req.URL, Events: req.Events}
	if h.Events == nil {
		h.Events = []string{}
	}
	sec := webhook.NewSecret()
	h.SealedSecret = s.Sealer.SealString(sec, secret.WebhookSecretAD(h.OrganizationID, h.ID))
	if err := s.Store.CreateWebhook(r.Context(), h); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, webhookWithSecret{Webhook: *h, Secret: sec})
	return nil
}

// findWebhook returns the active project's webhook of the path's {id}.
func (s *Server) findWebhook(r *http.Request) (*edgeflow.Webhook, error) {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return nil, err
	}
	return s.Store.FindWebhookByID(r.Context(), projectID, r.PathValue("id"))
}

// handleWebhookGet answers one webhook (never its secret).
func (s *Server) handleWebhookGet(w http.ResponseWriter, r *http.Request) error {
	h, err := s.findWebhook(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, h)
	return nil
}

// handleWebhookUpdate changes a webhook's URL or events.
func (s *Server) handleWebhookUpdate(w http.ResponseWriter, r *http.Request) error {
	var req webhookUpdateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	h, err := s.findWebhook(r)
	if err != nil {
		return err
	}
	var p problems
	p.check(req.URL != nil || req.Events != nil, "/", "give url or events")
	if req.Events != nil {
		checkWebhookEvents(&p, *req.Events)
	}
	if req.URL != nil {
		s.checkWebhookURL(r, &p, *req.URL)
	}
	if err := p.err(); err != nil {
		return err
	}
	if req.URL != nil {
		h.URL = *req.URL
	}
	if req.Events != nil {
		h.Events = *req.Events
	}
	if err := s.Store.UpdateWebhook(r.Context(), h); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, h)
	return nil
}

// handleWebhookDelete deletes a webhook and its deliveries.
func (s *Server) handleWebhookDelete(w http.ResponseWriter, r *http.Request) error {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	if err := s.Store.DeleteWebhook(r.Context(), projectID, r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleWebhookRotateSecret replaces a webhook's secret; the new one is
// answered this once and signs every attempt from now on.
func (s *Server) handleWebhookRotateSecret(w http.ResponseWriter, r *http.Request) error {
	h, err := s.findWebhook(r)
	if err != nil {
		return err
	}
	sec := webhook.NewSecret()
	h.SealedSecret = s.Sealer.SealString(sec, secret.WebhookSecretAD(h.OrganizationID, h.ID))
	if err := s.Store.UpdateWebhook(r.Context(), h); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, webhookWithSecret{Webhook: *h, Secret: sec})
	return nil
}

// handleWebhookDeliveries lists a webhook's deliveries, newest first, each
// with its attempts.
func (s *Server) handleWebhookDeliveries(w http.ResponseWriter, r *http.Request) error {
	h, err := s.findWebhook(r)
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListWebhookDeliveries(r.Context(), h.ID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(d edgeflow.WebhookDelivery) edgeflow.WebhookDelivery { return d }))
	return nil
}

// handleWebhookRedeliver queues the message of a delivery again, as a new
// delivery due now (202).
func (s *Server) handleWebhookRedeliver(w http.ResponseWriter, r *http.Request) error {
	h, err := s.findWebhook(r)
	if err != nil {
		return err
	}
	d, err := s.Store.RedeliverWebhookDelivery(r.Context(), h.ID, r.PathValue("deliveryId"), s.now())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, d)
	return nil
}
