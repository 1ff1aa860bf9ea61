package backup

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/jackc/pgx/v5"
)

// SQLiteFile is the database file's name in a data dir (cmd/edgeflow's).
const SQLiteFile = "edgeflow.db"

// EdgeDir is the local edge's data dir inside edgeflow's.
const EdgeDir = "edge"

// Source is what a backup copies.
type Source struct {
	// DataDir holds the SQLite database (when DatabaseURL is empty) and the
	// local edge's data dir.
	DataDir string
	// DatabaseURL selects PostgreSQL.
	DatabaseURL string
	// EdgeURL and EdgeToken reach a running edge's POST /__edge/backup; when
	// EdgeURL is empty and DataDir/edge exists, the edge's files are copied
	// from disk (the edge must not run: Create refuses when its lock is held).
	EdgeURL, EdgeToken string
	// NoEdge leaves the edge out.
	NoEdge bool
	// Store is the open store the sealed samples are read from.
	Store edgeflow.Store
	// Version is edgeflow's version, for the manifest.
	Version string
	// HTTPClient calls the edge (nil: a client without a time limit).
	HTTPClient *http.Client
}

// Create writes an archive of src to out (through a temporary file beside
// it, renamed into place when complete) and answers its manifest.
func Create(ctx context.Context, src Source, out string) (*Manifest, error) {
	tmpDir, err := os.MkdirTemp(filepath.Dir(out), ".edgeflow-backup-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmpDir)
	m := &Manifest{Format: Format, Version: src.Version, CreatedAt: time.Now().UTC()}
	if src.Store != nil {
		samples, err := src.Store.SealedSamples(ctx)
		if err != nil {
			return nil, fmt.Errorf("read sealed samples: %w", err)
		}
		if m.SealedSamples, err = encodeSamples(samples); err != nil {
			return nil, err
		}
	}
	f, err := os.CreateTemp(filepath.Dir(out), ".edgeflow-backup-*.tmp")
	if err != nil {
		return nil, err
	}
	defer func() {
		f.Close()
		os.Remove(f.Name())
	}()
	w := newWriter(f)

	// The database first, then the edge: an instance created between the two
	// is in the edge without a run (harmless), never a run without its instance.
	if src.DatabaseURL != "" {
		m.Engine = "postgres"
		order, counts, level, err := snapshotPostgres(ctx, src.DatabaseURL, tmpDir)
		if err != nil {
			return nil, err
		}
		m.TableOrder, m.Tables, m.MigrationLevel = order, counts, level
		for _, t := range order {
			if err := w.addFile(pgMember(t), filepath.Join(tmpDir, t+".copy")); err != nil {
				return nil, err
			}
		}
	} else {
		m.Engine = "sqlite"
		snap := filepath.Join(tmpDir, SQLiteFile)
		counts, level, err := snapshotSQLite(ctx, filepath.Join(src.DataDir, SQLiteFile), snap)
		if err != nil {
			return nil, err
		}
		m.Tables, m.MigrationLevel = counts, level
		m.TableOrder = sortedKeys(counts)
		if err := w.addFile(SQLiteMember, snap); err != nil {
			return nil, err
		}
		os.Remove(snap)
	}

	if !src.NoEdge {
		var err error
		switch {
		case src.EdgeURL != "":
			m.Edge, err = edgeFromServer(ctx, src, w)
		default:
			m.Edge, err = edgeFromDisk(filepath.Join(src.DataDir, EdgeDir), w)
		}
		if err != nil {
			return nil, fmt.Errorf("local edge: %w", err)
		}
	}
	if err := w.finish(m); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(f.Name(), out); err != nil {
		return nil, err
	}
	return m, nil
}

// edgeFromServer copies a running edge's state through its backup route.
func edgeFromServer(ctx context.Context, src Source, w *writer) (json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(src.EdgeURL, "/")+"/__edge/backup", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+src.EdgeToken)
	client := src.HTTPClient
	if client == nil {
		client = &http.Client{}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, fmt.Errorf("POST /__edge/backup: %s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	tr := tar.NewReader(resp.Body)
	var counts json.RawMessage
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read the edge's copy: %w", err)
		}
		if hdr.Name == "edge-manifest.json" {
			if counts, err = io.ReadAll(io.LimitReader(tr, 1<<20)); err != nil {
				return nil, err
			}
			continue
		}
		if !validName(hdr.Name) || hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("the edge sent a member %q that is not a regular file", hdr.Name)
		}
		if err := w.add(EdgeDir+"/"+hdr.Name, hdr.Size, tr); err != nil {
			return nil, err
		}
	}
	if counts == nil {
		return nil, errors.New("the edge's copy ended before it was complete")
	}
	return counts, nil
}

// edgeSkipped mirrors edge/src/backup.mjs's skipped(): the edge's files that are not state.
func edgeSkipped(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	switch first {
	case "edge.lock", "workerd.pid", "d1-workerd.pid", "run", "run-dir", "workerd.sh", "token", "secrets.key", "d1-transfers":
		return true
	}
	return strings.HasPrefix(first, ".backup-") || strings.HasSuffix(rel, ".tmp") || rel == "miniflare/cache" || strings.HasPrefix(rel, "miniflare/cache/")
}

// edgeFromDisk copies a stopped edge's data dir (SQLite files with their
// -wal, since no process has them open).
func edgeFromDisk(dir string, w *writer) (json.RawMessage, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if _, err := os.Stat(filepath.Join(dir, "edge.lock")); err == nil {
		return nil, fmt.Errorf("%s is in use by a running edge (edge.lock): give --edge-url of the running server's edge, or stop it", dir)
	}
	files := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if edgeSkipped(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		files++
		return w.addFile(EdgeDir+"/"+rel, p)
	})
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"files": files, "copied": "from disk, the edge stopped"})
}

// Verify checks the archive at file without restoring it: every member's
// checksum, the manifest, and that the database snapshot opens and holds
// the rows the manifest counts.
func Verify(ctx context.Context, file string) (*Manifest, error) {
	dir, err := os.MkdirTemp("", "edgeflow-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	m, err := read(file, dir)
	if err != nil {
		return nil, err
	}
	if err := checkCounts(ctx, m, dir); err != nil {
		return nil, err
	}
	return m, nil
}

// checkCounts compares the staged database's rows with the manifest's counts.
func checkCounts(ctx context.Context, m *Manifest, dir string) error {
	switch m.Engine {
	case "sqlite":
		counts, _, err := sqliteCounts(ctx, filepath.Join(dir, filepath.FromSlash(SQLiteMember)))
		if err != nil {
			return &DamagedError{Member: SQLiteMember, Reason: "does not open as a SQLite database: " + err.Error()}
		}
		for t, n := range m.Tables {
			if counts[t] != n {
				return &DamagedError{Member: SQLiteMember, Reason: fmt.Sprintf("table %s has %d rows, the manifest says %d", t, counts[t], n)}
			}
		}
	case "postgres":
		for t, n := range m.Tables {
			got, err := countCopyRows(filepath.Join(dir, "database", t+".copy"))
			if err != nil {
				return &DamagedError{Member: pgMember(t), Reason: err.Error()}
			}
			if got != n {
				return &DamagedError{Member: pgMember(t), Reason: fmt.Sprintf("%d rows, the manifest says %d", got, n)}
			}
		}
	default:
		return &DamagedError{Member: ManifestName, Reason: fmt.Sprintf("unknown engine %q", m.Engine)}
	}
	return nil
}

// Target is where a restore writes.
type Target struct {
	// DataDir receives the SQLite database (when DatabaseURL is empty) and
	// the local edge's data dir.
	DataDir string
	// DatabaseURL selects PostgreSQL; the archive must be of PostgreSQL too.
	DatabaseURL string
	// Key is the secret key the server will run with: it must open the
	// archive's sealed values.
	Key []byte
	// Force restores into a target that holds data, replacing it.
	Force bool
}

// ErrNotEmpty is the refusal of a target that holds data without Force.
var ErrNotEmpty = errors.New("the target is not empty")

// ErrWrongKey is the refusal of a secret key that does not open the
// archive's sealed values.
var ErrWrongKey = errors.New("the secret key does not open the archive's sealed values")

// Restore checks the archive at file whole (checksums, counts, the secret
// key) and only then writes it into t, running the migrations of this
// edgeflow past the archive's level.
func Restore(ctx context.Context, file string, t Target) (*Manifest, error) {
	abs, err := filepath.Abs(t.DataDir)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, err
	}
	staging, err := os.MkdirTemp(parent, ".edgeflow-restore-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging)
	m, err := read(file, staging)
	if err != nil {
		return nil, err
	}
	if err := checkCounts(ctx, m, staging); err != nil {
		return nil, err
	}
	if (t.DatabaseURL != "") != (m.Engine == "postgres") {
		return nil, fmt.Errorf("the archive holds a %s database; restore it with %s", m.Engine,
			map[bool]string{true: "--database-url postgres://…", false: "--data-dir (SQLite)"}[m.Engine == "postgres"])
	}
	if err := checkKey(m, t.Key); err != nil {
		return nil, err
	}
	edgeStaged := filepath.Join(staging, EdgeDir)
	_, statErr := os.Stat(edgeStaged)
	hasEdge := statErr == nil

	// Refusals of a target that holds data, before anything is written.
	dbFile := filepath.Join(abs, SQLiteFile)
	edgeDir := filepath.Join(abs, EdgeDir)
	if _, err := os.Stat(filepath.Join(edgeDir, "edge.lock")); err == nil {
		return nil, fmt.Errorf("%s is in use by a running edge: stop the server first", edgeDir)
	}
	notEmpty := []string{}
	if m.Engine == "sqlite" && exists(dbFile) {
		notEmpty = append(notEmpty, dbFile)
	}
	if hasEdge && exists(edgeDir) {
		notEmpty = append(notEmpty, edgeDir)
	}
	var conn *pgx.Conn
	if m.Engine == "postgres" {
		if conn, err = pgx.Connect(ctx, t.DatabaseURL); err != nil {
			return nil, fmt.Errorf("postgres: connect: %w", err)
		}
		defer conn.Close(context.Background())
		empty, err := pgIsEmpty(ctx, conn)
		if err != nil {
			return nil, err
		}
		if !empty {
			notEmpty = append(notEmpty, "the database's schema (it has tables)")
		}
	}
	if len(notEmpty) > 0 && !t.Force {
		return nil, fmt.Errorf("%w: %s holds data; restore into an empty one, or pass --force to replace it", ErrNotEmpty, strings.Join(notEmpty, " and "))
	}

	// Writing.
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, err
	}
	switch m.Engine {
	case "sqlite":
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if err := os.Remove(dbFile + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
		if err := os.Rename(filepath.Join(staging, filepath.FromSlash(SQLiteMember)), dbFile); err != nil {
			return nil, err
		}
		st, err := sqlite.Open(ctx, dbFile, sqlite.Options{NoReadCache: true})
		if err != nil {
			return nil, fmt.Errorf("migrate the restored database: %w", err)
		}
		st.Close()
	case "postgres":
		if len(notEmpty) > 0 {
			if err := pgDropAll(ctx, conn); err != nil {
				return nil, err
			}
		}
		st, err := postgres.Open(ctx, t.DatabaseURL, postgres.Options{MigrateTo: max(m.MigrationLevel, 1)})
		if err != nil {
			return nil, fmt.Errorf("create the archive's schema: %w", err)
		}
		st.Close()
		if err := loadPostgres(ctx, conn, filepath.Join(staging, "database"), m.TableOrder); err != nil {
			return nil, err
		}
		st, err = postgres.Open(ctx, t.DatabaseURL, postgres.Options{})
		if err != nil {
			return nil, fmt.Errorf("migrate the restored database: %w", err)
		}
		st.Close()
	}
	if hasEdge {
		if err := os.RemoveAll(edgeDir); err != nil {
			return nil, err
		}
		if err := os.Rename(edgeStaged, edgeDir); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// checkKey opens the archive's sealed samples with key.
func checkKey(m *Manifest, key []byte) error {
	if len(m.SealedSamples) == 0 {
		return nil
	}
	samples, err := decodeSamples(m.SealedSamples)
	if err != nil {
		return &DamagedError{Member: ManifestName, Reason: "sealedSamples: " + err.Error()}
	}
	sealer, err := secret.New(key)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrWrongKey, err)
	}
	if err := sealer.CheckKey(samples); err != nil {
		return fmt.Errorf("%w (%v): restore with the key the server that made the backup ran with (EDGEFLOW_SECRET_KEY or secret.key in the data dir)", ErrWrongKey, err)
	}
	return nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
