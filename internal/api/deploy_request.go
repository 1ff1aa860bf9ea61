package api

import (
	"bufio"
	"errors"
	"io"
	"net/http"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// errDeployNeedsConnection answers a deploy request sent without a body or
// without a Content-Type (curl -X POST .../deploy): what is missing is the
// connection to deploy to, so the answer names connectionId rather than the
// Content-Type.
var errDeployNeedsConnection = edgeflow.Invalid("/connectionId",
	`connectionId is required: send the JSON body {"connectionId": "<connection id>"} with Content-Type: application/json`)

// deployBodyMissing reports whether r has no body or no Content-Type. A body
// of unknown length is peeked at, and r.Body still reads all of it.
func deployBodyMissing(r *http.Request) bool {
	if r.Header.Get("Content-Type") == "" {
		return true
	}
	switch {
	case r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0:
		return true
	case r.ContentLength > 0:
		return false
	}
	br := bufio.NewReader(r.Body)
	_, err := br.Peek(1)
	r.Body = struct {
		io.Reader
		io.Closer
	}{br, r.Body}
	return errors.Is(err, io.EOF)
}
