// Package backup writes, checks and restores edgeflow's backup archives
// (docs/operations.md, "Backups"): one .tar.gz holding the database as one
// consistent snapshot, the local edge's data dir as the edge copied it, and
// manifest.json, the last member, with the counts and a SHA-256 per member.
package backup

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// Format is the archive format this package writes.
const Format = 1

// ManifestName is the archive's last member.
const ManifestName = "manifest.json"

// Member is one file of an archive.
type Member struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Manifest describes an archive.
type Manifest struct {
	Format    int       `json:"format"`
	Version   string    `json:"version"`
	CreatedAt time.Time `json:"createdAt"`
	// Engine is "sqlite" or "postgres": how the database is held.
	Engine string `json:"engine"`
	// MigrationLevel is the highest schema migration of the database.
	MigrationLevel int `json:"migrationLevel"`
	// Tables counts the rows of every table; TableOrder is the order a
	// restore loads them in (a table after those it references).
	Tables     map[string]int64 `json:"tables"`
	TableOrder []string         `json:"tableOrder"`
	// Edge is the local edge's own account of its copy (edge/src/backup.mjs),
	// absent when the archive holds no edge.
	Edge json.RawMessage `json:"edge,omitempty"`
	// SealedSamples are sealed values of the database (still sealed), which
	// restore opens to check the secret key before writing anything.
	SealedSamples json.RawMessage `json:"sealedSamples,omitempty"`
	Members       []Member        `json:"members"`
}

// writer writes an archive's members, hashing each.
type writer struct {
	f       *os.File
	gz      *gzip.Writer
	tw      *tar.Writer
	members []Member
}

func newWriter(f *os.File) *writer {
	gz := gzip.NewWriter(f)
	return &writer{f: f, gz: gz, tw: tar.NewWriter(gz)}
}

// add writes member name with size bytes read from r.
func (w *writer) add(name string, size int64, r io.Reader) error {
	if err := w.tw.WriteHeader(&tar.Header{Name: name, Size: size, Mode: 0o600, ModTime: time.Now(), Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(w.tw, io.TeeReader(r, h))
	if err != nil {
		return fmt.Errorf("member %s: %w", name, err)
	}
	if n != size {
		return fmt.Errorf("member %s: %d bytes read, %d expected", name, n, size)
	}
	w.members = append(w.members, Member{Name: name, Size: size, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

// addFile writes the file at p as member name.
func (w *writer) addFile(name, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	return w.add(name, st.Size(), f)
}

// finish writes the manifest (with the members' checksums) and closes the
// streams, syncing the file.
func (w *writer) finish(m *Manifest) error {
	m.Members = w.members
	body, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := w.tw.WriteHeader(&tar.Header{Name: ManifestName, Size: int64(len(body)), Mode: 0o600, ModTime: time.Now(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := w.tw.Write(body); err != nil {
		return err
	}
	if err := w.tw.Close(); err != nil {
		return err
	}
	if err := w.gz.Close(); err != nil {
		return err
	}
	return w.f.Sync()
}

// DamagedError reports an archive that fails its checks; Member names the
// member at fault (empty when the archive as a whole is).
type DamagedError struct {
	Member string
	Reason string
}

func (e *DamagedError) Error() string {
	if e.Member == "" {
		return "the archive is damaged: " + e.Reason
	}
	return fmt.Sprintf("the archive is damaged: member %s: %s", e.Member, e.Reason)
}

// read reads the archive at file to its end, checking every member against
// the manifest. With dir set, it writes each member below dir (which must
// exist); otherwise it only hashes. It answers the manifest.
func read(file, dir string) (*Manifest, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, &DamagedError{Reason: "not a gzip stream: " + err.Error()}
	}
	tr := tar.NewReader(gz)
	seen := map[string]Member{}
	var manifest *Manifest
	last := "(none)"
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &DamagedError{Member: last, Reason: "truncated or corrupt after this member: " + err.Error()}
		}
		name := hdr.Name
		if hdr.Typeflag != tar.TypeReg || !validName(name) {
			return nil, &DamagedError{Member: name, Reason: "not a regular file with a relative path"}
		}
		if manifest != nil {
			return nil, &DamagedError{Member: name, Reason: "comes after " + ManifestName}
		}
		if name == ManifestName {
			body, err := io.ReadAll(io.LimitReader(tr, 64<<20))
			if err != nil {
				return nil, &DamagedError{Member: name, Reason: "truncated or corrupt: " + err.Error()}
			}
			manifest = &Manifest{}
			if err := json.Unmarshal(body, manifest); err != nil {
				return nil, &DamagedError{Member: name, Reason: "not valid JSON: " + err.Error()}
			}
			last = name
			continue
		}
		var out io.Writer = io.Discard
		var of *os.File
		if dir != "" {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				return nil, err
			}
			if of, err = os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err != nil {
				return nil, err
			}
			out = of
		}
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(out, h), tr)
		if of != nil {
			if cerr := of.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return nil, &DamagedError{Member: name, Reason: "truncated or corrupt: " + err.Error()}
		}
		if _, dup := seen[name]; dup {
			return nil, &DamagedError{Member: name, Reason: "appears twice"}
		}
		seen[name] = Member{Name: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
		last = name
	}
	if manifest == nil {
		return nil, &DamagedError{Member: ManifestName, Reason: "missing: the archive is truncated (last member read: " + last + ")"}
	}
	if manifest.Format != Format {
		return nil, &DamagedError{Member: ManifestName, Reason: fmt.Sprintf("format %d; this edgeflow reads format %d", manifest.Format, Format)}
	}
	for _, m := range manifest.Members {
		got, ok := seen[m.Name]
		switch {
		case !ok:
			return nil, &DamagedError{Member: m.Name, Reason: "listed in the manifest but missing from the archive"}
		case got.Size != m.Size:
			return nil, &DamagedError{Member: m.Name, Reason: fmt.Sprintf("%d bytes, the manifest says %d", got.Size, m.Size)}
		case got.SHA256 != m.SHA256:
			return nil, &DamagedError{Member: m.Name, Reason: "SHA-256 " + got.SHA256 + " does not match the manifest's " + m.SHA256}
		}
		delete(seen, m.Name)
	}
	for name := range seen {
		return nil, &DamagedError{Member: name, Reason: "not listed in the manifest"}
	}
	return manifest, nil
}

// validName accepts a clean relative slash path.
func validName(name string) bool {
	return name != "" && !strings.HasPrefix(name, "/") && path.Clean(name) == name && name != ".." && !strings.HasPrefix(name, "../") && !strings.Contains(name, "\\")
}
