package api_test

import (
	"encoding/json"
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
