package api

// runOpsRouteDocs document replay with edited params and bulk actions on
// runs (runbulk.go; docs/runs.md, "Replay with changes" and "Bulk actions").
var runOpsRouteDocs = map[string]RouteDoc{
	"POST /api/workflows/{workflowId}/runs/{runId}/replay": {
		Summary: "Replays a run with other params: a new run on the run's connection, from the start or from a step.",
		Answer: "The new Run (`queued`, 201) with `params` the given ones, `replayOf` (the replayed run's id) and " +
			"`paramsChanged` (whether they differ from its params). `params` are checked as a trigger's (a JSON object of " +
			"at most 100 KB). `fromStep` and `version` are the restart's: with `fromStep`, the steps before it are " +
			"replayed from the run (state `replayed`) and see nothing of the new params; the steps from it on run with them.",
		Errors: []ErrorCase{
			{409, "conflict", "as a restart: a step before `fromStep` did not complete; `same` while another version is " +
				"deployed; the workflow is not deployed on the run's connection"},
			{413, "payload_too_large", "`params` over 100 KB"},
			{422, "validation_failed", "no `params`, `params` not an object, `fromStep` no step of the chosen version, " +
				"`version` neither `same` nor `current`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"params": [1], "version": "older"}`,
		Example: exRunReplay,
	},
	"POST /api/runs/bulk": {
		Summary: "Restarts, replays, terminates or deletes every run of the project that a filter matches, in the background.",
		Answer: "`{id, matched}` (202): the job acting on the `matched` runs, which GET /api/runs/bulk/:id follows. With " +
			"`dryRun: true` nothing is done and nothing stored: `{matched, dryRun: true, runIds}` with the first 20 runs. " +
			"`filter` takes the run search's filters (`workflowId`, `status`, `versionId`, `from`, `to`, `q`; docs/runs.md), " +
			"or `runIds` alone: up to 1,000 runs of the project by id (Studio's selection). " +
			"`restart` restarts each run from `fromStep` (or the start) on `version`, as POST …/restart; `replay` replays it " +
			"with its own params, as POST …/replay; `terminate` terminates it; `delete` deletes it with its instance (finished " +
			"runs only). At most 10,000 runs; new runs start at most 100 per second and workflow. The job is audited once, " +
			"when it ends, as `run.bulk` with the filter and the counts.",
		Errors: []ErrorCase{
			{422, "validation_failed", "`action` is not restart, replay, terminate or delete; `fromStep` or `version` with " +
				"terminate or delete; a bad filter (unknown status or workflow, `to` not after `from`, `q` over 200 characters); " +
				"the filter matches more than 10,000 runs; `runIds` beside another filter, over 1,000 ids, or naming a run the " +
				"project does not have"},
		},
		BadBody: `{"action": "explode", "filter": {"status": "errored"}}`,
		Example: exBulkStart,
	},
	"GET /api/runs/bulk/{bulkId}": {
		Summary: "A bulk job's state and progress.",
		Answer: "The job: `{id, action, filter, fromStep?, version?, state, matched, done, failed: [{runId, error}], " +
			"failedCount, createdAt, updatedAt, endedAt}`. `state` is `running`, `complete` or `cancelled`; `done` counts " +
			"the runs acted on, failed or not; `failed` lists the first 100 failures, `failedCount` counts them all.",
		Example: exBulkGet,
	},
	"DELETE /api/runs/bulk/{bulkId}": {
		Summary: "Cancels a running bulk job: the runs it has not reached are left alone.",
		Answer: "The job (200), `cancelled`; a batch in progress (at most 25 runs) completes and is counted. A job that " +
			"ended is answered as it is.",
		Example: exBulkCancel,
	},
}

const exBulk = "bulk_5t8y2u4i6o1p3a7s9d0f"

var (
	exRunReplay = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun + "/replay", Body: `{"params": {"orderId": "A-1002"}}`,
		Answer: `{"id": "run_9d2f6h1j3k5l7z8x0c4vbn", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "run_9d2f6h1j3k5l7z8x0c4vbn", "status": "queued", "params": {"orderId": "A-1002"}, "replayOf": "` + exRun + `", "paramsChanged": true, "createdAt": "2026-11-27T06:45:02.123456Z", "startedAt": null, "endedAt": null, "updatedAt": "2026-11-27T06:45:02.123456Z"}`, Partial: true}
	exBulkStart = Example{Path: "/api/runs/bulk", Body: `{"action": "restart", "filter": {"workflowId": "` + exWorkflow + `", "status": "complete"}, "version": "same"}`,
		Answer: `{"id": "` + exBulk + `", "matched": 1}`, Partial: true}
	exBulkGet = Example{Path: "/api/runs/bulk/" + exBulk,
		Answer: `{"id": "` + exBulk + `", "projectId": "` + exProject + `", "action": "restart", "filter": {"workflowId": "` + exWorkflow + `", "status": "complete"}, "version": "same", "state": "running", "matched": 1, "done": 0, "failed": [], "failedCount": 0, "createdAt": "2026-11-27T06:45:02.123456Z", "updatedAt": "2026-11-27T06:45:02.123456Z", "endedAt": null}`}
	exBulkCancel = Example{Path: "/api/runs/bulk/" + exBulk,
		Answer: `{"id": "` + exBulk + `", "projectId": "` + exProject + `", "action": "restart", "filter": {"workflowId": "` + exWorkflow + `", "status": "complete"}, "version": "same", "state": "cancelled", "matched": 1, "done": 0, "failed": [], "failedCount": 0, "createdAt": "2026-11-27T06:45:02.123456Z", "updatedAt": "2026-11-27T06:45:03.2Z", "endedAt": "2026-11-27T06:45:03.2Z"}`}
)
