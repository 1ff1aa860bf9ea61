package api

import (
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// maxUserAgent is how much of the sign-in request's User-Agent a session
// records.
const maxUserAgent = 256

// userAgentOf returns r's User-Agent cut to maxUserAgent bytes on a
// character boundary, with control characters removed.
func userAgentOf(r *http.Request) string {
	ua := r.Header.Get("User-Agent")
	out := make([]rune, 0, min(len(ua), maxUserAgent))
	n := 0
	for _, c := range ua {
		if c < 0x20 || c == 0x7f || c == utf8.RuneError {
			continue
		}
		if n+utf8.RuneLen(c) > maxUserAgent {
			break
		}
		n += utf8.RuneLen(c)
		out = append(out, c)
	}
	return string(out)
}

// touchSession records the session's use at most once per touchInterval
// per process (decision 191).
func (s *Server) touchSession(r *http.Request, id string, now time.Time) {
	if !s.touchDue(id, now) {
		return
	}
	if err := s.Store.TouchSession(r.Context(), id, now); err != nil && !edgeflow.IsNotFound(err) {
		s.Logger.Warn("record session use", "requestId", requestIDFrom(r), "session", id, "error", err.Error())
	}
}

// sessionView is a session as GET /api/auth/sessions shows it.
type sessionView struct {
	ID         string     `json:"id"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastSeenAt *time.Time `json:"lastSeenAt"`
	ExpiresAt  time.Time  `json:"expiresAt"`
	UserAgent  string     `json:"userAgent"`
	IP         string     `json:"ip"`
	Current    bool       `json:"current"`
}

// handleSessionList lists the signed-in user's live sessions, newest first.
func (s *Server) handleSessionList(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListSessionsForUser(r.Context(), p.UserID, s.now(), opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(ses edgeflow.Session) sessionView {
		return sessionView{ID: ses.ID, CreatedAt: ses.CreatedAt, LastSeenAt: ses.LastSeenAt, ExpiresAt: ses.ExpiresAt,
			UserAgent: ses.UserAgent, IP: ses.IP, Current: ses.ID == p.Session.ID}
	}))
	return nil
}

// handleSessionRevoke revokes one of the user's own sessions; another
// user's session is not found. Revoking the current session signs out.
func (s *Server) handleSessionRevoke(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	id := r.PathValue("id")
	setAuditTarget(r, id)
	if err := s.Store.RevokeUserSession(r.Context(), p.UserID, id, s.now()); err != nil {
		return err
	}
	if id == p.Session.ID {
		s.clearSessionCookie(w, r)
	}
	writeNoContent(w)
	return nil
}

type passwordChangeRequest struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

// handlePasswordChange checks the current password, stores the new one and
// revokes the user's other sessions; this session stays signed in. Wrong
// current passwords count toward the sign-in back-off of the user's email,
// so a stolen session cookie cannot be used to guess the password faster
// than sign-in allows.
func (s *Server) handlePasswordChange(w http.ResponseWriter, r *http.Request) error {
	var req passwordChangeRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	p := PrincipalFrom(r)
	setAuditTarget(r, p.UserID)
	ctx := r.Context()
	u, err := s.Store.FindUserByID(ctx, p.UserID)
	if err != nil {
		return err
	}
	var pr problems
	pr.check(req.CurrentPassword != "", "/currentPassword", "currentPassword is required")
	if msg := auth.PasswordProblem(req.NewPassword, u.Email); msg != "" {
		pr.add("/newPassword", msg)
	}
	if err := pr.err(); err != nil {
		return err
	}
	key := signInKey(u.Email)
	if err := s.claimSignIn(ctx, w, key); err != nil {
		return err
	}
	if auth.CheckPassword(u.PasswordHash, req.CurrentPassword) != nil {
		return edgeflow.Invalid("/currentPassword", "the current password is wrong") // counted by claimSignIn
	}
	if err := s.Store.ClearSignInFailures(ctx, key); err != nil {
		return err
	}
	if req.NewPassword == req.CurrentPassword {
		return edgeflow.Invalid("/newPassword", "the new password must differ from the current one")
	}
	hash, err := auth.HashPassword(req.NewPassword, s.BcryptCost)
	if err != nil {
		return err
	}
	if err := s.Store.SetPassword(ctx, u.ID, hash, p.Session.ID, s.now()); err != nil {
		return err
	}
	writeNoContent(w)
	return nil
}
