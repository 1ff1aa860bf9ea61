package deploy

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// cfProvider is a Provider on internal/cloudflare's client.
type cfProvider struct {
	c *cloudflare.Client
}

// NewCloudflareProvider returns the Provider of the Cloudflare REST API (or
// the local edge) described by c.
func NewCloudflareProvider(c ProviderConfig, hc *http.Client, timeout time.Duration, log *slog.Logger) (Provider, error) {
	cl, err := cloudflare.New(cloudflare.Options{
		BaseURL:        c.BaseURL,
		APIToken:       c.APIToken,
		AccountID:      c.AccountID,
		WorkersBaseURL: c.WorkersBaseURL,
		HTTPClient:     hc,
		Logger:         log,
		Timeout:        timeout,
	})
	if err != nil {
		return nil, err
	}
	if c.Provider == edgeflow.ProviderLocal {
		return &localProvider{cfProvider{c: cl}}, nil
	}
	return &cfProvider{c: cl}, nil
}

// localProvider is the local edge's Provider: Cloudflare's API with the
// edge's additions.
type localProvider struct{ cfProvider }

var _ InstancesReader = (*localProvider)(nil)

// GetInstances reads the instances in requests of up to 100 (the edge's
// POST …/instances/read).
func (p *localProvider) GetInstances(ctx context.Context, wf string, ids []string) ([]InstanceResult, error) {
	out := make([]InstanceResult, 0, len(ids))
	for start := 0; start < len(ids); start += cloudflare.MaxInstancesRead {
		got, err := p.c.ReadInstances(ctx, wf, ids[start:min(start+cloudflare.MaxInstancesRead, len(ids))])
		if err != nil {
			return nil, err
		}
		for _, g := range got {
			if g.Err != nil {
				out = append(out, InstanceResult{Err: g.Err})
				continue
			}
			out = append(out, InstanceResult{Instance: instanceOf(g.Instance)})
		}
	}
	return out, nil
}

func (p *cfProvider) VerifyToken(ctx context.Context) error {
	st, err := p.c.VerifyToken(ctx)
	if err != nil {
		return err
	}
	if !st.Active() {
		return &cloudflare.APIError{Op: "GET user/tokens/verify", Status: http.StatusUnauthorized,
			Errors: []cloudflare.ErrorDetail{{Code: 1000, Message: "the API token is " + orDefault(st.Status, "not active")}}}
	}
	return nil
}

func (p *cfProvider) ListAccounts(ctx context.Context) ([]Account, error) {
	as, err := p.c.ListAccounts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Account, len(as))
	for i, a := range as {
		out[i] = Account{ID: a.ID, Name: a.Name}
	}
	return out, nil
}

func (p *cfProvider) UploadWorker(ctx context.Context, w WorkerUpload) error {
	s := cloudflare.Script{
		MainModule:         w.MainModule,
		CompatibilityDate:  w.CompatibilityDate,
		CompatibilityFlags: w.CompatibilityFlags,
	}
	names := make([]string, 0, len(w.Modules))
	for n := range w.Modules {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s.Modules = append(s.Modules, cloudflare.Module{Name: n, Content: w.Modules[n]})
	}
	for _, b := range w.Bindings {
		var cb cloudflare.Binding
		switch b.Type {
		case BindingPlainText:
			cb = cloudflare.PlainText(b.Name, b.Text)
		case BindingSecret:
			cb = cloudflare.SecretText(b.Name, b.Text)
		case BindingWorkflow:
			cb = cloudflare.WorkflowBinding(b.Name, b.WorkflowName, b.ClassName)
			cb.ScriptName = b.ScriptName
		case BindingKV:
			cb = cloudflare.KVBinding(b.Name, b.ID)
		case BindingD1:
			cb = cloudflare.D1Binding(b.Name, b.ID)
		case BindingR2:
			cb = cloudflare.R2Binding(b.Name, b.Bucket)
		case BindingService:
			cb = cloudflare.ServiceBinding(b.Name, b.Service, "")
		case BindingAI:
			cb = cloudflare.Binding{Type: BindingAI, Name: b.Name}
		default:
			cb = cloudflare.Binding{Type: b.Type, Name: b.Name}
		}
		s.Bindings = append(s.Bindings, cb)
	}
	// The worker gets exactly the secrets of this upload: Cloudflare (and the local edge) keep a worker's secrets
	// that an upload does not name, and refuse an upload whose var takes an existing secret's name (10053). So
	// secrets the upload gives another binding type are deleted first, and those it does not name at all after it
	// succeeded (until then the serving version may use them).
	existing, err := p.c.ListScriptSecrets(ctx, w.ScriptName)
	if err != nil {
		return err
	}
	kinds := map[string]string{}
	for _, b := range w.Bindings {
		kinds[b.Name] = b.Type
	}
	var stale []string
	for _, name := range existing {
		switch kind, named := kinds[name]; {
		case !named:
			stale = append(stale, name)
		case kind != BindingSecret:
			if err := p.c.DeleteScriptSecret(ctx, w.ScriptName, name); err != nil {
				return err
			}
		}
	}
	if err := p.c.UploadScript(ctx, w.ScriptName, s); err != nil {
		return err
	}
	for _, name := range stale {
		if err := p.c.DeleteScriptSecret(ctx, w.ScriptName, name); err != nil {
			return err
		}
	}
	return nil
}

func (p *cfProvider) PutWorkflow(ctx context.Context, name, script, class string, cfg WorkflowConfig) error {
	_, err := p.c.PutWorkflow(ctx, cfg.spec(name, script, class))
	return err
}

func (p *cfProvider) ExposeWorkersDev(ctx context.Context, script string) (string, error) {
	if err := p.c.SetScriptSubdomain(ctx, script, true); err != nil {
		return "", err
	}
	return p.c.WorkersDevURL(ctx, script)
}

func (p *cfProvider) PutRoute(ctx context.Context, script string, r edgeflow.Route) (string, error) {
	zone := r.ZoneName
	if zone == "" {
		host := strings.TrimPrefix(strings.TrimPrefix(r.Pattern, "https://"), "http://")
		if i := strings.IndexByte(host, '/'); i >= 0 {
			host = host[:i]
		}
		z, err := p.c.FindZone(ctx, strings.TrimPrefix(host, "*."))
		if err != nil {
			return "", err
		}
		zone = z.Name
	}
	if err := p.c.PutScriptRoutes(ctx, script, []cloudflare.Route{{Pattern: r.Pattern, ZoneName: zone}}); err != nil {
		return "", err
	}
	return routeURL(r.Pattern), nil
}

func (p *cfProvider) DeleteWorker(ctx context.Context, script string) error {
	if err := p.c.DeleteScript(ctx, script); err != nil && !cloudflare.IsNotFound(err) {
		return err
	}
	return nil
}

func (p *cfProvider) DeleteWorkflow(ctx context.Context, name string) error {
	if err := p.c.DeleteWorkflow(ctx, name); err != nil && !cloudflare.IsNotFound(err) {
		return err
	}
	return nil
}

func (p *cfProvider) CreateInstance(ctx context.Context, wf, id string, params json.RawMessage) error {
	_, err := p.c.CreateInstance(ctx, wf, id, params)
	return err
}

func (p *cfProvider) GetInstance(ctx context.Context, wf, id string) (*Instance, error) {
	st, err := p.c.GetInstance(ctx, wf, id)
	if err != nil {
		return nil, err
	}
	return instanceOf(st), nil
}

// instanceOf is the Instance of an instance the API answered.
func instanceOf(st cloudflare.InstanceStatus) *Instance {
	in := &Instance{Status: st.Status, Output: st.Output, Params: st.Params, Start: st.Start, End: st.End, LogLines: st.LogLines}
	if st.Error != nil {
		in.Error = st.Error.Message
		if in.Error == "" {
			in.Error = st.Error.Name
		}
	}
	if len(st.Steps) > 0 {
		redactSensitive(st.Steps)
		if raw, err := json.Marshal(st.Steps); err == nil {
			in.Steps = raw
		}
	}
	return in
}

// redactSensitive puts "[REDACTED]" in place of the output of every step
// whose config marks it sensitive, whatever the provider answered: a
// sensitive output never leaves the provider layer (docs/runs.md,
// "Sensitive outputs").
func redactSensitive(steps []cloudflare.InstanceStep) {
	for i := range steps {
		if steps[i].SensitiveOutput() && len(steps[i].Output) > 0 && string(steps[i].Output) != "null" {
			steps[i].Output = redactedJSON
		}
	}
}

// redactedJSON is codegen.RedactedOutput as a JSON value.
var redactedJSON = json.RawMessage(`"` + codegen.RedactedOutput + `"`)

func (p *cfProvider) ChangeInstanceStatus(ctx context.Context, wf, id, action string) error {
	return p.c.ChangeInstanceStatus(ctx, wf, id, action)
}

func (p *cfProvider) ListInstances(ctx context.Context, wf string, page, perPage int) ([]InstanceSummary, error) {
	list, err := p.c.ListInstances(ctx, wf, cloudflare.InstancesQuery{Page: page, PerPage: perPage})
	if err != nil {
		return nil, err
	}
	out := make([]InstanceSummary, len(list))
	for i, it := range list {
		out[i] = InstanceSummary{ID: it.ID, Status: it.Status, CreatedOn: it.CreatedOn}
	}
	return out, nil
}

func (p *cfProvider) EnsureKVNamespace(ctx context.Context, title string) (string, error) {
	ns, err := p.c.EnsureKVNamespace(ctx, title)
	return ns.ID, err
}

func (p *cfProvider) EnsureD1Database(ctx context.Context, name string) (string, error) {
	db, err := p.c.EnsureD1Database(ctx, name)
	return db.UUID, err
}

func (p *cfProvider) EnsureR2Bucket(ctx context.Context, name string) error {
	_, err := p.c.EnsureR2Bucket(ctx, name)
	return err
}

// pageOf cuts one page out of a complete list; the cursor is the offset.
func pageOf[T any](all []T, pg Page) (Listing[T], error) {
	off := 0
	if pg.Cursor != "" {
		n, err := strconv.Atoi(pg.Cursor)
		if err != nil || n < 0 {
			return Listing[T]{}, edgeflow.Invalid("/cursor", "cursor is not valid")
		}
		off = n
	}
	limit := pg.Limit
	if limit <= 0 {
		limit = 50
	}
	if off > len(all) {
		off = len(all)
	}
	end := min(off+limit, len(all))
	l := Listing[T]{Items: all[off:end]}
	if end < len(all) {
		l.NextCursor = strconv.Itoa(end)
	}
	return l, nil
}

func (p *cfProvider) ListKVNamespaces(ctx context.Context, pg Page) (Listing[KVNamespace], error) {
	all, err := p.c.ListKVNamespaces(ctx)
	if err != nil {
		return Listing[KVNamespace]{}, err
	}
	out := make([]KVNamespace, 0, len(all))
	for _, n := range all {
		if strings.HasPrefix(n.Title, pg.Prefix) {
			out = append(out, KVNamespace{ID: n.ID, Title: n.Title})
		}
	}
	return pageOf(out, pg)
}

func (p *cfProvider) ListKVKeys(ctx context.Context, ns string, pg Page) (Listing[KVKey], error) {
	res, err := p.c.ListKVKeys(ctx, ns, cloudflare.KVKeysQuery{Prefix: pg.Prefix, Cursor: pg.Cursor, Limit: pg.Limit})
	if err != nil {
		return Listing[KVKey]{}, err
	}
	out := make([]KVKey, len(res.Keys))
	for i, k := range res.Keys {
		out[i] = KVKey{Name: k.Name, Expiration: k.Expiration, Metadata: k.Metadata}
	}
	return Listing[KVKey]{Items: out, NextCursor: res.Cursor}, nil
}

func (p *cfProvider) GetKVValue(ctx context.Context, ns, key string) ([]byte, error) {
	return p.c.GetKVValue(ctx, ns, key)
}

func (p *cfProvider) ListD1Databases(ctx context.Context, pg Page) (Listing[D1Database], error) {
	all, err := p.c.ListD1Databases(ctx)
	if err != nil {
		return Listing[D1Database]{}, err
	}
	out := make([]D1Database, 0, len(all))
	for _, d := range all {
		if !strings.HasPrefix(d.Name, pg.Prefix) {
			continue
		}
		db := D1Database{ID: d.UUID, Name: d.Name}
		if d.CreatedAt != nil {
			db.CreatedAt = d.CreatedAt.UTC().Format(time.RFC3339)
		}
		out = append(out, db)
	}
	return pageOf(out, pg)
}

func (p *cfProvider) QueryD1(ctx context.Context, db, sql string, params []any, readOnly bool) (*D1Result, error) {
	query := p.c.QueryD1
	if readOnly {
		query = p.c.QueryD1ReadOnly
	}
	r, err := query(ctx, db, sql, params)
	if err != nil {
		return nil, err
	}
	return &D1Result{Columns: r.Columns, Rows: r.Rows, Meta: D1Meta{Duration: r.Meta.Duration, Changes: r.Meta.Changes,
		LastRowID: r.Meta.LastRowID, RowsRead: r.Meta.RowsRead, RowsWritten: r.Meta.RowsWritten}}, nil
}

func (p *cfProvider) ListR2Buckets(ctx context.Context, pg Page) (Listing[R2Bucket], error) {
	all, err := p.c.ListR2Buckets(ctx)
	if err != nil {
		return Listing[R2Bucket]{}, err
	}
	out := make([]R2Bucket, 0, len(all))
	for _, b := range all {
		if strings.HasPrefix(b.Name, pg.Prefix) {
			out = append(out, R2Bucket{Name: b.Name, CreatedAt: b.CreationDate})
		}
	}
	return pageOf(out, pg)
}

func (p *cfProvider) ListR2Objects(ctx context.Context, bucket string, pg Page) (Listing[R2Object], error) {
	res, err := p.c.ListR2Objects(ctx, bucket, cloudflare.R2ObjectsQuery{Prefix: pg.Prefix, Cursor: pg.Cursor, Limit: pg.Limit, Delimiter: pg.Delimiter})
	if err != nil {
		return Listing[R2Object]{}, err
	}
	out := make([]R2Object, len(res.Objects))
	for i, o := range res.Objects {
		out[i] = R2Object{Key: o.Key, Size: o.Size, ETag: o.ETag, LastModified: o.LastModified, ContentType: o.ContentType}
	}
	return Listing[R2Object]{Items: out, NextCursor: res.Cursor, Prefixes: res.Prefixes}, nil
}

func (p *cfProvider) GetR2Object(ctx context.Context, bucket, key string) (*R2ObjectBody, error) {
	o, err := p.c.GetR2Object(ctx, bucket, key)
	if err != nil {
		return nil, err
	}
	return &R2ObjectBody{Key: key, Body: o.Body, ContentType: o.ContentType, ETag: o.ETag, LastModified: o.LastModified}, nil
}

// CountWorkers counts the account's workers (scriptCounter).
func (p *cfProvider) CountWorkers(ctx context.Context) (int, error) {
	names, err := p.c.ListScripts(ctx)
	return len(names), err
}
