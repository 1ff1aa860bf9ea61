package api

import (
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// codeMethodNotAllowed is the one code the API adds to the domain's: a known
// path asked with a method it does not serve.
const codeMethodNotAllowed = "method_not_allowed"

// codeUnavailable answers every request that needs the database while it
// cannot be reached, and /readyz while a dependency is down.
const codeUnavailable = edgeflow.EUnavailable

// unavailableRetryAfter is the Retry-After of every 503 unavailable, in
// seconds: about how long a database restart or failover takes.
const unavailableRetryAfter = 5

// statusByCode is the one table mapping error codes to HTTP statuses
// (docs/api.md, "Errors"). A code missing here is answered as 500 internal.
var statusByCode = map[string]int{
	edgeflow.EBadRequest:          http.StatusBadRequest,
	edgeflow.EInvalidIR:           http.StatusBadRequest,
	edgeflow.EInvalid:             http.StatusUnprocessableEntity,
	edgeflow.EUnauthorized:        http.StatusUnauthorized,
	edgeflow.EForbidden:           http.StatusForbidden,
	edgeflow.ENotFound:            http.StatusNotFound,
	codeMethodNotAllowed:          http.StatusMethodNotAllowed,
	edgeflow.EConflict:            http.StatusConflict,
	edgeflow.EDraining:            http.StatusConflict,
	edgeflow.EPayloadTooLarge:     http.StatusRequestEntityTooLarge,
	edgeflow.ERateLimited:         http.StatusTooManyRequests,
	edgeflow.EProviderUnavailable: http.StatusBadGateway,
	edgeflow.EProviderError:       http.StatusBadGateway,
	edgeflow.EDeployFailed:        http.StatusBadRequest,
	edgeflow.EInternal:            http.StatusInternalServerError,
	codeUnavailable:               http.StatusServiceUnavailable,
	codeRequestTimeout:            http.StatusRequestTimeout,
}

// HTTPStatus returns the status the API answers for an error code.
func HTTPStatus(code string) int {
	if s, ok := statusByCode[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// errorBody turns err into the client-facing body and status. Anything that
// is not an *edgeflow.Error with a known code becomes 500 internal with a
// fixed message: internal text never reaches a client.
func errorBody(err error, requestID string) (int, edgeflow.ErrorBody) {
	var e *edgeflow.Error
	if !errors.As(err, &e) || statusByCode[e.Code] == 0 || e.Code == edgeflow.EInternal {
		return http.StatusInternalServerError, edgeflow.ErrorBody{
			Error: "internal error", Code: edgeflow.EInternal, Details: []any{}, RequestID: requestID,
		}
	}
	details := e.Details
	if details == nil {
		details = []any{}
	}
	return statusByCode[e.Code], edgeflow.ErrorBody{Error: e.Message, Code: e.Code, Details: details, RequestID: requestID}
}

// writeError answers err as JSON and logs it: internal errors at error level
// with their cause, client errors at debug level.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	id := requestIDFrom(r)
	err = s.classify(err)
	status, body := errorBody(err, id)
	switch status {
	case http.StatusInternalServerError:
		s.Logger.ErrorContext(r.Context(), "request failed", "requestId", id, "method", r.Method,
			"path", r.URL.Path, "error", err.Error())
	case http.StatusServiceUnavailable:
		s.Logger.WarnContext(r.Context(), "request failed: unavailable", "requestId", id, "method", r.Method,
			"path", r.URL.Path, "error", err.Error())
		if w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", strconv.Itoa(unavailableRetryAfter))
		}
	default:
		s.Logger.DebugContext(r.Context(), "request refused", "requestId", id, "code", body.Code, "error", body.Error)
	}
	var e *edgeflow.Error
	if errors.As(err, &e) && e.RetryAfter > 0 && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.RetryAfter.Seconds()))))
	}
	if rw, ok := w.(*responseWriter); ok && rw.wroteHeader {
		return // a streaming response already started; the log line is all we can do
	}
	writeJSON(w, status, body)
}

// classify turns an unexpected error that the store recognizes as "the
// database cannot be reached" into unavailable (503 with Retry-After). It is
// the one place such errors are mapped, for every route and for the
// authentication in front of them.
func (s *Server) classify(err error) error {
	if edgeflow.ErrorCode(err) == edgeflow.EInternal && s.Store.Unreachable(err) {
		return edgeflow.Unavailable(err)
	}
	return err
}

// errBadRequest, errForbidden, ... build the common errors.
func errBadRequest(format string, args ...any) error {
	return edgeflow.Errorf(edgeflow.EBadRequest, format, args...)
}

func errForbidden(format string, args ...any) error {
	return edgeflow.Errorf(edgeflow.EForbidden, format, args...)
}

func errUnauthorized(format string, args ...any) error {
	return edgeflow.Errorf(edgeflow.EUnauthorized, format, args...)
}
