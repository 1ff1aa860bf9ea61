package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// DefaultAuditRetention is how long audit entries are kept unless
// configured (--audit-retention).
const DefaultAuditRetention = 365 * 24 * time.Hour

// auditInfo is what a request learns about itself for its audit entry while
// it is handled: who made it, in which tenant, and the record it acted on.
// Authentication fills the actor and tenant; handlers may name the target
// (setAuditTarget) or, for a public route, the actor (setAuditActor).
type auditInfo struct {
	actor          edgeflow.AuditActor
	organizationID string
	projectID      string
	targetID       string
	// deferred: the request started work that records the entry itself
	// when it ends (a bulk job on runs), so the request records none.
	deferred bool
	// details is the entry's Details (nil: none).
	details json.RawMessage
}

type ctxAuditKey struct{}

func auditInfoFrom(r *http.Request) *auditInfo {
	a, _ := r.Context().Value(ctxAuditKey{}).(*auditInfo)
	return a
}

// setAuditTarget names the record the request acts on, when its path does
// not.
func setAuditTarget(r *http.Request, id string) {
	if a := auditInfoFrom(r); a != nil {
		a.targetID = id
	}
}

// setAuditDetails gives the request's entry its details (v as JSON).
func setAuditDetails(r *http.Request, v any) {
	if a := auditInfoFrom(r); a != nil {
		if b, err := json.Marshal(v); err == nil {
			a.details = b
		}
	}
}

// deferAudit leaves the request's entry to the work it started, which
// records it when it ends (with what it did).
func deferAudit(r *http.Request) {
	if a := auditInfoFrom(r); a != nil {
		a.deferred = true
	}
}

// setAuditActor names the user a public route acted for (sign-up, sign-in)
// and the tenant they act in.
func setAuditActor(r *http.Request, userID, orgID, projectID string) {
	if a := auditInfoFrom(r); a != nil && a.actor.ID == "" {
		a.actor = edgeflow.AuditActor{Type: "user", ID: userID}
		a.organizationID, a.projectID = orgID, projectID
	}
}

// setAuditTenant names the tenant a public route acted in for an anonymous
// caller (a signed trigger).
func setAuditTenant(r *http.Request, orgID, projectID string) {
	if a := auditInfoFrom(r); a != nil && a.organizationID == "" {
		a.organizationID, a.projectID = orgID, projectID
	}
}

// setAuditPrincipal records the authenticated caller.
func setAuditPrincipal(r *http.Request, p *Principal) {
	a := auditInfoFrom(r)
	if a == nil {
		return
	}
	if p.APIKey != nil {
		a.actor = edgeflow.AuditActor{Type: "key", ID: p.APIKey.ID}
	} else {
		a.actor = edgeflow.AuditActor{Type: "user", ID: p.UserID}
	}
	a.organizationID, a.projectID = p.OrganizationID, p.ProjectID
}

// auditEntry builds the entry of a finished request of rt.
func (s *Server) auditEntry(r *http.Request, rt *Route, a *auditInfo, rw *responseWriter) edgeflow.AuditEntry {
	if p := PrincipalFrom(r); p != nil && a.actor.ID == "" {
		setAuditPrincipal(r, p)
	}
	typ, _, _ := strings.Cut(rt.Audit, ".")
	target := a.targetID
	if target == "" && rt.AuditTarget != "" {
		target = r.PathValue(rt.AuditTarget)
	}
	if target == "" && rw.capture != nil {
		target = topLevelID(rw.capture.Bytes())
	}
	if rw.status == http.StatusNotFound {
		// No record of the organization has the id (it may be another
		// tenant's): the entry names none. The access log line with the
		// same request id has the path.
		target = ""
	}
	if len(target) > 200 { // a path parameter is the client's text: keep entries small
		target = target[:200]
	}
	return edgeflow.AuditEntry{
		OrganizationID: a.organizationID, ProjectID: a.projectID, Actor: a.actor, Action: rt.Audit,
		Target: edgeflow.AuditTarget{Type: typ, ID: target}, Outcome: rw.status, RequestID: requestIDFrom(r),
		Time: s.now(), Details: a.details,
	}
}

// capturesID reports whether the answer of rt is read for the id of the
// record it created (the target of a create).
func (rt *Route) capturesID() bool {
	return rt.Audit != "" && rt.AuditTarget == "" && (rt.Status == http.StatusCreated || rt.Status == http.StatusOK)
}

// maxCapture is how much of an answer is kept to find its "id".
const maxCapture = 4096

// topLevelID returns the string "id" of the JSON object b begins, or "".
// b may be cut short after the id.
func topLevelID(b []byte) string {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		key, ok := t.(string)
		if !ok {
			return ""
		}
		if key == "id" {
			var id string
			if dec.Decode(&id) != nil {
				return ""
			}
			return id
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
}

// auditWriter writes audit entries in batches on a goroutine of its own, so
// that a request waits for no database write of its entry (decision 193).
// When the database falls behind, the queue fills and requests wait for
// room: entries are never dropped while the process runs.
type auditWriter struct {
	store  edgeflow.Store
	log    func(msg string, args ...any)
	queue  chan edgeflow.AuditEntry
	flush  chan chan struct{}
	stop   chan struct{}
	done   chan struct{}
	closed sync.Once
}

const (
	auditQueue = 4096
	auditBatch = 256
)

func newAuditWriter(store edgeflow.Store, log func(string, ...any)) *auditWriter {
	w := &auditWriter{store: store, log: log, queue: make(chan edgeflow.AuditEntry, auditQueue),
		flush: make(chan chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *auditWriter) add(e edgeflow.AuditEntry) {
	select {
	case <-w.done: // closed: nobody reads the queue any more
		w.write([]edgeflow.AuditEntry{e})
		return
	default:
	}
	select {
	case w.queue <- e:
	case <-w.done: // closed: write it alone
		w.write([]edgeflow.AuditEntry{e})
	}
}

func (w *auditWriter) run() {
	defer close(w.done)
	batch := make([]edgeflow.AuditEntry, 0, auditBatch)
	drain := func() {
		for {
			select {
			case e := <-w.queue:
				batch = append(batch, e)
				if len(batch) == auditBatch {
					w.write(batch)
					batch = batch[:0]
				}
			default:
				if len(batch) > 0 {
					w.write(batch)
					batch = batch[:0]
				}
				return
			}
		}
	}
	for {
		select {
		case e := <-w.queue:
			batch = append(batch, e)
			drain()
		case ack := <-w.flush:
			drain()
			close(ack)
		case <-w.stop:
			drain()
			return
		}
	}
}

// write stores a batch, retrying a failing database a few times; entries
// that still cannot be stored are logged (without anything secret: entries
// hold none) so that they are not lost.
func (w *auditWriter) write(batch []edgeflow.AuditEntry) {
	var err error
	for attempt := range 4 {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt*attempt) * 100 * time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = w.store.RecordAudit(ctx, batch)
		cancel()
		if err == nil {
			return
		}
	}
	for _, e := range batch {
		w.log("audit entry not stored", "error", err.Error(), "action", e.Action, "outcome", e.Outcome,
			"organizationId", e.OrganizationID, "actorType", e.Actor.Type, "actorId", e.Actor.ID,
			"targetId", e.Target.ID, "requestId", e.RequestID, "time", e.Time)
	}
}

// Flush waits until every entry queued before it is stored.
func (w *auditWriter) Flush(ctx context.Context) error {
	ack := make(chan struct{})
	select {
	case w.flush <- ack:
	case <-w.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-ack:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stores what is queued and stops the writer.
func (w *auditWriter) Close() {
	w.closed.Do(func() { close(w.stop) })
	<-w.done
}

// FlushAudit waits until the audit entries of the requests answered so far
// are stored.
func (s *Server) FlushAudit(ctx context.Context) error { return s.audit.Flush(ctx) }

// Close stores the queued audit entries and stops the audit writer; serve
// calls it after the HTTP server has shut down.
func (s *Server) Close() {
	s.hub.close()
	s.mcp.Close()
	s.audit.Close()
}

// PurgeAudit deletes the audit entries older than the retention period
// (AuditRetention); serve runs it periodically.
func (s *Server) PurgeAudit(ctx context.Context) (int, error) {
	return s.Store.PurgeAudit(ctx, s.now().Add(-s.AuditRetention))
}

// auditView is an entry as GET /api/audit shows it.
type auditView = edgeflow.AuditEntry

// handleAuditList lists the organization's audit entries, newest first,
// to its owners and admins; a project's API key gets only that project's
// entries and those about the project itself.
func (s *Server) handleAuditList(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	orgID, err := p.Organization()
	if err != nil {
		return err
	}
	ctx := r.Context()
	m, err := s.Store.FindMembership(ctx, orgID, p.UserID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return errForbidden("the audit log is open to the organization's owners and admins only")
		}
		return err
	}
	if m.Role != edgeflow.RoleOwner && m.Role != edgeflow.RoleAdmin {
		return errForbidden("the audit log is open to the organization's owners and admins only; your role is %s", m.Role)
	}
	q := r.URL.Query()
	var f edgeflow.AuditFilter
	var pr problems
	for _, name := range []string{"actor", "action", "target", "since", "until"} {
		if len(q[name]) > 1 {
			pr.add("?"+name, name+" may be given once")
		}
	}
	f.ActorID, f.Action, f.TargetID = q.Get("actor"), q.Get("action"), q.Get("target")
	for _, v := range []struct{ name, val string }{{"actor", f.ActorID}, {"action", f.Action}, {"target", f.TargetID}} {
		pr.check(len(v.val) <= 200, "?"+v.name, v.name+" must be at most 200 characters")
	}
	parseTime := func(name string, dst *time.Time) {
		v := q.Get(name)
		if v == "" {
			return
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			pr.add("?"+name, name+" must be an RFC 3339 time such as 2026-01-02T15:04:05Z")
			return
		}
		*dst = t
	}
	parseTime("since", &f.Since)
	parseTime("until", &f.Until)
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Until.After(f.Since) {
		pr.add("?until", "until must be later than since")
	}
	if err := pr.err(); err != nil {
		return err
	}
	if !p.OrganizationWide() {
		// A project's key reads its project's entries only (and those
		// about the project itself), never other projects' activity.
		f.ProjectID = p.ProjectID
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	if err := s.audit.Flush(ctx); err != nil {
		return err
	}
	page, err := s.Store.ListAudit(ctx, orgID, f, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(e edgeflow.AuditEntry) auditView { return e }))
	return nil
}
