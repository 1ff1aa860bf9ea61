package sqlstore

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/klauspost/compress/s2"
)

// SQLite only (Dialect.PacksText; PostgreSQL keeps these columns as TEXT):
// a version's IR and generated code are tens of kilobytes of JSON and
// TypeScript each, and most of a submission's cost in SQLite is per page:
// every page goes to the WAL and again to the database at the checkpoint.
// So values from packMin bytes up are stored compressed with S2 as BLOBs,
// about a fifth of their size; shorter ones, and every value written before
// (TEXT), are read as they are. The column's type says which: a BLOB is
// always S2 (docs/decisions.md 54). In SQL, such a column can be read with
// typeof() in mind; nothing in the store queries inside it.
const packMin = 512

// packBuffers recycle compression outputs: the driver copies a bound BLOB
// into SQLite before Exec returns.
var packBuffers = sync.Pool{New: func() any { return new([]byte) }}

// packed is a value bound for a packed column, with the buffer to give back
// after the statement ran.
type packed struct {
	arg any
	buf *[]byte
}

// packText prepares text for a packed column: compressed when the engine
// packs texts (Dialect.PacksText) and text is long enough. Call release after
// Exec.
func (s *Store) packText(text string) packed {
	if len(text) < packMin || !s.d.PacksText() {
		return packed{arg: text}
	}
	buf := packBuffers.Get().(*[]byte)
	if need := s2.MaxEncodedLen(len(text)); cap(*buf) < need {
		*buf = make([]byte, need)
	}
	src := unsafe.Slice(unsafe.StringData(text), len(text)) // read only
	return packed{arg: s2.Encode((*buf)[:cap(*buf)], src), buf: buf}
}

func (p packed) release() {
	if p.buf != nil && cap(*p.buf) <= 4<<20 {
		packBuffers.Put(p.buf)
	}
}

// packedCol scans a packed column into text, or into raw when set (a BLOB
// is decompressed; NULL is "" or nil, and so is empty text).
type packedCol struct {
	text   *string
	raw    *[]byte
	packed bool // the engine packs texts: a BLOB is S2
}

func (c packedCol) Scan(v any) error {
	var b []byte
	switch v := v.(type) {
	case nil:
	case string:
		if c.raw != nil {
			if v != "" { // "" reads as nil, as NULL does
				b = []byte(v)
			}
		} else {
			*c.text = v
			return nil
		}
	case []byte:
		if !c.packed {
			b = append([]byte(nil), v...)
			break
		}
		n, err := s2.DecodedLen(v)
		if err != nil {
			return fmt.Errorf("packed column: %w", err)
		}
		if b, err = s2.Decode(make([]byte, n), v); err != nil {
			return fmt.Errorf("packed column: %w", err)
		}
	default:
		return fmt.Errorf("packed column holds %T", v)
	}
	if c.raw != nil {
		*c.raw = b
	} else {
		*c.text = unsafe.String(unsafe.SliceData(b), len(b)) // b is not written again
	}
	return nil
}
