package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateCommand(t *testing.T) {
	t.Parallel()
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), append([]string{"validate"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	cases := "../../internal/ir/testdata/cases/"
	if code, out, errOut := run(cases + "valid-workflow.ir.json"); code != 0 || out != "valid\n" {
		t.Errorf("valid IR: code %d, %q %q", code, out, errOut)
	}
	code, out, _ := run(cases + "node-data-json.ir.json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 || !strings.Contains(lines[0], "/nodes/1/data/headers (node fetch):") || !strings.HasSuffix(lines[0], "[node-data]") {
		t.Errorf("invalid IR: code %d, %q", code, out)
	}
	code, out, _ = run("-json", cases+"cron.ir.json")
	var problems []map[string]string
	if err := json.Unmarshal([]byte(out), &problems); err != nil || code != 1 || len(problems) != 1 ||
		problems[0]["path"] != "/trigger/expression" || problems[0]["rule"] != "cron" {
		t.Errorf("-json: code %d, %s (%v)", code, out, err)
	}
	if code, out, _ := run("-json", cases+"valid-function.ir.json"); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("-json valid: code %d, %q", code, out)
	}
	if code, _, _ := run(); code != 2 {
		t.Errorf("no file: code %d, want 2", code)
	}
	if code, _, errOut := run("missing.ir.json"); code != 1 || !strings.Contains(errOut, "missing.ir.json") {
		t.Errorf("missing file: code %d, %q", code, errOut)
	}
}
