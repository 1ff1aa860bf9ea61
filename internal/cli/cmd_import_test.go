package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tarGz(t *testing.T, entries ...tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, h := range entries {
		h := h
		body := strings.Repeat("x", int(h.Size))
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// TestUnpackArchive: export writes an archive's files under the directory,
// and refuses paths that leave it, links, and archives past its bounds.
func TestUnpackArchive(t *testing.T) {
	dir := t.TempDir()
	n, err := unpackArchive(bytes.NewReader(tarGz(t,
		tar.Header{Name: "src/", Typeflag: tar.TypeDir, Mode: 0o755},
		tar.Header{Name: "src/index.ts", Typeflag: tar.TypeReg, Mode: 0o644, Size: 3},
		tar.Header{Name: "wrangler.jsonc", Typeflag: tar.TypeReg, Mode: 0o644, Size: 2})), dir)
	if err != nil || n != 2 {
		t.Fatalf("%d files, %v", n, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "src", "index.ts")); string(b) != "xxx" {
		t.Errorf("src/index.ts holds %q", b)
	}
	for name, h := range map[string]tar.Header{
		"a path up":             {Name: "../evil", Typeflag: tar.TypeReg, Size: 1},
		"a path inside then up": {Name: "src/../../evil", Typeflag: tar.TypeReg, Size: 1},
		"an absolute path":      {Name: "/tmp/evil", Typeflag: tar.TypeReg, Size: 1},
		"a symlink":             {Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
		"too large":             {Name: "big", Typeflag: tar.TypeReg, Size: maxExportBytes + 1},
	} {
		out := t.TempDir()
		if _, err := unpackArchive(bytes.NewReader(tarGz(t, h)), out); err == nil {
			t.Errorf("%s: unpacked", name)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(out), "evil")); err == nil {
			t.Errorf("%s: wrote outside the directory", name)
		}
	}
}
