package api

import "net/mail"

// ValidEmail reports whether email is a plain email address (user@domain,
// no display name or angle brackets) of at most 254 bytes: what sign-up
// and `edgeflow admin bootstrap` accept.
func ValidEmail(email string) bool {
	a, err := mail.ParseAddress(email)
	return err == nil && a.Address == email && len(email) <= 254
}
