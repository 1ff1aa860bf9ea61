package api

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

func TestPanicIsRecoveredWithoutLeaking(t *testing.T) {
	t.Parallel()
	st, err := sqlite.Open(t.Context(), t.TempDir()+"/db", sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sealer, _ := secret.New(bytes.Repeat([]byte{2}, 32))
	s, err := New(Config{Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}})
	if err != nil {
		t.Fatal(err)
	}
	s.mux.Handle("GET /boom", s.wrap(Route{Method: "GET", Pattern: "/boom", Handler: func(w http.ResponseWriter, r *http.Request) error {
		panic("secret internal detail")
	}}))
	s.mux.Handle("GET /fail", s.wrap(Route{Method: "GET", Pattern: "/fail", Handler: func(w http.ResponseWriter, r *http.Request) error {
		return errString("database password=hunter2 refused")
	}}))
	for _, p := range []string{"/boom", "/fail"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		body := rec.Body.String()
		if rec.Code != 500 || !strings.Contains(body, `"code":"internal"`) || strings.Contains(body, "secret") ||
			strings.Contains(body, "hunter2") || rec.Header().Get("X-Request-Id") == "" {
			t.Fatalf("%s: %d %s", p, rec.Code, body)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }
