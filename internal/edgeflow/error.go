// Package edgeflow is the domain of the service: its entities, the store
// interface every storage adapter implements, and the one Error type with its
// codes. It depends on the standard library only; every other package depends
// inward on it.
package edgeflow

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. internal/api maps each to exactly one HTTP status.
const (
	EBadRequest          = "bad_request"          // malformed JSON, wrong content type (400)
	EInvalidIR           = "invalid_ir"           // IR validation failed (400), Details are ir problems
	EInvalid             = "validation_failed"    // request field validation (422), Details are []FieldError
	EUnauthorized        = "unauthorized"         // no, invalid or expired credentials (401)
	EForbidden           = "forbidden"            // missing scope, session-only endpoint (403)
	ENotFound            = "not_found"            // unknown or other tenant's resource (404)
	EConflict            = "conflict"             // duplicate, locked, active, deployed, installed (409)
	EDraining            = "draining"             // a deploy with inFlight "drain" holds new triggers (409)
	EPayloadTooLarge     = "payload_too_large"    // body over a limit (413)
	ERateLimited         = "rate_limited"         // rate limit exceeded (429)
	EProviderUnavailable = "provider_unavailable" // the edge provider could not be reached (502)
	EProviderError       = "provider_error"       // the edge provider refused the request (502)
	EDeployFailed        = "deploy_failed"        // a deploy stage failed for a reason of the request (400)
	EInternal            = "internal"             // anything unexpected (500); its text never reaches a client
	EUnavailable         = "unavailable"          // the database (or another dependency) cannot be reached (503)
)

// Error is the one error type of the domain. Message is safe to show to the
// client; Details carries structured problems (field errors, IR problems,
// missing variables).
type Error struct {
	Code    string
	Message string
	Details any
	// Err is the underlying cause, kept for logs; it is never shown to clients.
	Err error
	// RetryAfter, when positive, is answered as the Retry-After header
	// (whole seconds, rounded up).
	RetryAfter time.Duration
}

// FieldError names one bad field of a request by its JSON path (e.g. "/name").
type FieldError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NotFound is the error every Find* method returns for an unknown record (and
// for another tenant's record: existence is never revealed across tenants).
func NotFound(what string) *Error {
	return &Error{Code: ENotFound, Message: what + " not found"}
}

// Invalid builds a validation_failed error for one field.
func Invalid(path, message string) *Error {
	return &Error{Code: EInvalid, Message: message, Details: []FieldError{{Path: path, Message: message}}}
}

// ErrorCode returns the code of the first *Error in err's chain, EInternal for
// any other non-nil error and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// Unavailable wraps cause, an error meaning that the database cannot be
// reached, as EUnavailable: the client may retry later.
func Unavailable(cause error) *Error {
	return &Error{Code: EUnavailable, Message: "the database is unavailable; retry later", Err: cause}
}

// FaultClassifier is implemented by stores that can tell, from one of their
// errors, that the database itself cannot be reached (connection refused or
// lost, pool closed, server shutting down, connect timeout) rather than
// refusing one request. The API answers such errors 503 unavailable.
type FaultClassifier interface {
	Unreachable(err error) bool
}

// IsNotFound reports whether err carries ENotFound.
func IsNotFound(err error) bool { return ErrorCode(err) == ENotFound }

// IsConflict reports whether err carries EConflict.
func IsConflict(err error) bool { return ErrorCode(err) == EConflict }
