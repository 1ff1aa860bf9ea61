// Package export writes a workflow version as a plain Cloudflare project that
// wrangler deploys without edgeflow (docs/export.md): wrangler.jsonc,
// src/ with the generated TypeScript, package.json and a README naming the
// secrets to set. No value of a variable or secret goes into it.
package export

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// WranglerVersion is the wrangler the exported package.json names as its
// dev dependency.
const WranglerVersion = "^4.20.0"

// FillIn marks, in wrangler.jsonc, an id the user fills in.
const FillIn = "FILL-IN"

// Variable is an environment variable the code reads: its name and whether
// it is a secret. Values are never exported.
type Variable struct {
	Name   string
	Secret bool
}

// Input is what an export needs.
type Input struct {
	Workflow *edgeflow.Workflow
	// Version is the version exported, its IR validated: IR and Graph.
	Version *edgeflow.Version
	IR      *ir.ArtifactIR
	Graph   *ir.Graph
	// Templates are the marketplace templates the IR's nodes use.
	Templates []codegen.NodeTemplate
	// Variables are the workflow's variables and secrets (declared,
	// referenced as {{env.NAME}}, required by marketplace nodes).
	Variables []Variable
	// CompatibilityDate and CompatibilityFlags are those edgeflow deploys
	// with.
	CompatibilityDate  string
	CompatibilityFlags []string
	// ResolveSubWorkflow gives the script and Workflow names of a
	// sub_workflow's child (codegen.Options.ResolveSubWorkflow).
	ResolveSubWorkflow func(ref string) (script, workflow string, ok bool)
}

// Project is an exported project: its files by path.
type Project struct {
	// Name is the project's name: the worker's name in wrangler.jsonc.
	Name  string
	Files map[string][]byte
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// ProjectName is the worker name an export uses: the workflow's name in
// lower case with dashes (at most 54 characters), or its script name when
// its name has no letters or digits.
func ProjectName(w *edgeflow.Workflow) string {
	s := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(w.Name), "-"), "-")
	if len(s) > 54 {
		s = strings.TrimRight(s[:54], "-")
	}
	if s == "" {
		return codegen.ScriptName(w.ID)
	}
	return s
}

// Wrangler generates the project of a version.
func Wrangler(in Input) (*Project, error) {
	w, v := in.Workflow, in.Version
	var vars []codegen.EnvVar
	for _, x := range in.Variables {
		vars = append(vars, codegen.EnvVar{Name: x.Name, Secret: x.Secret})
	}
	out, err := codegen.Generate(in.IR, codegen.Options{
		WorkflowID: w.ID, DisplayName: w.Name, Version: v.Number, TriggerCode: w.TriggerCode,
		EnvVars: vars, Templates: in.Templates, Dependencies: w.Dependencies, Graph: in.Graph,
		ResolveSubWorkflow: in.ResolveSubWorkflow,
	})
	if err != nil {
		return nil, err
	}
	p := &Project{Name: ProjectName(w), Files: map[string][]byte{}}
	for path, src := range out.Files {
		p.Files["src/"+path] = []byte(src)
	}
	secrets, plain := map[string]bool{}, map[string]bool{}
	for _, x := range in.Variables {
		if x.Secret {
			secrets[x.Name] = true
		} else {
			plain[x.Name] = true
		}
	}
	var bindings []codegen.Binding
	for _, b := range out.Bindings {
		switch b.Type {
		case codegen.BindingSecretText:
			secrets[b.Name] = true
			delete(plain, b.Name)
		case codegen.BindingPlainText:
			if !secrets[b.Name] {
				plain[b.Name] = true
			}
		default:
			bindings = append(bindings, b)
		}
	}
	cfg := wranglerConfig(in, out, p.Name, bindings, sortedSet(plain))
	p.Files["wrangler.jsonc"] = []byte(cfg)
	pkg, err := packageJSON(p.Name, out.Dependencies)
	if err != nil {
		return nil, err
	}
	p.Files["package.json"] = pkg
	p.Files["README.md"] = []byte(readme(in, out, p.Name, bindings, sortedSet(secrets), sortedSet(plain)))
	p.Files[".gitignore"] = []byte("node_modules/\n.wrangler/\n.dev.vars\n")
	return p, nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// wranglerConfig writes wrangler.jsonc: the worker as edgeflow deploys it,
// with the ids of its resources left to fill in.
func wranglerConfig(in Input, out *codegen.Output, name string, bindings []codegen.Binding, vars []string) string {
	var b strings.Builder
	q := func(s string) string {
		raw, _ := json.Marshal(s)
		return string(raw)
	}
	fmt.Fprintf(&b, "// %s: version %d of the edgeflow workflow %s, exported for wrangler.\n", oneLine(in.Workflow.Name), in.Version.Number, in.Workflow.ID)
	b.WriteString("// Values marked " + FillIn + " are yours to fill in (see README.md); secrets are set with `wrangler secret put`.\n")
	b.WriteString("{\n")
	b.WriteString("  \"$schema\": \"node_modules/wrangler/config-schema.json\",\n")
	fmt.Fprintf(&b, "  \"name\": %s,\n", q(name))
	b.WriteString("  \"main\": \"src/index.ts\",\n")
	fmt.Fprintf(&b, "  \"compatibility_date\": %s,\n", q(in.CompatibilityDate))
	flags, _ := json.Marshal(in.CompatibilityFlags)
	fmt.Fprintf(&b, "  \"compatibility_flags\": %s,\n", flags)
	b.WriteString("  \"workers_dev\": true,\n")
	var workflows []string
	if out.WorkflowName != "" {
		workflows = append(workflows, fmt.Sprintf("    { \"binding\": \"WORKFLOW\", \"name\": %s, \"class_name\": %s }", q(name), q(out.ClassName)))
	}
	var kv, d1, r2, services []string
	for _, bd := range bindings {
		switch bd.Type {
		case codegen.BindingWorkflow:
			if bd.ScriptName == "" {
				continue
			}
			workflows = append(workflows, fmt.Sprintf("    // %s: the child workflow's worker, deployed on its own (see README.md)\n    { \"binding\": %s, \"name\": %s, \"class_name\": %s, \"script_name\": %s }",
				bd.Name, q(bd.Name), q(bd.WorkflowName), q(bd.ClassName), q(bd.ScriptName)))
		case codegen.BindingKV:
			kv = append(kv, fmt.Sprintf("    { \"binding\": %s, \"id\": %s }", q(bd.Name), q(orFillIn(bd.Target, "the KV namespace's id"))))
		case codegen.BindingD1:
			d1 = append(d1, fmt.Sprintf("    { \"binding\": %s, \"database_name\": %s, \"database_id\": %s }", q(bd.Name), q(strings.ToLower(strings.ReplaceAll(bd.Name, "_", "-"))), q(orFillIn(bd.Target, "the D1 database's id"))))
		case codegen.BindingR2:
			r2 = append(r2, fmt.Sprintf("    { \"binding\": %s, \"bucket_name\": %s }", q(bd.Name), q(orFillIn(bd.Target, "the R2 bucket's name"))))
		case codegen.BindingService:
			services = append(services, fmt.Sprintf("    { \"binding\": %s, \"service\": %s }", q(bd.Name), q(orFillIn(bd.Target, "the service's worker name"))))
		}
	}
	section := func(key string, entries []string) {
		if len(entries) == 0 {
			return
		}
		fmt.Fprintf(&b, "  %q: [\n%s\n  ],\n", key, strings.Join(entries, ",\n"))
	}
	section("workflows", workflows)
	section("kv_namespaces", kv)
	section("d1_databases", d1)
	section("r2_buckets", r2)
	section("services", services)
	if len(vars) > 0 {
		b.WriteString("  // The workflow's variables: set their values here (secrets are not listed: see README.md).\n")
		b.WriteString("  \"vars\": {\n")
		for i, v := range vars {
			sep := ","
			if i == len(vars)-1 {
				sep = ""
			}
			fmt.Fprintf(&b, "    %s: \"\"%s\n", q(v), sep)
		}
		b.WriteString("  },\n")
	}
	if len(out.Crons) > 0 {
		crons, _ := json.Marshal(out.Crons)
		fmt.Fprintf(&b, "  \"triggers\": { \"crons\": %s },\n", crons)
	}
	b.WriteString("  \"observability\": { \"enabled\": true }\n")
	b.WriteString("}\n")
	return b.String()
}

func orFillIn(v, what string) string {
	if v != "" {
		return v
	}
	return FillIn + ": " + what
}

// oneLine keeps a name on one comment line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// packageJSON names the workflow's npm dependencies (and its marketplace
// templates') and wrangler.
func packageJSON(name string, deps map[string]string) ([]byte, error) {
	type pkg struct {
		Name            string            `json:"name"`
		Private         bool              `json:"private"`
		Type            string            `json:"type"`
		Scripts         map[string]string `json:"scripts"`
		Dependencies    map[string]string `json:"dependencies,omitempty"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	raw, err := json.MarshalIndent(pkg{Name: name, Private: true, Type: "module",
		Scripts:      map[string]string{"deploy": "wrangler deploy", "dev": "wrangler dev"},
		Dependencies: deps, DevDependencies: map[string]string{"wrangler": WranglerVersion}}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(raw, '\n'), nil
}

// Archive writes the project as a gzipped tar, its files at the archive's
// root in path order, each with mode 0644 and the given time, so that the
// same project gives the same bytes.
func (p *Project) Archive(mod time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	paths := make([]string, 0, len(p.Files))
	for path := range p.Files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	dirs := map[string]bool{}
	for _, path := range paths {
		for i := 0; i < len(path); i++ {
			if path[i] == '/' && !dirs[path[:i]] {
				dirs[path[:i]] = true
				if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: path[:i] + "/", Mode: 0o755, ModTime: mod, Format: tar.FormatPAX}); err != nil {
					return nil, err
				}
			}
		}
		data := p.Files[path]
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: path, Mode: 0o644, Size: int64(len(data)), ModTime: mod, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
