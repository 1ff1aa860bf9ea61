package cli

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxImportFile is the largest file import reads: the server's bound on an
// import request (internal/api MaxImportBytes).
const maxImportFile = 4 << 20

// The bounds of an archive export unpacks: files, and bytes in all.
const (
	maxExportFiles = 1000
	maxExportBytes = 64 << 20
)

func importCommand() *command {
	sub := func(name, what, route, field string) *command {
		return &command{
			name: name, summary: "convert " + what + " into an IR, with a report (--create: also create the workflow)",
			args: "FILE", minArgs: 1, maxArgs: 1,
			about: `Sends the file to ` + route + ` and prints the report: which nodes were converted, which only
approximately (and how), which not at all (each becomes a step that throws "not converted: <type>"), the
variables and secrets the IR reads and the marketplace nodes it uses. --out writes the IR (as pull writes
files), --create creates the workflow with it as its first version. docs/import.md has the mapping.`,
			flags: []flagDef{
				{name: "create", usage: "create the workflow with the IR as its first version"},
				{name: "out", short: "o", value: "FILE", usage: "write the IR to FILE (- for standard output)"},
				{name: "name", value: "NAME", usage: "the workflow's name (default: the file's)"},
				jsonFlag,
			},
			examples: []string{"edgeflow import " + name + " orders.json", "edgeflow import " + name + " orders.json --out workflows/orders.ir.json",
				"edgeflow import " + name + " orders.json --create"},
			run: func(c *call) error { return runImport(c, route, field) },
		}
	}
	return &command{
		name: "import", summary: "convert an n8n workflow or an AwaitStep IR into an edgeflow workflow",
		subs: []*command{
			sub("n8n", "an n8n workflow (as n8n exports it)", "/api/import/n8n", "workflow"),
			sub("awaitstep", "an AwaitStep IR", "/api/import/awaitstep", "ir"),
		},
	}
}

// importAnswer is the answer of an import route.
type importAnswer struct {
	IR     json.RawMessage `json:"ir"`
	Report struct {
		Converted []struct {
			N8nNode string   `json:"n8nNode"`
			Node    string   `json:"node"`
			NodeIDs []string `json:"nodeIds"`
		} `json:"converted"`
		Approximated []struct {
			N8nNode string `json:"n8nNode"`
			Node    string `json:"node"`
			What    string `json:"what"`
		} `json:"approximated"`
		Unsupported []struct {
			N8nNode string `json:"n8nNode"`
			Node    string `json:"node"`
			Type    string `json:"type"`
			Reason  string `json:"reason"`
		} `json:"unsupported"`
		EnvVars []struct {
			Name   string `json:"name"`
			Secret bool   `json:"secret"`
			Why    string `json:"why"`
		} `json:"envVars"`
		Marketplace []string `json:"marketplace"`
	} `json:"report"`
	Workflow *workflow `json:"workflow"`
	Version  *version  `json:"version"`
}

func runImport(c *call, route, field string) error {
	file := c.args[0]
	f, err := os.Open(file)
	if err != nil {
		return failed("%v", err)
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxImportFile+1))
	f.Close()
	if err != nil {
		return failed("%s: %v", file, err)
	}
	if len(raw) > maxImportFile {
		return failed("%s is larger than %d MiB, the most an import takes", file, maxImportFile>>20)
	}
	if !json.Valid(raw) {
		return failed("%s is not JSON", file)
	}
	body := map[string]any{field: json.RawMessage(raw)}
	if n := c.flag("name"); n != "" {
		body["name"] = n
	}
	var q url.Values
	if c.has("create") {
		q = url.Values{"create": {"true"}}
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	var ans importAnswer
	if err := cl.request(c.ctx, http.MethodPost, route, q, body, &ans); err != nil {
		return err
	}
	if out := c.flag("out"); out != "" {
		ir, err := canonicalIR(ans.IR)
		if err != nil {
			return err
		}
		if out == "-" {
			_, err = c.out().Write(ir)
			return err
		}
		if err := writeFileIfChanged(out, ir); err != nil {
			return failed("%v", err)
		}
	}
	if c.has("json") {
		return printJSON(c.out(), ans)
	}
	printReport(c.out(), &ans)
	if out := c.flag("out"); out != "" {
		fmt.Fprintf(c.out(), "Wrote the IR to %s.\n", out)
	}
	if ans.Workflow != nil && ans.Version != nil {
		fmt.Fprintf(c.out(), "Created workflow %q (%s) with version %d.\n", ans.Workflow.Name, ans.Workflow.ID, ans.Version.Version)
	} else if !c.has("create") && c.flag("out") == "" {
		fmt.Fprintln(c.out(), "Nothing was stored: --create creates the workflow, --out writes the IR to a file.")
	}
	return nil
}

// printReport prints an import's report in words.
func printReport(w io.Writer, a *importAnswer) {
	name := func(n8n, node string) string {
		if n8n != "" {
			return n8n
		}
		return node
	}
	r := &a.Report
	fmt.Fprintf(w, "Converted %d nodes, %d not converted, %d approximations.\n", len(r.Converted), len(r.Unsupported), len(r.Approximated))
	if len(r.Unsupported) > 0 {
		fmt.Fprintln(w, "\nNot converted (each is a step that throws \"not converted\", or is left out as said):")
		for _, u := range r.Unsupported {
			fmt.Fprintf(w, "  %s (%s): %s\n", name(u.N8nNode, u.Node), u.Type, u.Reason)
		}
	}
	if len(r.Approximated) > 0 {
		fmt.Fprintln(w, "\nApproximated:")
		for _, x := range r.Approximated {
			fmt.Fprintf(w, "  %s: %s\n", name(x.N8nNode, x.Node), x.What)
		}
	}
	if len(r.EnvVars) > 0 {
		fmt.Fprintln(w, "\nVariables and secrets to set on the workflow:")
		for _, e := range r.EnvVars {
			kind := "variable"
			if e.Secret {
				kind = "secret"
			}
			fmt.Fprintf(w, "  %s (%s): %s\n", e.Name, kind, e.Why)
		}
	}
	if len(r.Marketplace) > 0 {
		fmt.Fprintf(w, "\nMarketplace nodes the organization must have installed: %s\n", strings.Join(r.Marketplace, ", "))
	}
}

func exportCommand() *command {
	return &command{
		name: "export", summary: "write a version as a plain Cloudflare project that wrangler deploys without edgeflow",
		args: "WORKFLOW", minArgs: 1, maxArgs: 1,
		about: `Downloads the version (default: the workflow's current one) as a wrangler project and unpacks it
into DIR, which must not exist or be empty: wrangler.jsonc, src/ with the generated TypeScript,
package.json and a README naming the secrets to set with "wrangler secret put". No secret value is in it.
docs/export.md describes the project.`,
		flags: []flagDef{
			{name: "version", short: "v", value: "VERSION", usage: "the version's number or id (default: the current one)"},
			{name: "format", value: "FORMAT", usage: "the format: wrangler (the one there is)"},
			{name: "out", short: "o", value: "DIR", usage: "the directory to write the project to"},
		},
		examples: []string{"edgeflow export orders --format wrangler --out orders-worker",
			"edgeflow export orders --version 3 --format wrangler --out orders-v3 && cd orders-v3 && npm install && npx wrangler deploy"},
		run: runExport,
	}
}

func runExport(c *call) error {
	format, dir := c.flag("format"), c.flag("out")
	if format == "" {
		format = "wrangler"
	}
	if format != "wrangler" {
		return usageError("--format %q is not known: wrangler is the one format", format)
	}
	if dir == "" {
		return usageError("--out DIR is required: the directory to write the project to")
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return failed("%s is not empty: export writes into a new or empty directory", dir)
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	w, err := workflowByRef(c.ctx, cl, c.args[0])
	if err != nil {
		return err
	}
	var v *version
	if ref := c.flag("version"); ref != "" {
		v, err = versionByRef(c.ctx, cl, w, ref)
	} else if v, err = currentVersion(c.ctx, cl, w); err == nil && v == nil {
		return failed("workflow %q has no version yet", w.Name)
	}
	if err != nil {
		return err
	}
	resp, err := cl.send(c.ctx, http.MethodGet, "/api/workflows/"+w.ID+"/versions/"+url.PathEscape(v.ID)+"/export",
		url.Values{"format": {format}}, nil, "application/gzip")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	n, err := unpackArchive(resp.Body, dir)
	if err != nil {
		return failed("unpacking the export into %s: %v", dir, err)
	}
	fmt.Fprintf(c.out(), "Wrote version %d of %q as a wrangler project to %s (%d files). Its README.md says which secrets to set and how to deploy.\n",
		v.Version, w.Name, dir, n)
	return nil
}

// unpackArchive writes the regular files of a gzipped tar under dir. Only
// relative paths that stay inside dir are written, within maxExportFiles
// and maxExportBytes; anything else fails the unpacking.
func unpackArchive(r io.Reader, dir string) (int, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return 0, fmt.Errorf("the answer is not gzipped: %w", err)
	}
	tr := tar.NewReader(gz)
	var files int
	var total int64
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return files, err
		}
		name := path.Clean(h.Name)
		if path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") || strings.ContainsRune(name, '\\') {
			return files, fmt.Errorf("the archive names a path outside the project: %q", h.Name)
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return files, err
			}
			continue
		case tar.TypeReg:
		default:
			return files, fmt.Errorf("the archive holds %q, which is not a file or directory", h.Name)
		}
		files++
		total += h.Size
		if files > maxExportFiles || total > maxExportBytes {
			return files, fmt.Errorf("the archive is larger than an export can be")
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return files, err
		}
		out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o644)
		if err != nil {
			return files, err
		}
		_, err = io.Copy(out, io.LimitReader(tr, h.Size))
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return files, err
		}
	}
}
