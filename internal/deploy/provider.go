package deploy

import (
	"context"
	"encoding/json"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Provider is what the service needs of one edge account: Cloudflare through
// api.cloudflare.com, or the local edge through the same REST subset. Errors
// are the provider client's own (internal/cloudflare); the service turns them
// into *edgeflow.Error with providerError.
type Provider interface {
	// VerifyToken checks the credentials; refused credentials are an
	// unauthorized error of the client.
	VerifyToken(ctx context.Context) error
	// ListAccounts lists the accounts the credentials reach.
	ListAccounts(ctx context.Context) ([]Account, error)

	// UploadWorker uploads one ES-module worker with its bindings. It is
	// atomic on the provider: on failure the previous version keeps serving.
	// The worker ends with exactly the upload's secrets: the provider keeps
	// secrets an upload does not name, so the others are deleted.
	UploadWorker(ctx context.Context, w WorkerUpload) error
	// PutWorkflow creates or updates the Workflow name served by class
	// className of script scriptName, with cfg's schedules, limits and
	// retention.
	PutWorkflow(ctx context.Context, name, scriptName, className string, cfg WorkflowConfig) error
	// ExposeWorkersDev enables the workers.dev URL of the script and returns it.
	ExposeWorkersDev(ctx context.Context, scriptName string) (string, error)
	// PutRoute points route at the script and returns the route's URL.
	PutRoute(ctx context.Context, scriptName string, route edgeflow.Route) (string, error)
	// DeleteWorker deletes the script; a script that does not exist is not
	// an error.
	DeleteWorker(ctx context.Context, scriptName string) error
	// DeleteWorkflow deletes the Workflow; one that does not exist is not an
	// error.
	DeleteWorkflow(ctx context.Context, name string) error

	// CreateInstance creates instance id of the Workflow with params.
	CreateInstance(ctx context.Context, workflowName, id string, params json.RawMessage) error
	// GetInstance returns the instance's status, output, error and steps.
	GetInstance(ctx context.Context, workflowName, id string) (*Instance, error)
	// ChangeInstanceStatus sends "pause", "resume" or "terminate".
	ChangeInstanceStatus(ctx context.Context, workflowName, id, action string) error
	// ListInstances returns page (1-based) of the Workflow's instances,
	// newest first, at most perPage (1-100) of them.
	ListInstances(ctx context.Context, workflowName string, page, perPage int) ([]InstanceSummary, error)

	// EnsureKVNamespace finds the namespace titled title, creating it when
	// missing, and returns its id.
	EnsureKVNamespace(ctx context.Context, title string) (string, error)
	// EnsureD1Database finds the database named name, creating it when
	// missing, and returns its id.
	EnsureD1Database(ctx context.Context, name string) (string, error)
	// EnsureR2Bucket finds the bucket named name, creating it when missing.
	EnsureR2Bucket(ctx context.Context, name string) error

	ListKVNamespaces(ctx context.Context, page Page) (Listing[KVNamespace], error)
	ListKVKeys(ctx context.Context, namespaceID string, page Page) (Listing[KVKey], error)
	// GetKVValue returns the raw value of key.
	GetKVValue(ctx context.Context, namespaceID, key string) ([]byte, error)
	ListD1Databases(ctx context.Context, page Page) (Listing[D1Database], error)
	// QueryD1 runs sql (one or several statements) and returns the result of
	// the last one. readOnly asks the database to refuse every change; only
	// the local edge supports it (docs/decisions.md 81).
	QueryD1(ctx context.Context, databaseID, sql string, params []any, readOnly bool) (*D1Result, error)
	ListR2Buckets(ctx context.Context, page Page) (Listing[R2Bucket], error)
	// ListR2Objects lists objects; with page.Delimiter the keys that go on
	// past it after the prefix are rolled up into Listing.Prefixes.
	ListR2Objects(ctx context.Context, bucket string, page Page) (Listing[R2Object], error)
	// GetR2Object reads one object whole (at most
	// cloudflare.MaxR2ObjectRead bytes).
	GetR2Object(ctx context.Context, bucket, key string) (*R2ObjectBody, error)
}

// Page asks a provider list for one page. Cursor is "" for the first page.
type Page struct {
	Prefix string
	Cursor string
	Limit  int
	// Delimiter rolls keys up into prefixes (R2 object listings only).
	Delimiter string
}

// Listing is one page of a provider list; NextCursor is "" on the last page.
type Listing[T any] struct {
	Items      []T
	NextCursor string
	// Prefixes are the delimited "folders" of an R2 object listing asked
	// with a delimiter.
	Prefixes []string
}

// Account is an account the credentials reach.
type Account struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Binding kinds of a worker upload.
const (
	BindingPlainText = "plain_text"
	BindingSecret    = "secret_text"
	BindingWorkflow  = "workflow"
	BindingKV        = "kv_namespace"
	BindingD1        = "d1"
	BindingR2        = "r2_bucket"
	BindingService   = "service"
	BindingAI        = "ai" // Workers AI: a name only
)

// Binding is one binding of a worker upload. Text holds the value of
// plain_text and secret_text bindings; ID the KV namespace or D1 database id;
// Bucket the R2 bucket; WorkflowName, ClassName and ScriptName a Workflow
// binding (ScriptName only for a class of another script); Service a service
// binding.
type Binding struct {
	Type         string
	Name         string
	Text         string
	ID           string
	Bucket       string
	WorkflowName string
	ClassName    string
	ScriptName   string
	Service      string
}

// String never shows Text, so that a secret cannot reach a log through it.
func (b Binding) String() string { return b.Type + ":" + b.Name }

// WorkerUpload is one ES-module worker with its bindings.
type WorkerUpload struct {
	ScriptName         string
	MainModule         string
	Modules            map[string][]byte
	CompatibilityDate  string
	CompatibilityFlags []string
	Bindings           []Binding
}

// InstancesReader is a Provider that reads many instances of a Workflow in
// one request (the local edge). The run refresher reads the runs it
// refreshes together through it (decision 308).
type InstancesReader interface {
	// GetInstances returns one InstanceResult per id, in order; an error
	// for the whole request is returned as such.
	GetInstances(ctx context.Context, workflowName string, ids []string) ([]InstanceResult, error)
}

// InstanceResult is one instance of GetInstances: Instance, or Err as
// GetInstance would have returned it.
type InstanceResult struct {
	Instance *Instance
	Err      error
}

// Instance is a Workflow instance as the provider reports it. Status is the
// provider's word (queued, running, paused, waiting, waitingForPause,
// complete, errored, terminated, unknown, ...).
type Instance struct {
	Status string
	Output json.RawMessage
	// Error is the failure reason ("" when none).
	Error string
	Steps json.RawMessage
	// Params are the instance's params (nil when the provider does not say).
	Params json.RawMessage
	Start  *time.Time
	End    *time.Time
	// LogLines is how many log lines the provider holds for the instance,
	// nil when it does not say (Cloudflare); the local edge says.
	LogLines *int
}

// InstanceSummary is one entry of a provider's instance list. CreatedOn is
// nil when the provider does not report it.
type InstanceSummary struct {
	ID        string
	Status    string
	CreatedOn *time.Time
}

// KVNamespace is a key-value namespace.
type KVNamespace struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// KVKey is one key of a namespace.
type KVKey struct {
	Name       string          `json:"name"`
	Expiration int64           `json:"expiration,omitempty"`
	Metadata   json.RawMessage `json:"metadata,omitempty"`
}

// D1Database is a SQL database.
type D1Database struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	CreatedAt string `json:"createdAt,omitempty"`
	NumTables int    `json:"numTables"`
	FileSize  int64  `json:"fileSize"`
}

// D1Result is the result of one statement: column names and rows of values.
type D1Result struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
	Meta    D1Meta   `json:"meta"`
}

// D1Meta is what the database reports about the statement.
type D1Meta struct {
	Duration    float64 `json:"duration"`
	Changes     int64   `json:"changes"`
	LastRowID   int64   `json:"lastRowId"`
	RowsRead    int64   `json:"rowsRead"`
	RowsWritten int64   `json:"rowsWritten"`
}

// R2Bucket is an object bucket.
type R2Bucket struct {
	Name      string `json:"name"`
	CreatedAt string `json:"createdAt,omitempty"`
}

// R2Object is one object of a bucket.
type R2Object struct {
	Key          string `json:"key"`
	Size         int64  `json:"size"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
	ContentType  string `json:"contentType,omitempty"`
}

// R2ObjectBody is one object read whole, with the HTTP metadata it was
// stored with.
type R2ObjectBody struct {
	Key          string
	Body         []byte
	ContentType  string
	ETag         string
	LastModified string
}
