package sqlstore

import (
	"encoding/base64"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// TestColumns: the column scanners accept what either engine returns (an
// int64 or a time.Time for a time, an int64 or a bool for a boolean) and
// refuse anything else.
func TestColumns(t *testing.T) {
	t.Parallel()
	want := time.Date(2026, 3, 4, 5, 6, 7, 123456000, time.UTC)
	for _, v := range []any{want.UnixMicro(), want.In(time.FixedZone("X", 3600))} {
		var got time.Time
		if err := (timeCol{&got}).Scan(v); err != nil || !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("timeCol(%T) = %v, %v; want %v in UTC", v, got, err, want)
		}
		p := &got
		if err := (nullTimeCol{&p}).Scan(v); err != nil || p == nil || !p.Equal(want) {
			t.Errorf("nullTimeCol(%T) = %v, %v", v, p, err)
		}
	}
	p := &want
	if err := (nullTimeCol{&p}).Scan(nil); err != nil || p != nil {
		t.Errorf("nullTimeCol(nil) = %v, %v; want nil", p, err)
	}
	var tm time.Time
	if err := (timeCol{&tm}).Scan("2026"); err == nil {
		t.Error("timeCol(string) succeeded")
	}
	for _, c := range []struct {
		v    any
		want bool
	}{{int64(1), true}, {int64(0), false}, {true, true}, {false, false}} {
		var got bool
		if err := (boolCol{&got}).Scan(c.v); err != nil || got != c.want {
			t.Errorf("boolCol(%v) = %v, %v", c.v, got, err)
		}
	}
	var b bool
	if err := (boolCol{&b}).Scan("t"); err == nil {
		t.Error("boolCol(string) succeeded")
	}
}

// TestCursor: a cursor round-trips; anything else is an invalid cursor at
// /cursor, including a key or id holding a NUL byte.
func TestCursor(t *testing.T) {
	t.Parallel()
	key, id, err := decodeCursor(encodeCursor("1700000000000000", "wf_1"))
	if err != nil || key != "1700000000000000" || id != "wf_1" {
		t.Fatalf("round trip = %q, %q, %v", key, id, err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	for _, c := range []string{"!!", enc([]byte("no separator")), enc([]byte("key" + cursorSep)),
		enc([]byte("k\x00ey" + cursorSep + "id")), enc([]byte("key" + cursorSep + "i\x00d"))} {
		_, _, err := decodeCursor(c)
		if e, ok := err.(*edgeflow.Error); !ok || e.Code != edgeflow.EInvalid {
			t.Errorf("decodeCursor(%q) = %v, want an invalid cursor", c, err)
		}
	}
}
