package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestBulkSelectedRuns: a bulk filter may name the runs by id (Studio's
// selection): each once, in the order given; with another filter field,
// over 1,000 ids, or naming a run of another project it is refused with
// the path of the bad field, and nothing is started.
func TestBulkSelectedRuns(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, b := w.a, w.b
	mine, theirs := w.fixtureRun(a), w.fixtureRun(b)

	body := fmt.Sprintf(`{"action":"terminate","dryRun":true,"filter":{"runIds":[%q,%q]}}`, mine, mine)
	got := w.must(202, "POST", "/api/runs/bulk", body, a.keyAll).json(t)
	if got["matched"] != 1.0 || fmt.Sprint(got["runIds"]) != "["+mine+"]" {
		t.Errorf("dry run of a selection = %v, want the one run once", got)
	}

	// The attack: another project's run, by id, is not acted on nor confirmed.
	body = fmt.Sprintf(`{"action":"delete","filter":{"runIds":[%q,%q]}}`, mine, theirs)
	checkError(t, w.do("POST", "/api/runs/bulk", body, a.keyAll), 422, "validation_failed", "/filter/runIds/1")
	body = fmt.Sprintf(`{"action":"delete","filter":{"runIds":[%q],"status":"complete"}}`, mine)
	checkError(t, w.do("POST", "/api/runs/bulk", body, a.keyAll), 422, "validation_failed", "/filter/runIds")
	many := `"` + strings.Repeat(mine+`","`, 1000) + mine + `"`
	checkError(t, w.do("POST", "/api/runs/bulk", `{"action":"delete","filter":{"runIds":[`+many+`]}}`, a.keyAll), 422, "validation_failed", "/filter/runIds")
}
