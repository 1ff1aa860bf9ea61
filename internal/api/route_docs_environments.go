package api

// environmentRouteDocs document a project's environments and promotion
// (environments.go; docs/environments.md).
var environmentRouteDocs = map[string]RouteDoc{
	"GET /api/projects/{id}/environments": {
		Summary: "Lists a project's environments by name.",
		Answer: "`{data: [Environment], nextCursor: null}`, by name (at most 20). An Environment is `{projectId, name, " +
			"connectionId, protected, createdAt, updatedAt}`; `connectionId` is `\"\"` while it is bound to none. Every project " +
			"has `production`.",
		Example: Example{Path: "/api/projects/" + exProject + "/environments",
			Answer: `{"data": [{"projectId": "` + exProject + `", "name": "production", "connectionId": "", "protected": false, "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": null}`},
	},
	"POST /api/projects/{id}/environments": {
		Summary: "Creates an environment of a project, bound to a connection the project may use.",
		Answer: "The Environment (201). `name`: lowercase letters and digits in words joined by hyphens, at most 32 " +
			"characters, no word `v` followed by digits. `connectionId` (optional) binds it; `protected` (default false) lets " +
			"only admins and owners deploy, promote and roll back there.",
		Errors: []ErrorCase{
			{404, "not_found", "`connectionId` names no connection the project may use"},
			{409, "conflict", "the name is taken in the project, the connection is bound to another of its environments, or " +
				"the project has 20 environments"},
			{422, "validation_failed", "a bad `name`"},
		},
		BadBody: `{"name": "Staging!"}`,
		Example: Example{Path: "/api/projects/" + exProject + "/environments", Body: `{"name": "staging", "connectionId": "` + exConnection + `", "protected": false}`,
			Answer: `{"projectId": "` + exProject + `", "name": "staging", "connectionId": "` + exConnection + `", "protected": false, "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}`},
	},
	"PATCH /api/projects/{id}/environments/{name}": {
		Summary: "Binds an environment to another connection (or to none) or changes its protection.",
		Answer:  "The Environment. `connectionId: \"\"` binds it to none. Deployments already made stay where they are.",
		Errors: []ErrorCase{
			{404, "not_found", "no environment of that name, or `connectionId` names no connection the project may use"},
			{409, "conflict", "the connection is bound to another environment of the project"},
			{422, "validation_failed", "`connectionId` with surrounding space"},
		},
		BadBody: `{"connectionId": " "}`,
		Example: Example{Path: "/api/projects/" + exProject + "/environments/production", Body: `{"connectionId": "` + exConnection + `", "protected": true}`,
			Answer: `{"projectId": "` + exProject + `", "name": "production", "connectionId": "` + exConnection + `", "protected": true, "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:02.123456Z"}`},
	},
	"DELETE /api/projects/{id}/environments/{name}": {
		Summary: "Deletes an environment other than production; the deployments made in it stay (take them down to stop them).",

		Errors: []ErrorCase{
			{404, "not_found", "no environment of that name"},
			{409, "conflict", "`production` cannot be deleted"},
		},
		Example: Example{Path: "/api/projects/" + exProject + "/environments/staging"},
	},
	"POST /api/workflows/{workflowId}/promote": {
		Summary: "Deploys to one environment exactly the version active in another.",
		Answer: "`{deployment, envDiff: {missing, extra}}`: the Deployment made in `to` (as deploy answers it, pinning " +
			"applying as to any deploy, `inFlight` as deploy's) and the variables `from` has and `to` lacks (`missing`) or " +
			"`to` has and `from` lacks (`extra`). Nothing is deployed when the version reads a variable `to` lacks.",
		Errors: []ErrorCase{
			{403, "forbidden", "`to` is protected and the caller is below admin"},
			{404, "not_found", "`from` or `to` is no environment of the project"},
			{409, "conflict", "an environment is bound to no connection, or the workflow is not deployed in `from`"},
			{422, "validation_failed", "no `from` or `to`, the same for both, or the version reads a variable `to` lacks " +
				"(each named)"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"from": "", "to": ""}`,
		Example: Example{Path: "/api/workflows/" + exWorkflow + "/promote", Body: `{"from": "staging", "to": "production"}`,
			Answer: `{"deployment": {"id": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "status": "active", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev", "scriptName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "workflowName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "environment": "production"}, "envDiff": {"missing": [], "extra": ["SLACK_CHANNEL"]}}`},
	},
}
