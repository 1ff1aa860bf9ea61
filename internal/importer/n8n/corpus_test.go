package n8n_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/importer"
	"github.com/edgeflow/edgeflow/internal/importer/n8n"
)

var update = flag.Bool("update", false, "rewrite the corpus's .report.json files")

// corpusDir holds real public n8n workflows, each with its source beside it
// (NAME.source.json), the report its import must give (NAME.report.json)
// and, for those that use only supported nodes, what n8n output for each
// node (NAME.expected.json, made by n8n-expected.mjs) with the request the
// run starts from (NAME.input.json).
var corpusDir = filepath.Join("testdata", "corpus")

// corpus lists the workflow files of the corpus.
func corpus(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		base := filepath.Base(f)
		if strings.Count(base, ".") == 1 {
			out = append(out, f)
		}
	}
	return out
}

// TestCorpus imports every workflow of the corpus: the IR validates against
// the builtins and the embedded registry's nodes, every n8n node is in the
// report (converted, or unsupported with a reason), and the report is the
// one recorded beside the workflow (go test -update rewrites them).
func TestCorpus(t *testing.T) {
	t.Parallel()
	files := corpus(t)
	if len(files) < 30 {
		t.Fatalf("the corpus holds %d workflows; it must hold at least 30", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var src struct {
				Repo, Path, Commit string
			}
			readJSON(t, strings.TrimSuffix(f, ".json")+".source.json", &src)
			if src.Repo == "" || src.Path == "" || len(src.Commit) != 40 {
				t.Fatalf("%s.source.json must name the repo, path and commit the file comes from", name)
			}
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			res, _ := convert(t, string(raw), n8n.Options{})
			var wf struct {
				Nodes []struct{ Name string } `json:"nodes"`
			}
			if err := json.Unmarshal(raw, &wf); err != nil {
				t.Fatal(err)
			}
			listed := map[string]int{}
			for _, c := range res.Report.Converted {
				listed[c.N8nNode]++
				if len(c.NodeIDs) == 0 {
					t.Errorf("converted %q lists no IR node", c.N8nNode)
				}
			}
			for _, u := range res.Report.Unsupported {
				if u.Type != "connection" {
					listed[u.N8nNode]++
				}
				if u.Reason == "" {
					t.Errorf("unsupported %q without a reason", u.N8nNode)
				}
			}
			for _, n := range wf.Nodes {
				if listed[n.Name] != 1 {
					t.Errorf("node %q is listed %d times in the report (converted or unsupported: exactly once)", n.Name, listed[n.Name])
				}
			}
			checkReport(t, strings.TrimSuffix(f, ".json")+".report.json", res.Report)
		})
	}
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// checkReport compares a report with the one recorded in path.
func checkReport(t *testing.T, path string, rep importer.Report) {
	t.Helper()
	got, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run TestCorpus -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the report differs from %s (go test -update rewrites it after review):\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lineDiff lists the lines only one of a and b has.
func lineDiff(a, b string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	var out []string
	for l, n := range ca {
		if cb[l] < n {
			out = append(out, "- "+l)
		}
	}
	for l, n := range cb {
		if ca[l] < n {
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
