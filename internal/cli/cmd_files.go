package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// manifestFile is the manifest pull writes beside the workflows directory.
const manifestFile = "edgeflow.json"

// manifest maps the files of a directory to the project's workflows and
// records what else defines them (never a secret's value).
type manifest struct {
	Project   manifestProject              `json:"project"`
	Workflows map[string]*manifestWorkflow `json:"workflows"`
}

type manifestProject struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// manifestWorkflow is one workflow, keyed by name in the manifest.
type manifestWorkflow struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Description string `json:"description,omitempty"`
	// File is the IR's path relative to the manifest ("" when the workflow
	// has no version yet).
	File string `json:"file,omitempty"`
	// Version is the number of the version the file was pulled from or
	// pushed as.
	Version      int             `json:"version,omitempty"`
	EnvVars      []string        `json:"envVars"`
	SecretVars   []string        `json:"secretEnvVars,omitempty"`
	Dependencies json.RawMessage `json:"dependencies,omitempty"`
	TriggerCode  string          `json:"triggerCode,omitempty"`
	DeployConfig json.RawMessage `json:"deployConfig,omitempty"`
}

func pullCommand() *command {
	return &command{
		name: "pull", summary: "write the project's workflows as files for Git", maxArgs: 0,
		about: `Writes each workflow's current version to workflows/<name>.ir.json (sorted keys, two-space indent,
a final newline, no timestamps: pulling twice gives the same bytes) and a manifest, edgeflow.json, with the
workflow ids, env var names, dependencies, trigger code and deploy config (never a secret's value). Files of
workflows that no longer exist are removed.`,
		flags:    []flagDef{{name: "dir", short: "C", value: "DIR", usage: "the directory to write to (default: the current one)"}},
		examples: []string{"edgeflow pull", "edgeflow pull --dir infra/edgeflow && git -C infra/edgeflow diff"},
		run:      runPull,
	}
}

// fileName is a workflow name made safe as a file name.
func fileName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), ".")
	if s == "" {
		s = "workflow"
	}
	return s
}

func runPull(c *call) error {
	dir := c.flag("dir")
	if dir == "" {
		dir = "."
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	who, err := whoami(c, cl)
	if err != nil {
		return err
	}
	if who.Project == nil {
		return failed("no project selected: edgeflow use project NAME")
	}
	old, _ := readManifest(dir)
	all, err := listAll[workflow](c.ctx, cl, "/api/workflows", nil, 0)
	if err != nil {
		return err
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	m := manifest{Project: manifestProject{ID: who.Project.ID, Name: who.Project.Name}, Workflows: map[string]*manifestWorkflow{}}
	used := map[string]string{}
	written := 0
	for i := range all {
		w := &all[i]
		entry := manifestEntry(w)
		v, err := currentVersion(c.ctx, cl, w)
		if err != nil {
			return err
		}
		if v != nil {
			file := "workflows/" + fileName(w.Name) + ".ir.json"
			if other, taken := used[file]; taken {
				return failed("workflows %q and %q would both be written to %s: rename one", other, w.Name, file)
			}
			used[file] = w.Name
			ir, err := canonicalIR(v.IR)
			if err != nil {
				return fmt.Errorf("workflow %q version %d: %w", w.Name, v.Version, err)
			}
			if err := writeFileIfChanged(filepath.Join(dir, filepath.FromSlash(file)), ir); err != nil {
				return err
			}
			entry.File, entry.Version = file, v.Version
			written++
		}
		m.Workflows[w.Name] = entry
	}
	if old != nil {
		for name, e := range old.Workflows {
			if e.File == "" {
				continue
			}
			if _, still := used[e.File]; still {
				continue
			}
			err := os.Remove(filepath.Join(dir, filepath.FromSlash(e.File)))
			if err == nil {
				fmt.Fprintf(c.out(), "Removed %s (workflow %q no longer exists).\n", e.File, name)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	if err := writeManifest(dir, &m); err != nil {
		return err
	}
	fmt.Fprintf(c.out(), "Pulled %d workflows (%d with a version) of project %q into %s.\n", len(all), written, who.Project.Name, dir)
	return nil
}

// manifestEntry describes w for the manifest.
func manifestEntry(w *workflow) *manifestWorkflow {
	e := &manifestWorkflow{ID: w.ID, Kind: w.Kind, Description: w.Description, EnvVars: []string{}, TriggerCode: w.TriggerCode}
	for _, v := range w.EnvVars {
		e.EnvVars = append(e.EnvVars, v.Name)
		if v.IsSecret {
			e.SecretVars = append(e.SecretVars, v.Name)
		}
	}
	if len(w.Dependencies) > 0 {
		e.Dependencies, _ = json.Marshal(w.Dependencies)
	}
	if w.DeployConfig != nil && *w.DeployConfig != (edgeflow.DeployConfig{}) {
		e.DeployConfig, _ = json.Marshal(w.DeployConfig)
	}
	return e
}

// writeFileIfChanged writes data unless the file already holds it (so that
// pulling twice leaves modification times alone).
func writeFileIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func readManifest(dir string) (*manifest, error) {
	raw, err := os.ReadFile(filepath.Join(dir, manifestFile))
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, manifestFile), err)
	}
	if m.Workflows == nil {
		m.Workflows = map[string]*manifestWorkflow{}
	}
	return &m, nil
}

func writeManifest(dir string, m *manifest) error {
	// Compact then re-indent with sorted keys: json.RawMessage fields keep
	// the server's key order otherwise.
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	canon, err := canonicalJSON(raw)
	if err != nil {
		return err
	}
	return writeFileIfChanged(filepath.Join(dir, manifestFile), canon)
}

// canonicalJSON re-encodes a JSON value with sorted keys, a two-space
// indent and a final newline.
func canonicalJSON(raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func pushCommand() *command {
	return &command{
		name: "push", summary: "create versions from changed IR files", args: "[FILES]", minArgs: 0, maxArgs: -1,
		about: `Reads the given *.ir.json files (none: every workflows/*.ir.json of the directory), maps each to its
workflow through edgeflow.json (a file the manifest does not know creates a workflow named after it), and
checks every changed file with the server's validator (POST /api/ir/validate). Only when all of them are
valid does it create a version for each workflow whose IR changed; unchanged files create nothing.
--dry-run names the workflows that would get a version and changes nothing.`,
		flags: []flagDef{
			{name: "dir", short: "C", value: "DIR", usage: "the directory holding edgeflow.json (default: the current one)"},
			{name: "dry-run", short: "n", usage: "only say what would change"},
		},
		examples: []string{"edgeflow push", "edgeflow push workflows/orders.ir.json", "edgeflow push --dry-run"},
		run:      runPush,
	}
}

// pushItem is one file push looks at.
type pushItem struct {
	file     string // as the user named it
	rel      string // relative to the manifest's directory, slash-separated
	name     string // the workflow's name
	entry    *manifestWorkflow
	ir       []byte // canonical
	current  *version
	workflow *workflow
}

func runPush(c *call) error {
	dir := c.flag("dir")
	if dir == "" {
		dir = "."
	}
	m, err := readManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return failed("no %s in %s: run edgeflow pull first", manifestFile, dir)
	}
	if err != nil {
		return err
	}
	files := c.args
	if len(files) == 0 {
		files, _ = filepath.Glob(filepath.Join(dir, "workflows", "*.ir.json"))
		sort.Strings(files)
		if len(files) == 0 {
			return failed("no workflows/*.ir.json in %s", dir)
		}
	}
	byFile := map[string]string{}
	for name, e := range m.Workflows {
		if e.File != "" {
			byFile[e.File] = name
		}
	}
	var items []*pushItem
	bad := false
	for _, f := range files {
		it, err := readPushItem(dir, f, m, byFile)
		if err != nil {
			fmt.Fprintf(c.env.Stderr, "%s: %v\n", f, err)
			bad = true
			continue
		}
		items = append(items, it)
	}
	if bad {
		return failed("some files could not be read: nothing pushed")
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	// Find what changed, then validate every changed file before creating
	// anything.
	var changed []*pushItem
	for _, it := range items {
		if it.entry != nil && it.entry.ID != "" {
			var w workflow
			err := cl.request(c.ctx, http.MethodGet, "/api/workflows/"+it.entry.ID, nil, nil, &w)
			if isStatus(err, http.StatusNotFound) {
				return notFound("%s: workflow %q (%s) no longer exists: run edgeflow pull", it.file, it.name, it.entry.ID)
			}
			if err != nil {
				return err
			}
			it.workflow = &w
			if it.current, err = currentVersion(c.ctx, cl, &w); err != nil {
				return err
			}
		}
		if it.current != nil {
			cur, err := canonicalIR(it.current.IR)
			if err != nil {
				return err
			}
			if bytes.Equal(cur, it.ir) {
				continue
			}
		}
		changed = append(changed, it)
	}
	for _, it := range changed {
		req := map[string]any{"ir": json.RawMessage(it.ir)}
		if it.workflow != nil {
			req["workflowId"] = it.workflow.ID
		}
		var res edgeflow.IRValidation
		if err := cl.request(c.ctx, http.MethodPost, "/api/ir/validate", nil, req, &res); err != nil {
			return err
		}
		for _, p := range res.Errors {
			where := p.Path
			if where == "" {
				where = "/"
			}
			if p.NodeID != "" {
				where += " (node " + p.NodeID + ")"
			}
			fmt.Fprintf(c.env.Stderr, "%s: %s: %s\n", it.file, where, p.Message)
		}
		if !res.Valid {
			bad = true
		}
	}
	if bad {
		return failed("invalid IR: nothing pushed")
	}
	if len(changed) == 0 {
		fmt.Fprintln(c.out(), "Everything is up to date: no workflow gets a version.")
		return nil
	}
	for _, it := range changed {
		next := 1
		if it.current != nil {
			next = it.current.Version + 1
		}
		if c.has("dry-run") {
			if it.workflow == nil {
				fmt.Fprintf(c.out(), "%s: would create workflow %q with version 1\n", it.file, it.name)
			} else {
				fmt.Fprintf(c.out(), "%s: workflow %q would get version %d\n", it.file, it.name, next)
			}
			continue
		}
		if it.workflow == nil {
			var w workflow
			if err := cl.request(c.ctx, http.MethodPost, "/api/workflows", nil, map[string]string{"name": it.name, "kind": irKind(it.ir)}, &w); err != nil {
				return fmt.Errorf("%s: creating workflow %q: %w", it.file, it.name, err)
			}
			it.workflow = &w
			it.entry = manifestEntry(&w)
			m.Workflows[it.name] = it.entry
			fmt.Fprintf(c.out(), "%s: created workflow %q (%s)\n", it.file, w.Name, w.ID)
		}
		var v versionSummary
		if err := cl.request(c.ctx, http.MethodPost, "/api/workflows/"+it.workflow.ID+"/versions", nil, map[string]any{"ir": json.RawMessage(it.ir)}, &v); err != nil {
			return fmt.Errorf("%s: %w", it.file, err)
		}
		it.entry.File, it.entry.Version = it.rel, v.Version
		fmt.Fprintf(c.out(), "%s: workflow %q version %d\n", it.file, it.name, v.Version)
	}
	if c.has("dry-run") {
		return nil
	}
	return writeManifest(dir, m)
}

// readPushItem reads and checks one file and finds its workflow in the
// manifest.
func readPushItem(dir, file string, m *manifest, byFile map[string]string) (*pushItem, error) {
	if !strings.HasSuffix(file, ".ir.json") {
		return nil, fmt.Errorf("not an IR file (*.ir.json)")
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(absDir, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("outside %s, the directory of %s", dir, manifestFile)
	}
	rel = filepath.ToSlash(rel)
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	ir, err := canonicalIR(raw)
	if err != nil {
		return nil, err
	}
	it := &pushItem{file: file, rel: rel, ir: ir}
	if name, ok := byFile[rel]; ok {
		it.name, it.entry = name, m.Workflows[name]
	} else {
		it.name = strings.TrimSuffix(filepath.Base(file), ".ir.json")
		if e, ok := m.Workflows[it.name]; ok && e.File != "" && e.File != rel {
			return nil, fmt.Errorf("workflow %q is already kept in %s", it.name, e.File)
		}
		it.entry = m.Workflows[it.name]
	}
	return it, nil
}

// irKind is the kind an IR declares ("kind"; a workflow without it).
func irKind(ir []byte) string {
	var v struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(ir, &v) == nil && v.Kind == "script" {
		return "script"
	}
	return "workflow"
}
