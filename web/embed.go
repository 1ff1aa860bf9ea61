// Package web holds Studio, edgeflow's web application (its sources are the
// npm project in this directory), and embeds its production build: the
// content of dist/app, written by `npm run build`. dist/ itself is committed
// (with a README only), so a checkout that has not built the app still
// compiles; the binary then has no Studio (see Build).
package web

import (
	"embed"
	"io/fs"
)

//go:embed dist
var dist embed.FS

// Build returns Studio's production build (dist/app) and true, or nil and
// false when the binary was compiled without one (dist/app/index.html
// missing).
func Build() (fs.FS, bool) {
	app, err := fs.Sub(dist, "dist/app")
	if err != nil {
		return nil, false
	}
	if _, err := fs.Stat(app, "index.html"); err != nil {
		return nil, false
	}
	return app, true
}
