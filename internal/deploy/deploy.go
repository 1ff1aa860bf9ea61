// Package deploy is the execution path of edgeflow: it deploys a workflow
// version to a connection (compile, bundle, upload with bindings, Workflow,
// URL, record), takes it down, triggers runs and delivers events to waiting
// runs, keeps run records true (live refresh and a background refresher),
// controls runs (pause, resume, terminate), browses a connection's KV, D1 and
// R2 data and verifies provider tokens.
//
// A connection with provider "cloudflare" reaches api.cloudflare.com with its
// sealed credentials; one with provider "local" reaches the embedded local
// edge. Both go through the same client (internal/cloudflare).
//
// Every method returns *edgeflow.Error values whose Message is safe to show:
// provider failures are EProviderUnavailable (no answer) or EProviderError
// (the provider refused), naming what was being done, never a credential.
package deploy

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/tracing"
)

// Secrets opens sealed values of the store. Implementations must never log
// what they open.
type Secrets interface {
	// OpenConnection returns the credentials of a connection
	// ({"apiToken", "accountId"}; empty for a local connection that has no
	// local edge account yet).
	OpenConnection(c *edgeflow.Connection) (map[string]string, error)
	// SealConnection seals creds ({"apiToken", "accountId"}) into
	// c.SealedCredentials.
	SealConnection(c *edgeflow.Connection, creds map[string]string) error
	// OpenWorkflowSecret returns the plain value of a secret env var of
	// workflow w.
	OpenWorkflowSecret(w *edgeflow.Workflow, v edgeflow.WorkflowEnvVar) (string, error)
	// OpenEnvVar returns the plain value of a secret global env var.
	OpenEnvVar(v *edgeflow.EnvVar) (string, error)
	// SealDeploymentSecret seals a deployment's secret of kind
	// "worker-token" or "trigger-secret", bound to the deployment's id.
	SealDeploymentSecret(deploymentID, kind, value string) string
	// OpenDeploymentSecret opens what SealDeploymentSecret sealed.
	OpenDeploymentSecret(deploymentID, kind, sealed string) (string, error)
}

// LocalEdge is the embedded local edge (internal/localedge.Edge satisfies it).
// Token and AccountID are its root token and legacy account; organizations
// reach the edge only with accounts of their own (ProvisionLocalAccount).
type LocalEdge interface {
	APIBaseURL() string
	WorkersBaseURL() string
	AccountID() string
	Token() string
	// ProvisionAccount creates the edge account with reference ref, or
	// gives it a new token, and answers its id and token.
	ProvisionAccount(ctx context.Context, ref, name string) (accountID, token string, err error)
}

// ProviderConfig is where and as whom a Provider talks.
type ProviderConfig struct {
	// Provider is edgeflow.ProviderCloudflare or edgeflow.ProviderLocal.
	Provider       string
	BaseURL        string
	APIToken       string
	AccountID      string
	WorkersBaseURL string
}

// Options configure New.
type Options struct {
	Store   edgeflow.Store
	Secrets Secrets
	// Compiler turns a version into an uploadable module. Required for Deploy.
	Compiler Compiler
	// LocalEdge is the supervised local edge; nil when it is disabled, and
	// then connections with provider "local" fail with provider_unavailable.
	LocalEdge LocalEdge
	// CloudflareBaseURL is the API of provider "cloudflare"; "" means
	// https://api.cloudflare.com/client/v4 (tests point it at a stub).
	CloudflareBaseURL string
	// HTTPClient sends provider requests and worker requests (event delivery).
	HTTPClient *http.Client
	// NewProvider builds a provider client; nil means the internal/cloudflare
	// client.
	NewProvider func(ProviderConfig) (Provider, error)
	// ProviderTimeout bounds each provider request; 0 means 30 seconds.
	ProviderTimeout time.Duration
	Logger          *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// MaxScripts is the most workers one account may hold (a deploy that
	// puts a version beside runs in flight is refused with 409 past it); 0
	// means DefaultMaxScripts.
	MaxScripts int
	// StuckAfter and StuckFailAfter are the bounds of the stuck-queued rule
	// (stuck.go); 0 means DefaultStuckAfter and DefaultStuckFailAfter.
	StuckAfter, StuckFailAfter time.Duration
}

// Service implements deploy, takedown, trigger, runs, resources and token
// verification. It is safe for concurrent use.
type Service struct {
	store    edgeflow.Store
	secrets  Secrets
	compiler Compiler
	edge     LocalEdge
	cfBase   string
	http     *http.Client
	newProv  func(ProviderConfig) (Provider, error)
	timeout  time.Duration
	log      *slog.Logger
	now      func() time.Time
	stuck    stuckBounds      // the stuck-queued rule (stuck.go)
	tracing  *tracing.Tracing // spans of deploys and runs (tracing.go); nil: off

	runLocks        [256]sync.Mutex
	orgLocks        [64]sync.Mutex // serialize local edge account provisioning per organization
	providers       sync.Map       // connection key -> Provider
	providerCount   atomic.Int64
	deployMu        sync.Mutex
	deployLock      map[string]*sync.Mutex   // workflow id -> serializes deploys and takedowns
	cron            cronWatches              // deployments cron discovery looks at
	stepNames       stepNameCache            // version id -> step name -> node id
	tests           testAccounts             // local edge accounts of test runs (testrun.go)
	batchers        createBatchers           // deployment id -> its local-edge creates (createbatch.go)
	watch           atomic.Pointer[runWatch] // the running refresher's instance event streams (runwatch.go)
	instanceDeletes instanceDeletes          // provider instances of deleted runs (instancedelete.go)
	bulkWake        chan struct{}            // a bulk job was created here (bulk.go)
	creates         creationLimiters         // the pace of batch creates per account and Workflow (triggerbatch.go)
	drains          drainMarks               // (workflow, connection) pairs whose triggers wait for a drain (releases.go)
	drainPoll       time.Duration            // how often a drain looks at the runs in flight
	maxScripts      int                      // the provider's limit on scripts per account (releases.go)
	heldMaybe       atomic.Bool              // runs may be held for flow control (flowcontrol.go)
	heldCursors     heldCursors              // where startHeldOf goes on (flowcontrol.go)
	rateBlocks      rateBlocks               // rate limit windows known spent (flowcontrol.go)
	readmits        readmits                 // cron starts sent their admission event again (admission.go)
}

// New returns a service. Store and Secrets are required.
func New(opts Options) (*Service, error) {
	if opts.Store == nil || opts.Secrets == nil {
		return nil, errors.New("deploy: Options.Store and Options.Secrets are required")
	}
	s := &Service{
		store:      opts.Store,
		secrets:    opts.Secrets,
		compiler:   opts.Compiler,
		edge:       opts.LocalEdge,
		cfBase:     opts.CloudflareBaseURL,
		http:       opts.HTTPClient,
		newProv:    opts.NewProvider,
		timeout:    opts.ProviderTimeout,
		log:        opts.Logger,
		now:        opts.Now,
		deployLock: map[string]*sync.Mutex{},
		bulkWake:   make(chan struct{}, 1),
		stuck:      newStuckBounds(opts.StuckAfter, opts.StuckFailAfter),
		drainPoll:  time.Second,
		maxScripts: opts.MaxScripts,
	}
	if s.maxScripts <= 0 {
		s.maxScripts = DefaultMaxScripts
	}
	if s.cfBase == "" {
		s.cfBase = cloudflare.DefaultBaseURL
	}
	if s.http == nil {
		// Bursts send many requests at once to one host (the local edge, or
		// Cloudflare's API): keep enough idle connections to reuse them.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		s.http = &http.Client{Timeout: 60 * time.Second, Transport: t}
	}
	if s.timeout <= 0 {
		s.timeout = 30 * time.Second
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.newProv == nil {
		s.newProv = func(c ProviderConfig) (Provider, error) {
			return NewCloudflareProvider(c, s.http, s.timeout, s.log)
		}
	}
	return s, nil
}

// SetCompiler replaces the compiler (serve wires it once the node catalog is
// known).
func (s *Service) SetCompiler(c Compiler) { s.compiler = c }

// providerFor returns the provider of a stored connection, cached by the
// connection's id and update time. A local connection reaches its
// organization's own local edge account (provisioned on first use, see
// localaccount.go).
func (s *Service) providerFor(ctx context.Context, c *edgeflow.Connection) (Provider, error) {
	if c.Provider == edgeflow.ProviderLocal {
		return s.localProviderFor(ctx, c)
	}
	key := c.ID + "\x00" + c.Provider + "\x00" + c.UpdatedAt.Format(time.RFC3339Nano)
	if p, ok := s.providers.Load(key); ok {
		return p.(Provider), nil
	}
	p, err := s.newProviderFor(c)
	if err != nil {
		return nil, err
	}
	s.cacheProvider(key, p)
	return p, nil
}

func (s *Service) cacheProvider(key string, p Provider) {
	if s.providerCount.Add(1) > 1000 {
		s.providers.Clear()
		s.providerCount.Store(0)
	}
	s.providers.Store(key, p)
}

func (s *Service) newProviderFor(c *edgeflow.Connection) (Provider, error) {
	switch c.Provider {
	case edgeflow.ProviderCloudflare:
		creds, err := s.secrets.OpenConnection(c)
		if err != nil {
			return nil, &edgeflow.Error{Code: edgeflow.EInternal, Message: "the connection's credentials cannot be opened", Err: err}
		}
		return s.cloudflareProvider(creds["apiToken"], creds["accountId"])
	default:
		return nil, edgeflow.Errorf(edgeflow.EBadRequest, "connection provider %q is not supported", c.Provider)
	}
}

func (s *Service) cloudflareProvider(token, account string) (Provider, error) {
	if token == "" {
		return nil, edgeflow.Invalid("/credentials/apiToken", "apiToken is required")
	}
	return s.makeProvider(ProviderConfig{
		Provider:  edgeflow.ProviderCloudflare,
		BaseURL:   s.cfBase,
		APIToken:  token,
		AccountID: account,
	})
}

func (s *Service) makeProvider(c ProviderConfig) (Provider, error) {
	p, err := s.newProv(c)
	if err != nil {
		// The client refuses bad arguments (an account id with a slash, a
		// token with a line break) before sending anything.
		return nil, &edgeflow.Error{Code: edgeflow.EBadRequest, Message: "the connection's credentials are malformed", Err: err}
	}
	return p, nil
}

// providerError turns a provider client error into an *edgeflow.Error whose
// message names what was being done and the provider's reason.
func providerError(what string, err error) error {
	if err == nil {
		return nil
	}
	var e *edgeflow.Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, context.Canceled) {
		return &edgeflow.Error{Code: edgeflow.EProviderUnavailable, Message: what + ": cancelled", Err: err}
	}
	if cloudflare.IsUnreachable(err) || errors.Is(err, context.DeadlineExceeded) {
		return &edgeflow.Error{Code: edgeflow.EProviderUnavailable, Message: what + ": the edge provider could not be reached", Err: err}
	}
	return &edgeflow.Error{Code: edgeflow.EProviderError, Message: what + ": " + providerReason(err), Err: err}
}

// providerReason is the provider's own message for err, safe to show.
func providerReason(err error) string {
	if ae, ok := errors.AsType[*cloudflare.APIError](err); ok {
		return ae.Message()
	}
	if ae, ok := errors.AsType[*cloudflare.ArgumentError](err); ok {
		return "invalid " + ae.Field + ": " + ae.Message
	}
	if _, ok := errors.AsType[*cloudflare.MalformedResponseError](err); ok {
		return "the provider sent a malformed response"
	}
	if cloudflare.IsNotFound(err) {
		return "not found"
	}
	return "the provider refused the request"
}

// providerStatus is the HTTP status of a provider's refusal, 0 otherwise.
func providerStatus(err error) int {
	if ae, ok := errors.AsType[*cloudflare.APIError](err); ok {
		return ae.Status
	}
	return 0
}

// lockRun serializes refreshes and control of one run (striped by id).
func (s *Service) lockRun(id string) func() {
	h := fnv.New32a()
	h.Write([]byte(id))
	m := &s.runLocks[h.Sum32()%uint32(len(s.runLocks))]
	m.Lock()
	return m.Unlock
}

func (s *Service) lockWorkflow(id string) func() {
	s.deployMu.Lock()
	m, ok := s.deployLock[id]
	if !ok {
		m = &sync.Mutex{}
		s.deployLock[id] = m
	}
	s.deployMu.Unlock()
	m.Lock()
	return m.Unlock
}

// connection finds a connection of the organization that the project may
// use: an organization-wide one or the project's own (docs/decisions.md
// 80). projectID "" skips the project check (takedown of an existing
// deployment). An unknown connection, or another project's, is not_found.
func (s *Service) connection(ctx context.Context, organizationID, projectID, id string) (*edgeflow.Connection, error) {
	if strings.TrimSpace(id) == "" {
		return nil, edgeflow.Invalid("/connectionId", "connectionId is required")
	}
	c, err := s.store.FindConnectionByID(ctx, organizationID, id)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.NotFound("connection")
		}
		return nil, err
	}
	if projectID != "" && c.ProjectID != "" && c.ProjectID != projectID {
		return nil, edgeflow.NotFound("connection")
	}
	return c, nil
}

func rawOrNil(v json.RawMessage) json.RawMessage {
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	return v
}
