package api_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPublicTriggerConfig: deployConfig.publicTrigger is stored on a
// workflow and refused on a function (whose url is public already); another
// tenant cannot read a trigger secret; a workflow not deployed has none.
func TestPublicTriggerConfig(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := "/api/workflows/" + w.a.workflowID

	r := w.do("PATCH", path, `{"deployConfig":{"publicTrigger":true}}`, w.a.keyAll)
	if r.status != 200 {
		t.Fatalf("PATCH publicTrigger: %d %s", r.status, r.body)
	}
	var got struct {
		DeployConfig map[string]any `json:"deployConfig"`
	}
	r = w.do("GET", path, "", w.a.keyAll)
	if err := json.Unmarshal(r.body, &got); err != nil || got.DeployConfig["publicTrigger"] != true {
		t.Fatalf("GET after PATCH: deployConfig %v (%s)", got.DeployConfig, r.body)
	}
	r = w.do("PATCH", path, `{"deployConfig":{"publicTrigger":false}}`, w.a.keyAll)
	if r.status != 200 {
		t.Fatalf("PATCH publicTrigger false: %d %s", r.status, r.body)
	}
	got.DeployConfig = nil
	r = w.do("GET", path, "", w.a.keyAll)
	if err := json.Unmarshal(r.body, &got); err != nil || got.DeployConfig["publicTrigger"] != nil {
		t.Fatalf("GET after turning it off: deployConfig %v (%s)", got.DeployConfig, r.body)
	}

	r = w.do("POST", "/api/workflows", `{"name":"fn","kind":"script"}`, w.a.keyAll)
	if r.status != 201 {
		t.Fatalf("create function: %d %s", r.status, r.body)
	}
	fn := r.json(t)["id"].(string)
	checkError(t, w.do("PATCH", "/api/workflows/"+fn, `{"deployConfig":{"publicTrigger":true}}`, w.a.keyAll),
		422, "validation_failed", "/deployConfig/publicTrigger")

	secretPath := path + "/trigger-secret?connectionId=" + w.a.connectionID
	checkError(t, w.do("GET", secretPath, "", w.a.keyRead), 403, "forbidden", "")
	checkError(t, w.do("GET", secretPath, "", w.b.keyAll), 404, "not_found", "")
	checkError(t, w.do("GET", path+"/trigger-secret", "", w.a.keyAll), 422, "validation_failed", "?connectionId")
	checkError(t, w.do("GET", secretPath, "", w.a.keyAll), 409, "conflict", "")
}

// TestSignedTriggerRefusals: edgeflow's signed trigger (no credential)
// refuses a body over 100 KB before reading more, a bad query, and every
// request that does not verify with one 401, whether or not the workflow
// exists or is deployed (internal/e2e's TestSignedTriggerFlowControl signs
// real ones).
func TestSignedTriggerRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := "/api/workflows/" + w.a.workflowID + "/signed-trigger?connectionId=" + w.a.connectionID
	big := `{"name":"` + strings.Repeat("x", 100*1024) + `"}`
	checkError(t, w.do("POST", path, big, cred{}), 413, "payload_too_large", "")
	checkError(t, w.do("POST", path+"&queue=maybe", `{}`, cred{}), 422, "validation_failed", "?queue")
	checkError(t, w.do("POST", "/api/workflows/"+w.a.workflowID+"/signed-trigger", `{}`, cred{}), 422, "validation_failed", "?connectionId")
	unsigned := w.do("POST", path, `{}`, cred{})
	checkError(t, unsigned, 401, "unauthorized", "")
	other := w.do("POST", "/api/workflows/wf_000000000000000000000000/signed-trigger?connectionId="+w.a.connectionID, `{}`, cred{})
	checkError(t, other, 401, "unauthorized", "")
	stale := w.doHeader("POST", path, `{}`, cred{}, "X-Edgeflow-Timestamp", "1")
	checkError(t, stale, 401, "unauthorized", "")
	if strings.Contains(string(stale.body), w.a.workflowID) || strings.Contains(string(other.body), "wf_000000000000000000000000") {
		t.Errorf("a refusal names the workflow: %s / %s", stale.body, other.body)
	}
}
