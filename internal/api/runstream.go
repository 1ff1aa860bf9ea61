package api

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The run stream (GET /api/runs/stream): every state change of the
// project's runs as Server-Sent Events. Changes reach every replica through
// the events table (Store.RecordEvent, written in the run's transaction):
// each process reads it in seq order every streamPoll while it has streams
// open, and hands each event to the streams of its project (decision 230).

const (
	// streamPoll is how often a process reads new events while streams are
	// open.
	streamPoll = 500 * time.Millisecond
	// defaultHeartbeat is how often an idle stream sends a comment line,
	// so that proxies keep it open.
	defaultHeartbeat = 15 * time.Second
	// streamBuffer is how many events a stream may fall behind before it
	// is closed (the client reconnects with Last-Event-ID and catches up).
	streamBuffer = 256
	// maxReplay is the most events a reconnecting stream is sent again.
	maxReplay = 5000
)

// runHub hands the events the store records to the open streams of this
// process.
type runHub struct {
	store edgeflow.Store
	log   func(msg string, args ...any)

	mu      sync.Mutex
	subs    map[*runSub]struct{}
	polling bool
	closed  bool
	stop    chan struct{} // closed by close: every stream ends
	last    int64         // the highest seq handed out
}

type runSub struct {
	projectID string
	ch        chan edgeflow.Event
	gone      chan struct{} // closed when the hub drops the stream
}

func newRunHub(store edgeflow.Store, log func(string, ...any)) *runHub {
	return &runHub{store: store, log: log, subs: map[*runSub]struct{}{}, stop: make(chan struct{})}
}

// subscribe registers a stream of projectID; the hub starts reading events
// (from the newest stored one) when it is the first.
func (h *runHub) subscribe(ctx context.Context, projectID string) (*runSub, error) {
	sub := &runSub{projectID: projectID, ch: make(chan edgeflow.Event, streamBuffer), gone: make(chan struct{})}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, edgeflow.Errorf(edgeflow.EUnavailable, "the server is shutting down")
	}
	if !h.polling {
		last, err := h.store.LastEventSeq(ctx)
		if err != nil {
			return nil, err
		}
		h.last = last
		h.polling = true
		go h.poll()
	}
	h.subs[sub] = struct{}{}
	return sub, nil
}

// position is the seq up to which events were handed out.
func (h *runHub) position() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.last
}

func (h *runHub) unsubscribe(sub *runSub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[sub]; ok {
		delete(h.subs, sub)
		close(sub.gone)
	}
}

// close ends every stream and refuses new ones (at shutdown).
func (h *runHub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.stop)
	}
}

// poll reads new events every streamPoll while streams are open.
func (h *runHub) poll() {
	t := time.NewTicker(streamPoll)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			h.mu.Lock()
			h.polling = false
			h.mu.Unlock()
			return
		case <-t.C:
		}
		h.mu.Lock()
		if len(h.subs) == 0 {
			h.polling = false
			h.mu.Unlock()
			return
		}
		after := h.last
		h.mu.Unlock()
		for {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			events, err := h.store.ListEventsAfter(ctx, after, 500)
			cancel()
			if err != nil {
				h.log("run stream: reading events", "error", err.Error())
				break
			}
			h.dispatch(events)
			if len(events) < 500 {
				break
			}
			after = events[len(events)-1].Seq
		}
	}
}

// dispatch hands events to the streams of their projects; a stream that
// fell streamBuffer events behind is dropped.
func (h *runHub) dispatch(events []edgeflow.Event) {
	if len(events) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range events {
		if e.Seq <= h.last {
			continue
		}
		h.last = e.Seq
		if !isRunEvent(e.Type) {
			continue
		}
		for sub := range h.subs {
			if sub.projectID != e.ProjectID {
				continue
			}
			select {
			case sub.ch <- e:
			default:
				delete(h.subs, sub)
				close(sub.gone)
			}
		}
	}
}

func isRunEvent(t string) bool { return len(t) > 4 && t[:4] == "run." }

// CloseStreams ends every open run stream and refuses new ones, and ends
// every MCP session (and so its stream); serve calls it when it shuts down
// (streams never end by themselves).
func (s *Server) CloseStreams() {
	s.hub.close()
	s.mcp.Close()
}

// handleRunStream streams the state changes of the active project's runs:
// "event: run" frames with {id, workflowId, projectId, status,
// statusDetail, error, updatedAt} and an opaque event id (runEventID), and a comment
// line every heartbeat. Last-Event-ID (or ?after=) replays the changes
// after that id still kept (an hour); ?timeoutSeconds= ends the stream
// after that many seconds.
func (s *Server) handleRunStream(w http.ResponseWriter, r *http.Request) error {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	after := int64(-1)
	if raw := cmp.Or(q.Get("after"), r.Header.Get("Last-Event-ID")); raw != "" {
		n, ok := s.runEventSeq(raw)
		if !ok {
			return edgeflow.Invalid("?after", "after (or the Last-Event-ID header) must be the id of an event this server sent, or 0 for every change still kept")
		}
		after = n
	}
	var timeout time.Duration
	if raw := q.Get("timeoutSeconds"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 86400 {
			return edgeflow.Invalid("?timeoutSeconds", "timeoutSeconds must be an integer from 1 to 86400")
		}
		timeout = time.Duration(n) * time.Second
	}
	ctx := r.Context()
	sub, err := s.hub.subscribe(ctx, projectID)
	if err != nil {
		return err
	}
	defer s.hub.unsubscribe(sub)
	var end <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		end = t.C
	}
	sse := newSSEWriter(w)
	sent := int64(0)
	send := func(e edgeflow.Event) {
		if e.Seq <= sent {
			return
		}
		sent = e.Seq
		fmt.Fprintf(sse.w, "event: run\nid: %s\ndata: %s\n\n", s.runEventID(e.Seq), compactJSON(e.Data))
		sse.rc.Flush()
	}
	fmt.Fprint(sse.w, ": connected\n\n")
	sse.rc.Flush()
	if after >= 0 {
		// Replay what was recorded after the client's last event, up to the
		// hub's position; later events come from the hub.
		upTo := s.hub.position()
		for n := 0; after < upTo && n < maxReplay; {
			events, err := s.Store.ListEventsAfter(ctx, after, 500)
			if err != nil || len(events) == 0 {
				break
			}
			for _, e := range events {
				if e.Seq > upTo {
					break
				}
				if e.ProjectID == projectID && isRunEvent(e.Type) {
					send(e)
					n++
				}
			}
			after = events[len(events)-1].Seq
		}
	}
	heartbeat := s.StreamHeartbeat
	if heartbeat <= 0 {
		heartbeat = defaultHeartbeat
	}
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	lifetime := streamOf(r).end // streamlimit.go
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-s.hub.stop:
			return nil
		case <-sub.gone:
			return nil
		case <-end:
			return nil
		case <-lifetime:
			fmt.Fprint(sse.w, streamEndComment)
			sse.rc.Flush()
			return nil
		case e := <-sub.ch:
			send(e)
		case <-beat.C:
			fmt.Fprint(sse.w, ": heartbeat\n\n")
			sse.rc.Flush()
		}
	}
}

// runEventIDScope is the purpose of the run stream's event ids (SealID).
const runEventIDScope = "run stream event"

// runEventID is the SSE id of the event with seq: the position in the
// events table, which every organization's changes advance, sealed into an
// opaque token (decision 346), so that the ids a stream shows tell nothing
// of other tenants' activity. Every replica sharing the secret key reads it
// back (runEventSeq), which is what Last-Event-ID needs.
func (s *Server) runEventID(seq int64) string {
	return s.Sealer.SealID(runEventIDScope, uint64(seq))
}

// runEventSeq reads an event id a client sends back (Last-Event-ID,
// ?after=): a token of runEventID, or "0" for every change still kept.
func (s *Server) runEventSeq(id string) (int64, bool) {
	if id == "0" {
		return 0, true
	}
	n, err := s.Sealer.OpenID(runEventIDScope, id)
	if err != nil || n > math.MaxInt64 {
		return 0, false
	}
	return int64(n), true
}

// compactJSON is the event data on one line (an SSE data line ends at a
// newline).
func compactJSON(raw json.RawMessage) []byte {
	var b []byte
	if buf, err := json.Marshal(raw); err == nil {
		b = buf
	}
	return b
}
