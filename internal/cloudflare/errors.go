package cloudflare

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ErrorDetail is one entry of the errors array of Cloudflare's response envelope.
type ErrorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// APIError is an answer of the API that is not a success: an HTTP status of 400 or more, or an envelope with
// "success": false. Status is the HTTP status; Errors are Cloudflare's error codes and messages, empty when the
// body was not a JSON envelope (a proxy's HTML error page, say).
type APIError struct {
	// Op is the request, e.g. "PUT accounts/{id}/workers/scripts/name"; it never holds credentials.
	Op     string
	Status int
	Errors []ErrorDetail

	retryAfter time.Duration
	hasRetry   bool
}

// RetryAfter is the wait the answer's Retry-After header asked for, and whether it had one.
func (e *APIError) RetryAfter() (time.Duration, bool) { return e.retryAfter, e.hasRetry }

// Error reports the operation, the HTTP status and every Cloudflare error code and message.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cloudflare: %s: %d %s", e.Op, e.Status, http.StatusText(e.Status))
	for i, d := range e.Errors {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d %s", d.Code, d.Message)
	}
	return b.String()
}

// Message is the first Cloudflare error message, or the HTTP status text when there is none; it is meant for
// users ("the provider's reason").
func (e *APIError) Message() string {
	for _, d := range e.Errors {
		if d.Message != "" {
			return d.Message
		}
	}
	if t := http.StatusText(e.Status); t != "" {
		return t
	}
	return fmt.Sprintf("HTTP status %d", e.Status)
}

// HasCode reports whether Cloudflare returned the given error code.
func (e *APIError) HasCode(code int) bool {
	for _, d := range e.Errors {
		if d.Code == code {
			return true
		}
	}
	return false
}

// UnreachableError means no HTTP answer arrived: the connection failed or an attempt timed out (after the
// retries allowed for the call).
type UnreachableError struct {
	Op      string
	Timeout bool
	Err     error
}

// Error names the operation and the cause without the request URL's host credentials.
func (e *UnreachableError) Error() string {
	if e.Timeout {
		return fmt.Sprintf("cloudflare: %s: no answer within the timeout", e.Op)
	}
	return fmt.Sprintf("cloudflare: %s: unreachable: %v", e.Op, e.Err)
}

// Unwrap returns the transport error.
func (e *UnreachableError) Unwrap() error { return e.Err }

// ArgumentError is a bad argument detected before any request is sent.
type ArgumentError struct {
	// Field names the bad argument, e.g. "script.mainModule" or "limit".
	Field   string
	Message string
}

// Error names the field and what is wrong with it.
func (e *ArgumentError) Error() string {
	return fmt.Sprintf("cloudflare: invalid %s: %s", e.Field, e.Message)
}

// NotFoundError is a lookup that found nothing although the API answered successfully (FindZone).
type NotFoundError struct {
	What string
}

// Error says what was not found.
func (e *NotFoundError) Error() string { return "cloudflare: not found: " + e.What }

// MalformedResponseError is a successful HTTP status whose body is not what the API promises.
type MalformedResponseError struct {
	Op     string
	Status int
	Reason string
}

// Error names the operation and the reason.
func (e *MalformedResponseError) Error() string {
	return fmt.Sprintf("cloudflare: %s: malformed response (HTTP %d): %s", e.Op, e.Status, e.Reason)
}

// TooLargeError is an object larger than a client reads whole (GetR2Object).
type TooLargeError struct {
	Op    string
	Limit int64
}

// Error names the operation and the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("cloudflare: %s: the object is larger than %d bytes", e.Op, e.Limit)
}

func argErr(field, format string, args ...any) error {
	return &ArgumentError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// IsNotFound reports whether err is an API answer 404 or a lookup that found nothing.
func IsNotFound(err error) bool {
	if ae, ok := errors.AsType[*APIError](err); ok {
		return ae.Status == http.StatusNotFound
	}
	_, ok := errors.AsType[*NotFoundError](err)
	return ok
}

// IsUnauthorized reports whether the credentials were refused: HTTP 401 or 403, or Cloudflare's authentication
// codes (1000 invalid token, 9106, 9109, 10000).
func IsUnauthorized(err error) bool {
	ae, ok := errors.AsType[*APIError](err)
	if !ok {
		return false
	}
	return ae.Status == http.StatusUnauthorized || ae.Status == http.StatusForbidden ||
		ae.HasCode(1000) || ae.HasCode(9106) || ae.HasCode(9109) || ae.HasCode(10000)
}

// IsConflict reports whether the API answered 409 (an instance id in use, an illegal status change, …).
func IsConflict(err error) bool {
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.Status == http.StatusConflict
}

// IsRateLimited reports whether the API answered 429.
func IsRateLimited(err error) bool {
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.Status == http.StatusTooManyRequests
}

// IsUnreachable reports whether no answer arrived (connection failure or timeout).
func IsUnreachable(err error) bool {
	_, ok := errors.AsType[*UnreachableError](err)
	return ok
}

// IsInvalidArgument reports whether the request was refused as invalid: an ArgumentError found before sending,
// or an API answer 400 (a script that does not start, a bad binding, a bad SQL statement, …).
func IsInvalidArgument(err error) bool {
	if _, ok := errors.AsType[*ArgumentError](err); ok {
		return true
	}
	ae, ok := errors.AsType[*APIError](err)
	return ok && ae.Status == http.StatusBadRequest
}
