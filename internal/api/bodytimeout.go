package api

import (
	"errors"
	"io"
	"net/http"
	"os"
	"sync"
	"time"
)

// DefaultBodyReadTimeout is how long a request body may take to arrive,
// from the moment its handler starts (Config.BodyReadTimeout).
const DefaultBodyReadTimeout = 30 * time.Second

// codeRequestTimeout answers a body that did not arrive in time (408).
const codeRequestTimeout = "request_timeout"

// deadlineBody is a request body read under a connection read deadline
// that is lifted as soon as the body has been read (or failed), so that
// what the handler does afterwards (a long deploy, a stream) is not cut off
// by it. A slow-loris body, trickling or stalled, gets 408 and the
// connection is closed (docs/decisions.md 86).
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	once sync.Once
}

// limitBodyTime puts r's body under a read deadline of d (0 means
// DefaultBodyReadTimeout). Servers whose connections take no deadline
// (an http.ResponseWriter without one) are left as they are.
func limitBodyTime(w http.ResponseWriter, r *http.Request, d time.Duration) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	if d <= 0 {
		d = DefaultBodyReadTimeout
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(d)) != nil {
		return
	}
	r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		// Read in time. After a timeout the deadline stays, so that the
		// server does not wait for the rest of the body before closing.
		b.once.Do(func() { b.rc.SetReadDeadline(time.Time{}) })
	}
	return n, err
}

// bodyTimedOut reports whether a body read failed on its deadline.
func bodyTimedOut(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }
