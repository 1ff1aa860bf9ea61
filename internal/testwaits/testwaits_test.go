package testwaits_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// wait is one wall-clock wait found in a test: its file (relative to the repository, with slashes) and its
// source line, trimmed.
type wait struct{ file, line string }

func (w wait) String() string { return w.file + " | " + w.line }

// TestNoNewSleeps fails on every time.Sleep of a Go test file outside a synctest bubble, and every waitForTimeout
// of a test file of web/ or edge/, that allowlist.txt does not list, and on every entry of allowlist.txt that
// matches nothing any more (remove it with the wait it excused).
func TestNoNewSleeps(t *testing.T) {
	t.Parallel()
	root := testenv.Root()
	var found []wait
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if name == "node_modules" || name == ".git" || name == "dist" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasSuffix(name, "_test.go"):
			w, err := goSleeps(path, rel)
			if err != nil {
				return err
			}
			found = append(found, w...)
		case (strings.HasPrefix(rel, "web/") || strings.HasPrefix(rel, "edge/")) && jsTest(rel):
			w, err := jsWaits(path, rel)
			if err != nil {
				return err
			}
			found = append(found, w...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	allowed, err := readAllowList(filepath.Join(root, "internal", "testwaits", "allowlist.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var unlisted []string
	for _, w := range found {
		if allowed[w] > 0 {
			allowed[w]--
			continue
		}
		unlisted = append(unlisted, w.String())
	}
	var stale []string
	for w, n := range allowed {
		for range n {
			stale = append(stale, w.String())
		}
	}
	sort.Strings(stale)
	if len(unlisted) > 0 {
		t.Errorf("tests wait on a clock (wait on a fact instead: testenv.WaitFor, a poll of the state, synctest; or list the line "+
			"in internal/testwaits/allowlist.txt with the reason it must stay):\n\t%s", strings.Join(unlisted, "\n\t"))
	}
	if len(stale) > 0 {
		t.Errorf("internal/testwaits/allowlist.txt lists waits that are gone; remove these entries:\n\t%s", strings.Join(stale, "\n\t"))
	}
}

// jsTest reports whether a file of web/ or edge/ is a test: *.test.* and *.spec.* files, and the files of test
// and browser directories.
func jsTest(rel string) bool {
	ext := filepath.Ext(rel)
	switch ext {
	case ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx":
	default:
		return false
	}
	base := filepath.Base(rel)
	if strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") {
		return true
	}
	for _, dir := range strings.Split(filepath.Dir(rel), "/") {
		if dir == "test" || dir == "tests" || dir == "browser" || dir == "e2e" {
			return true
		}
	}
	return false
}

// jsWaits lists the lines of a JavaScript test that call waitForTimeout.
func jsWaits(path, rel string) ([]wait, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []wait
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.Contains(line, "waitForTimeout(") {
			out = append(out, wait{rel, line})
		}
	}
	return out, sc.Err()
}

// goSleeps lists the lines of a Go test file that call time.Sleep outside a function given to synctest.Test.
func goSleeps(path, rel string) ([]wait, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	timeName, synctestName := importName(file, "time"), importName(file, "testing/synctest")
	if timeName == "" {
		return nil, nil
	}
	lines := strings.Split(string(src), "\n")
	var out []wait
	var stack []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		call, ok := n.(*ast.CallExpr)
		if !ok || !isCall(call, timeName, "Sleep") || inBubble(stack, synctestName) {
			return true
		}
		line := fset.Position(call.Pos()).Line
		out = append(out, wait{rel, strings.TrimSpace(lines[line-1])})
		return true
	})
	return out, nil
}

// importName is the name path is imported as in file ("" when it is not imported).
func importName(file *ast.File, path string) string {
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return path[strings.LastIndex(path, "/")+1:]
		}
	}
	return ""
}

// isCall reports whether call calls pkg.fn.
func isCall(call *ast.CallExpr, pkg, fn string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != fn {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// inBubble reports whether the innermost nodes of stack sit in a function literal given to synctest.Test.
func inBubble(stack []ast.Node, synctestName string) bool {
	if synctestName == "" {
		return false
	}
	for i := len(stack) - 1; i > 0; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		if call, ok := stack[i-1].(*ast.CallExpr); ok && isCall(call, synctestName, "Test") {
			for _, arg := range call.Args {
				if arg == lit {
					return true
				}
			}
		}
	}
	return false
}

// readAllowList reads the allow-list: one entry per line, "file | source line | reason" (the source line trimmed,
// as it stands in the file); # starts a comment. An entry excuses one occurrence of its line in its file; an
// entry without a reason is an error.
func readAllowList(path string) (map[wait]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[wait]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.SplitN(text, " | ", 3)
		if len(parts) != 3 || strings.TrimSpace(parts[2]) == "" {
			return nil, fmt.Errorf("%s:%d: want \"file | source line | reason\", got %q", path, n, text)
		}
		out[wait{strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])}]++
	}
	return out, sc.Err()
}

// TestGoSleeps: a time.Sleep is found under any import name of time, except inside the function given to
// synctest.Test (where it moves the bubble's clock); a function merely named Test, or a Sleep of another package,
// is not taken for them.
func TestGoSleeps(t *testing.T) {
	t.Parallel()
	src := `package x_test

import (
	"testing"
	"testing/synctest"
	clock "time"
)

func TestA(t *testing.T) {
	clock.Sleep(clock.Second) // outside
	synctest.Test(t, func(t *testing.T) {
		clock.Sleep(clock.Hour)
		go func() { clock.Sleep(clock.Minute) }()
	})
	other.Test(t, func(t *testing.T) { clock.Sleep(2 * clock.Second) })
	fake.Sleep(3)
}
`
	path := filepath.Join(t.TempDir(), "x_test.go")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := goSleeps(path, "x_test.go")
	if err != nil {
		t.Fatal(err)
	}
	want := []wait{{"x_test.go", "clock.Sleep(clock.Second) // outside"}, {"x_test.go", "other.Test(t, func(t *testing.T) { clock.Sleep(2 * clock.Second) })"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("goSleeps = %v, want %v", got, want)
	}
}

// TestAllowListNeedsReasons: an entry without its reason is refused.
func TestAllowListNeedsReasons(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "allowlist.txt")
	if err := os.WriteFile(path, []byte("# comment\na_test.go | time.Sleep(time.Second) |  \n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readAllowList(path); err == nil {
		t.Error("an entry without a reason was accepted")
	}
	if err := os.WriteFile(path, []byte("a_test.go | time.Sleep(time.Second) | why\na_test.go | time.Sleep(time.Second) | why too\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := readAllowList(path)
	if err != nil || got[wait{"a_test.go", "time.Sleep(time.Second)"}] != 2 {
		t.Errorf("readAllowList = %v, %v; want the line twice", got, err)
	}
}
