package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/backup"
	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

const backupUsage = "edgeflow admin backup --out FILE [--data-dir DIR] [--database-url URL] [--edge-url URL --edge-token-file FILE] [--no-edge]"
const restoreUsage = "edgeflow admin restore --from FILE [--data-dir DIR] [--database-url URL] [--force]"
const verifyBackupUsage = "edgeflow admin verify-backup FILE"

// runBackupCmd writes one archive of the database and the local edge
// (internal/backup), while the server runs or not.
func runBackupCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	out := fs.String("out", "", "the archive to write (.tar.gz)")
	edgeURL := fs.String("edge-url", "", "a running local edge's URL (default: the edge of --data-dir when it runs)")
	edgeTokenFile := fs.String("edge-token-file", "", "the edge's root token file (default: token in the edge's data dir)")
	noEdge := fs.Bool("no-edge", false, "leave the local edge's state out")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: "+backupUsage)
		fs.PrintDefaults()
		printExamples(fs.Output(), "edgeflow admin backup --out /backups/edgeflow-$(date +%F).tar.gz")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 || *out == "" {
		fmt.Fprintln(stderr, "edgeflow admin backup: --out is required")
		fs.Usage()
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, err := sf.open(ctx, logger)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin backup: open database: %v\n", err)
		return 1
	}
	defer store.Close()
	src := backup.Source{DataDir: sf.dataDir, Store: store, Version: version, NoEdge: *noEdge, EdgeURL: *edgeURL}
	if sf.postgres() {
		src.DatabaseURL = sf.databaseURL
	}
	if !*noEdge {
		if err := findEdge(&src, *edgeTokenFile); err != nil {
			fmt.Fprintf(stderr, "edgeflow admin backup: %v\n", err)
			return 1
		}
	}
	m, err := backup.Create(ctx, src, *out)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin backup: %v\n", err)
		return 1
	}
	var size int64
	if st, err := os.Stat(*out); err == nil {
		size = st.Size()
	}
	fmt.Fprintf(stdout, "wrote %s: %s database at migration %d, %d tables, %d members, %d bytes\n",
		*out, m.Engine, m.MigrationLevel, len(m.Tables), len(m.Members), size)
	return 0
}

// findEdge sets the edge's URL and token when the edge of the data dir runs
// (its lock is held): its port is in its registry, its token in its token file.
func findEdge(src *backup.Source, tokenFile string) error {
	edgeDir := filepath.Join(src.DataDir, backup.EdgeDir)
	if tokenFile == "" {
		tokenFile = filepath.Join(edgeDir, "token")
	}
	if src.EdgeURL == "" {
		if _, err := os.Stat(filepath.Join(edgeDir, "edge.lock")); err != nil {
			return nil // not running: copied from disk
		}
		raw, err := os.ReadFile(filepath.Join(edgeDir, "registry.json"))
		if err != nil {
			return fmt.Errorf("the local edge runs but its registry is unreadable: %w", err)
		}
		var reg struct {
			Port int `json:"port"`
		}
		if err := json.Unmarshal(raw, &reg); err != nil || reg.Port == 0 {
			return fmt.Errorf("the local edge runs but its registry names no port; pass --edge-url")
		}
		src.EdgeURL = fmt.Sprintf("http://127.0.0.1:%d", reg.Port)
	}
	tok, err := os.ReadFile(tokenFile)
	if err != nil {
		return fmt.Errorf("the edge's token: %w (pass --edge-token-file)", err)
	}
	src.EdgeToken = strings.TrimSpace(string(tok))
	return nil
}

// runRestoreCmd restores an archive into an empty data dir or database.
func runRestoreCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	from := fs.String("from", "", "the archive to restore")
	force := fs.Bool("force", false, "replace the data of a target that holds some")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: "+restoreUsage)
		fmt.Fprintln(fs.Output(), "The secret key (EDGEFLOW_SECRET_KEY, or secret.key in the data dir) must be the one the archive's server ran with.")
		fs.PrintDefaults()
		printExamples(fs.Output(), "EDGEFLOW_SECRET_KEY=$(cat key) edgeflow admin restore --from edgeflow-2026-12-01.tar.gz --data-dir /var/lib/edgeflow")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 || *from == "" {
		fmt.Fprintln(stderr, "edgeflow admin restore: --from is required")
		fs.Usage()
		return 2
	}
	key, err := restoreKey(sf.dataDir)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin restore: %v\n", err)
		return 1
	}
	t := backup.Target{DataDir: sf.dataDir, Key: key, Force: *force}
	if sf.postgres() {
		t.DatabaseURL = sf.databaseURL
	}
	m, err := backup.Restore(ctx, *from, t)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin restore: %v; nothing was written\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "restored %s (%s, made %s by edgeflow %s) into %s\n", *from, m.Engine,
		m.CreatedAt.Format("2006-01-02 15:04:05Z"), m.Version, map[bool]string{true: "the database and " + sf.dataDir, false: sf.dataDir}[sf.postgres()])
	return 0
}

// restoreKey is the secret key of the restored server: EDGEFLOW_SECRET_KEY,
// else secret.key in the data dir; a restore never makes one up.
func restoreKey(dataDir string) ([]byte, error) {
	if v := os.Getenv("EDGEFLOW_SECRET_KEY"); v != "" {
		return secret.ParseKey(v)
	}
	raw, err := os.ReadFile(filepath.Join(dataDir, secret.KeyFileName))
	if err != nil {
		return nil, fmt.Errorf("a restore needs the secret key the data was sealed with: set EDGEFLOW_SECRET_KEY or put %s into the data dir (%v)", secret.KeyFileName, err)
	}
	return secret.ParseKey(string(raw))
}

// runVerifyBackupCmd checks an archive without restoring it.
func runVerifyBackupCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin verify-backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: "+verifyBackupUsage)
		fmt.Fprintln(fs.Output(), "Checks every member's SHA-256, the manifest, and that the database snapshot opens with the rows the manifest counts.")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	m, err := backup.Verify(ctx, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin verify-backup: %v\n", err)
		return 1
	}
	var rows int64
	for _, n := range m.Tables {
		rows += n
	}
	fmt.Fprintf(stdout, "ok: %s database at migration %d (%d tables, %d rows), %d members checked, made %s by edgeflow %s\n",
		m.Engine, m.MigrationLevel, len(m.Tables), rows, len(m.Members), m.CreatedAt.Format("2006-01-02 15:04:05Z"), m.Version)
	return 0
}

// backupFlags are serve's flags of scheduled backups.
type backupFlags struct {
	dir, every string
	keep       int
}

func (f *backupFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "backup-dir", os.Getenv("EDGEFLOW_BACKUP_DIR"),
		"take scheduled backups (edgeflow admin backup's archives) into this directory (env EDGEFLOW_BACKUP_DIR)")
	fs.StringVar(&f.every, "backup-every", envOr("EDGEFLOW_BACKUP_EVERY", "24h"),
		"how often a scheduled backup is taken, a Go duration such as 6h (env EDGEFLOW_BACKUP_EVERY)")
	keep, _ := strconv.Atoi(envOr("EDGEFLOW_BACKUP_KEEP", "7"))
	fs.IntVar(&f.keep, "backup-keep", keep, "how many scheduled archives stay in --backup-dir (env EDGEFLOW_BACKUP_KEEP)")
}

// parse answers the schedule of the flags, nil without --backup-dir.
func (f *backupFlags) parse() (*backup.Schedule, error) {
	if f.dir == "" {
		return nil, nil
	}
	every, err := time.ParseDuration(f.every)
	if err != nil || every < time.Second {
		return nil, fmt.Errorf("--backup-every must be a duration of at least 1s (such as 6h), not %q", f.every)
	}
	if f.keep < 1 {
		return nil, fmt.Errorf("--backup-keep must be at least 1, not %d", f.keep)
	}
	return &backup.Schedule{Dir: f.dir, Every: every, Keep: f.keep}, nil
}

// backupSource is what serve's scheduled backups copy: its database and
// the edge it deploys to (its own, or the shared one of --edge-url).
func backupSource(sf storeFlags, store edgeflow.Store, edge deploy.LocalEdge) backup.Source {
	src := backup.Source{DataDir: sf.dataDir, Store: store, Version: version, NoEdge: edge == nil}
	if sf.postgres() {
		src.DatabaseURL = sf.databaseURL
	}
	if edge != nil {
		src.EdgeURL = strings.TrimSuffix(edge.APIBaseURL(), "/client/v4")
		src.EdgeToken = edge.Token()
	}
	return src
}
