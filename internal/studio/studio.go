// Package studio serves Studio, edgeflow's web application, from its
// production build (the web package embeds it): hashed assets cached for a
// year, index.html revalidated on every load, index.html for every client
// route (the app routes in the browser), gzip for text files when the client
// accepts it (compressed once, when the handler is made), and the security
// headers every response of the service carries (Headers).
package studio

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// ContentSecurityPolicy is the policy of every response: scripts only from
// the service's own origin (no inline scripts, no eval, no wildcards),
// inline styles allowed (the canvas positions nodes with style attributes),
// images from the origin and data: URLs, requests only to the origin, and
// no framing.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

// Headers sets the security headers every response of the service carries.
func Headers(h http.Header) {
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
}

// Cache-Control values.
const (
	cacheImmutable  = "public, max-age=31536000, immutable"
	cacheRevalidate = "no-cache"
)

// AssetsDir is where the build puts the files whose names hold a hash of
// their content; they never change and are cached for a year.
const AssetsDir = "assets"

// minGzipSize is the smallest file worth compressing.
const minGzipSize = 512

type file struct {
	body        []byte
	gzipped     []byte // nil when compression does not pay
	contentType string
	cache       string
	etag        string
}

// Handler serves one build of Studio. The zero value is not usable; see New.
type Handler struct {
	files map[string]*file // by slash path without the leading slash
	index *file
	// notBuilt: the binary has no build; client routes answer 404.
	notBuilt bool
}

// New reads every file of build into memory (the build is embedded, so this
// costs no I/O) and compresses the text files. build must hold index.html.
func New(build fs.FS) (*Handler, error) {
	h := &Handler{files: map[string]*file{}}
	err := fs.WalkDir(build, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(build, name)
		if err != nil {
			return err
		}
		f, err := newFile(name, body)
		if err != nil {
			return err
		}
		h.files[name] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("studio: reading the build: %w", err)
	}
	h.index = h.files["index.html"]
	if h.index == nil {
		return nil, fmt.Errorf("studio: the build has no index.html")
	}
	return h, nil
}

// NotBuilt is the handler of a binary compiled without Studio's build: every
// client route answers 404 with a page saying how to build it.
func NotBuilt() *Handler {
	page := []byte("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>edgeflow: Studio is not built</title></head>\n" +
		"<body><main><h1>Studio is not part of this binary</h1>\n" +
		"<p>This edgeflow binary was compiled before Studio's web application was built, so it serves the API only " +
		"(under <code>/api/</code>). Build both with <code>make build</code> (or <code>npm ci &amp;&amp; npm run build</code> in " +
		"<code>web/</code>, then <code>go build ./cmd/edgeflow</code>).</p></main></body></html>\n")
	f, _ := newFile("index.html", page) // cannot fail for a constant page
	return &Handler{files: map[string]*file{}, index: f, notBuilt: true}
}

func newFile(name string, body []byte) (*file, error) {
	f := &file{body: body, contentType: contentType(name), cache: cacheRevalidate}
	if strings.HasPrefix(name, AssetsDir+"/") {
		f.cache = cacheImmutable
	}
	sum := sha256.Sum256(body)
	f.etag = `"` + hex.EncodeToString(sum[:12]) + `"`
	if len(body) >= minGzipSize && compressible(f.contentType) {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return nil, err
		}
		if _, err := zw.Write(body); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		if buf.Len() < len(body)*9/10 {
			f.gzipped = buf.Bytes()
		}
	}
	return f, nil
}

// contentType is the media type of a build file by its extension; the
// common web types are fixed here so that they do not depend on the host's
// mime tables.
func contentType(name string) string {
	switch ext := strings.ToLower(path.Ext(name)); ext {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".json", ".map":
		return "application/json"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".woff2":
		return "font/woff2"
	case ".wasm":
		return "application/wasm"
	case ".txt":
		return "text/plain; charset=utf-8"
	default:
		if t := mime.TypeByExtension(ext); t != "" {
			return t
		}
		return "application/octet-stream"
	}
}

func compressible(contentType string) bool {
	return strings.HasPrefix(contentType, "text/") || strings.HasPrefix(contentType, "application/json") ||
		contentType == "image/svg+xml" || contentType == "application/wasm"
}

// staticExtensions are the extensions of files: a missing one is a 404, not
// the app (a client route never ends in one of them).
var staticExtensions = map[string]bool{
	".js": true, ".mjs": true, ".css": true, ".map": true, ".json": true, ".svg": true, ".png": true, ".ico": true,
	".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".woff": true, ".woff2": true, ".wasm": true, ".txt": true,
	".html": true, ".xml": true,
}

// IsClientPath reports whether the path may be Studio's: everything but the
// API (/api and below) and the operations endpoints.
func IsClientPath(p string) bool {
	if p == "/api" || strings.HasPrefix(p, "/api/") {
		return false
	}
	switch p {
	case "/healthz", "/readyz", "/metrics":
		return false
	}
	return true
}

// Serve answers a GET or HEAD of a client path (IsClientPath): the build file
// of that path, or index.html for a client route. It returns false, having
// written nothing, when there is nothing to serve: another method, a missing
// file under /assets/ or with a file extension. The caller answers those.
func (h *Handler) Serve(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	f := h.files[name]
	status := http.StatusOK
	switch {
	case f != nil:
	case name == AssetsDir || strings.HasPrefix(name, AssetsDir+"/") || staticExtensions[strings.ToLower(path.Ext(name))]:
		return false
	default:
		f = h.index
		if h.notBuilt {
			status = http.StatusNotFound
		}
	}
	h.write(w, r, f, status)
	return true
}

func (h *Handler) write(w http.ResponseWriter, r *http.Request, f *file, status int) {
	hd := w.Header()
	hd.Set("Content-Type", f.contentType)
	hd.Set("Cache-Control", f.cache)
	hd.Set("ETag", f.etag)
	body := f.body
	if f.gzipped != nil {
		hd.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Get("Accept-Encoding")) {
			body = f.gzipped
			hd.Set("Content-Encoding", "gzip")
		}
	}
	if status == http.StatusOK && etagMatches(r.Header.Get("If-None-Match"), f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// acceptsGzip reads an Accept-Encoding header: gzip (or *) listed without
// q=0.
func acceptsGzip(header string) bool {
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if q > 0 {
			return true
		}
	}
	return false
}

func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for part := range strings.SplitSeq(header, ",") {
		t := strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}
