package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// builtFor is a version that shows its number, as a submitted version does
// (metadata.version in the IR, the header of the code).
func builtFor(n int) *edgeflow.Version {
	return &edgeflow.Version{IR: json.RawMessage(fmt.Sprintf(`{"metadata":{"version":%d}}`, n)),
		Code: fmt.Sprintf("// version %d.\nexport {}", n), NodeTypes: []string{"slack-message@2.0.0"}}
}

// testSubmitVersion: SubmitVersion hands build the number it stores the
// version with, an error from build stores nothing and uses no number, and
// an unknown workflow is ENotFound without calling build.
func testSubmitVersion(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")

	var asked []int
	v1, err := s.SubmitVersion(ctx, w.ID, func(n int) (*edgeflow.Version, error) {
		asked = append(asked, n)
		v := builtFor(n)
		v.ID, v.WorkflowID, v.Number = "ver_ignored", "wf_ignored", 99 // the store sets these
		v.CreatedBy = tn.user.ID
		return v, nil
	})
	must(t, err)
	if len(asked) != 1 || asked[0] != 1 || v1.Number != 1 || v1.WorkflowID != w.ID || v1.ID == "ver_ignored" {
		t.Fatalf("first submission: build asked for %v, stored %+v", asked, v1)
	}
	got, err := s.FindVersionByID(ctx, w.ID, v1.ID)
	must(t, err)
	diff(t, "submitted version", got, v1)

	refused := errors.New("refused by build")
	_, err = s.SubmitVersion(ctx, w.ID, func(int) (*edgeflow.Version, error) { return nil, refused })
	if !errors.Is(err, refused) {
		t.Fatalf("build error: got %v, want it returned as is", err)
	}
	v2, err := s.SubmitVersion(ctx, w.ID, func(n int) (*edgeflow.Version, error) { return builtFor(n), nil })
	must(t, err)
	if v2.Number != 2 {
		t.Errorf("number after a refused build %d, want 2 (the refused build used none)", v2.Number)
	}
	wf, err := s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
	must(t, err)
	if wf.CurrentVersionID != v2.ID {
		t.Errorf("current version %q, want %q", wf.CurrentVersionID, v2.ID)
	}
	page, err := s.ListVersions(ctx, w.ID, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "versions after a refused build", ids(page.Items, func(v edgeflow.Version) string { return v.ID }),
		[]string{v2.ID, v1.ID})

	called := false
	_, err = s.SubmitVersion(ctx, "wf_missing", func(n int) (*edgeflow.Version, error) {
		called = true
		return builtFor(n), nil
	})
	wantCode(t, "SubmitVersion unknown workflow", err, edgeflow.ENotFound)
	if called {
		t.Error("build called for an unknown workflow")
	}
}

// RunReplicas runs the cases that need two stores on one database, as two
// replicas of the service have. open must return two stores opened
// separately (each its own connections) on one fresh, empty database and
// arrange for both to be closed when the test ends.
func RunReplicas(t *testing.T, open func(t *testing.T) (a, b edgeflow.Store)) {
	cases := []struct {
		name string
		fn   func(t *testing.T, a, b edgeflow.Store)
	}{
		{"VersionNumbersAcrossReplicas", testVersionNumbersAcrossReplicas},
		{"VersionGapsOnlyFromDeletes", testVersionGapsOnlyFromDeletes},
		{"RunClaimsAcrossReplicas", testRunClaimsAcrossReplicas},
		{"SignInClaimsAcrossReplicas", testSignInClaimsAcrossReplicas},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			a, b := open(t)
			c.fn(t, a, b)
		})
	}
}

// testVersionNumbersAcrossReplicas submits versions of one workflow from
// many goroutines through both stores at once: every submission succeeds,
// the numbers are 1..n, and each version holds what was built for its
// number.
func testVersionNumbersAcrossReplicas(t *testing.T, a, b edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, a)
	w := newWorkflow(t, a, tn.project.ID, "w")
	const n = 60
	stores := []edgeflow.Store{a, b}
	got := make([]*edgeflow.Version, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			got[i], errs[i] = stores[i%2].SubmitVersion(ctx, w.ID, func(num int) (*edgeflow.Version, error) {
				return builtFor(num), nil
			})
		})
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	nums := make([]int, n)
	for i, v := range got {
		nums[i] = v.Number
	}
	sort.Ints(nums)
	for i, num := range nums {
		if num != i+1 {
			t.Fatalf("numbers %v, want 1..%d", nums, n)
		}
	}
	for i, v := range got {
		stored, err := stores[(i+1)%2].FindVersionByID(ctx, w.ID, v.ID)
		must(t, err)
		want := builtFor(v.Number)
		if string(stored.IR) != string(want.IR) || stored.Code != want.Code {
			t.Errorf("version %d holds IR %s and code %q, built for another number", v.Number, stored.IR, stored.Code)
		}
	}
	for _, s := range stores {
		wf, err := s.FindWorkflowByID(ctx, tn.project.ID, w.ID)
		must(t, err)
		page, err := s.ListVersions(ctx, w.ID, edgeflow.ListOptions{Limit: 1})
		must(t, err)
		if page.Items[0].Number != n || wf.CurrentVersionID != page.Items[0].ID {
			t.Errorf("current version %q, highest %+v; want the highest, number %d", wf.CurrentVersionID, page.Items[0], n)
		}
	}
}

// testVersionGapsOnlyFromDeletes alternates submissions between the stores
// with deletes in between: numbers continue after the highest ever given,
// and the only missing numbers are the deleted versions'.
func testVersionGapsOnlyFromDeletes(t *testing.T, a, b edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, a)
	w := newWorkflow(t, a, tn.project.ID, "w")
	stores := []edgeflow.Store{a, b}
	submit := func(i int) *edgeflow.Version {
		t.Helper()
		v, err := stores[i%2].SubmitVersion(ctx, w.ID, func(num int) (*edgeflow.Version, error) { return builtFor(num), nil })
		must(t, err)
		return v
	}
	var vs []*edgeflow.Version
	for i := range 5 {
		vs = append(vs, submit(i))
	}
	for i, v := range vs {
		if v.Number != i+1 {
			t.Fatalf("sequential submissions alternating stores: version %d numbered %d", i+1, v.Number)
		}
	}
	// A middle version goes, then the highest once a newer one is current
	// (the current version cannot be deleted); no number is given again.
	must(t, b.DeleteVersion(ctx, w.ID, vs[2].ID))
	v6 := submit(1)
	must(t, a.DeleteVersion(ctx, w.ID, vs[4].ID))
	v7 := submit(0)
	if v6.Number != 6 || v7.Number != 7 {
		t.Fatalf("numbers after deleting 3 and 5: %d, %d; want 6, 7 (never reused)", v6.Number, v7.Number)
	}
	for _, s := range stores {
		page, err := s.ListVersions(ctx, w.ID, edgeflow.ListOptions{})
		must(t, err)
		var nums []int
		for _, v := range page.Items {
			nums = append(nums, v.Number)
		}
		diff(t, "numbers after deletes", nums, []int{7, 6, 4, 2, 1})
	}
}
