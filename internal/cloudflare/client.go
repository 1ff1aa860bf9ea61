// Package cloudflare is edgeflow's client of the Cloudflare REST API (api.cloudflare.com/client/v4) and of the
// local edge, which speaks the same API. It is built on Cloudflare's Go SDK (cloudflare-go/v6) with an
// injectable base URL and adds what edgeflow needs on top: typed errors carrying Cloudflare's codes, one timeout
// per attempt, retries with back-off on 429 and 5xx for idempotent calls only, module uploads whose parts carry
// a filename and content type, and raw requests where the SDK lacks a call or mis-types a field.
//
// Credentials never appear in errors or logs: errors name the method and path only.
package cloudflare

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	cf "github.com/cloudflare/cloudflare-go/v6"
	"github.com/cloudflare/cloudflare-go/v6/option"
)

// DefaultBaseURL is Cloudflare's API.
const DefaultBaseURL = "https://api.cloudflare.com/client/v4"

const (
	defaultTimeout    = 30 * time.Second
	defaultMaxRetries = 3
	backoffBase       = 250 * time.Millisecond
	backoffMax        = 8 * time.Second
	maxBody           = 64 << 20
)

// Options configure New.
type Options struct {
	// BaseURL is the API base; empty means DefaultBaseURL. The local edge's is http://127.0.0.1:P/client/v4.
	BaseURL string
	// APIToken is sent as "Authorization: Bearer <token>". Required.
	APIToken string
	// AccountID is the account every account-scoped call uses. Required by those calls only.
	AccountID string
	// WorkersBaseURL, when set (the local edge's "workers" URL), makes WorkersDevURL answer
	// WorkersBaseURL + "/" + script instead of https://<script>.<subdomain>.workers.dev.
	WorkersBaseURL string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Logger receives one debug line per request (method, path, status, attempt, duration) and a warning per
	// retry; nil discards them.
	Logger *slog.Logger
	// Timeout bounds each attempt; 0 means 30 seconds.
	Timeout time.Duration
	// MaxRetries is how often an idempotent call is retried after a 429, a 5xx, a timeout or a connection
	// failure; 0 means 3, a negative value means never.
	MaxRetries int
}

// Client calls the API. It is safe for concurrent use.
type Client struct {
	sdk        *cf.Client
	accountID  string
	workersURL string
	logger     *slog.Logger
	timeout    time.Duration
	maxRetries int
}

// New checks the options and returns a client. It fails with an *ArgumentError when the token is missing or the
// base URL is not an absolute http(s) URL without user info. It sends no request.
func New(opts Options) (*Client, error) {
	if opts.APIToken == "" {
		return nil, argErr("apiToken", "is required")
	}
	if strings.ContainsAny(opts.APIToken, "\r\n") {
		return nil, argErr("apiToken", "must not contain line breaks")
	}
	base := opts.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" {
		return nil, argErr("baseURL", "must be an absolute http(s) URL without user info or query")
	}
	if opts.AccountID != "" && !validSegment(opts.AccountID) {
		return nil, argErr("accountId", "must not be empty or contain '/', '?', '#' or spaces")
	}
	c := &Client{
		accountID:  opts.AccountID,
		workersURL: strings.TrimRight(opts.WorkersBaseURL, "/"),
		logger:     opts.Logger,
		timeout:    opts.Timeout,
		maxRetries: opts.MaxRetries,
	}
	if c.logger == nil {
		c.logger = slog.New(slog.DiscardHandler)
	}
	if c.timeout <= 0 {
		c.timeout = defaultTimeout
	}
	if c.maxRetries == 0 {
		c.maxRetries = defaultMaxRetries
	} else if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	c.sdk = cf.NewClient(
		option.WithBaseURL(base),
		option.WithAPIToken(opts.APIToken),
		// NewClient reads CLOUDFLARE_* credentials from the environment; only the token given here is sent.
		option.WithHeaderDel("X-Auth-Key"),
		option.WithHeaderDel("X-Auth-Email"),
		option.WithHeaderDel("X-Auth-User-Service-Key"),
		option.WithHTTPClient(hc),
		// Retries are ours: the SDK also retries POSTs and 409s, and waits seconds between attempts.
		option.WithMaxRetries(0),
	)
	return c, nil
}

// AccountID is the account the client works on.
func (c *Client) AccountID() string { return c.accountID }

func validSegment(s string) bool {
	return s != "" && !strings.ContainsAny(s, "/?#% \t\r\n")
}

// account returns the escaped "accounts/{id}" prefix or an error when the client has no account.
func (c *Client) account() (string, error) {
	if c.accountID == "" {
		return "", argErr("accountId", "is required for this call (Options.AccountID)")
	}
	return "accounts/" + url.PathEscape(c.accountID), nil
}

// sdkFunc performs one attempt through the SDK; opts must be passed on to the SDK call.
type sdkFunc func(ctx context.Context, opts ...option.RequestOption) error

// run performs a call with the per-attempt timeout and, when idempotent, retries with back-off. op is
// "METHOD path" (no query, no credentials).
func (c *Client) run(ctx context.Context, op string, idempotent bool, fn sdkFunc) error {
	return c.runWithin(ctx, op, idempotent, c.timeout, fn)
}

// runWithin is run with a per-attempt timeout of its own.
func (c *Client) runWithin(ctx context.Context, op string, idempotent bool, timeout time.Duration, fn sdkFunc) error {
	for attempt := 0; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, timeout)
		var res *http.Response
		sent := false
		mark := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			sent = true
			return next(r)
		})
		start := time.Now()
		err := fn(actx, option.WithResponseInto(&res), mark)
		if err != nil && !sent {
			if _, own := err.(interface{ ownError() }); !own {
				err = fmt.Errorf("cloudflare: %s: build request: %w", op, err)
				cancel()
				return err
			}
		}
		err = classify(ctx, actx, op, res, err)
		cancel()
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		c.logger.Debug("cloudflare request", "op", op, "status", status, "attempt", attempt+1,
			"duration", time.Since(start).Round(time.Millisecond))
		if err == nil {
			return nil
		}
		if !idempotent || attempt >= c.maxRetries || !retryable(err) {
			return err
		}
		wait := backoff(attempt)
		if ae, ok := errors.AsType[*APIError](err); ok && ae.hasRetry {
			wait = min(ae.retryAfter, 30*time.Second)
		}
		c.logger.Warn("cloudflare request failed; retrying", "op", op, "err", err, "in", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}

func backoff(attempt int) time.Duration {
	d := min(backoffBase<<attempt, backoffMax)
	return d - time.Duration(rand.Int64N(int64(d/4)+1))
}

func retryable(err error) bool {
	if IsUnreachable(err) {
		return true
	}
	ae, ok := errors.AsType[*APIError](err)
	return ok && (ae.Status == http.StatusTooManyRequests || ae.Status >= 500)
}

// classify turns what the SDK returned into this package's errors.
func classify(parent, attempt context.Context, op string, res *http.Response, err error) error {
	if err == nil {
		return nil
	}
	var own interface{ ownError() }
	if errors.As(err, &own) {
		return err
	}
	if perr := parent.Err(); perr != nil {
		return fmt.Errorf("cloudflare: %s: %w", op, perr)
	}
	if attempt.Err() != nil {
		return &UnreachableError{Op: op, Timeout: true, Err: context.DeadlineExceeded}
	}
	if aerr, ok := errors.AsType[*cf.Error](err); ok && aerr.Response != nil {
		res = aerr.Response
	}
	if res != nil && res.StatusCode >= 400 {
		return apiErrorFrom(op, res)
	}
	if res != nil {
		return &MalformedResponseError{Op: op, Status: res.StatusCode, Reason: err.Error()}
	}
	if ue, ok := errors.AsType[*url.Error](err); ok {
		err = ue.Err
	}
	return &UnreachableError{Op: op, Err: err}
}

// apiErrorFrom reads an error answer (the SDK leaves its body readable).
func apiErrorFrom(op string, res *http.Response) *APIError {
	ae := &APIError{Op: op, Status: res.StatusCode}
	if res.Body != nil {
		raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		var env struct {
			Errors []ErrorDetail `json:"errors"`
		}
		if json.Unmarshal(raw, &env) == nil {
			ae.Errors = env.Errors
		}
	}
	if v := res.Header.Get("Retry-After"); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
			ae.retryAfter, ae.hasRetry = time.Duration(s*float64(time.Second)), true
		} else if t, err := http.ParseTime(v); err == nil {
			ae.retryAfter, ae.hasRetry = max(0, time.Until(t)), true
		}
	}
	return ae
}

func (*APIError) ownError()               {}
func (*UnreachableError) ownError()       {}
func (*ArgumentError) ownError()          {}
func (*NotFoundError) ownError()          {}
func (*MalformedResponseError) ownError() {}
func (*TooLargeError) ownError()          {}

// resultInfo is the envelope's result_info in its page and cursor forms.
type resultInfo struct {
	Page       int    `json:"page"`
	PerPage    int    `json:"per_page"`
	Count      int    `json:"count"`
	TotalCount int    `json:"total_count"`
	Cursor     string `json:"cursor"`
	// IsTruncated is a string ("true"/"false") in R2 object listings.
	IsTruncated any      `json:"is_truncated"`
	Delimited   []string `json:"delimited"`
}

type envelope struct {
	Success    *bool           `json:"success"`
	Errors     []ErrorDetail   `json:"errors"`
	Result     json.RawMessage `json:"result"`
	ResultInfo *resultInfo     `json:"result_info"`
}

// request is one raw call: the SDK builds and sends it, this package decodes the envelope.
type request struct {
	method      string
	path        string // relative to the base URL, already escaped
	query       url.Values
	body        any    // marshalled as JSON unless it is []byte with contentType set
	contentType string // for []byte bodies
	idempotent  bool
	result      any  // decoded from the envelope's result; nil to ignore it
	rawResult   bool // result is *[]byte receiving the whole body (KV values)
	// timeout, when longer than the client's, bounds each attempt of this request instead (D1 queries, which
	// the database itself stops at D1QueryLimit).
	timeout time.Duration
}

// do performs a raw request and returns the envelope's result_info (nil when absent).
func (c *Client) do(ctx context.Context, r request) (*resultInfo, error) {
	op := r.method + " " + r.path
	target := r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	var payload []byte
	ct := r.contentType
	if r.body != nil {
		if b, ok := r.body.([]byte); ok && ct != "" {
			payload = b
		} else {
			b, err := json.Marshal(r.body)
			if err != nil {
				return nil, fmt.Errorf("cloudflare: %s: encode body: %w", op, err)
			}
			payload, ct = b, "application/json"
		}
	}
	var info *resultInfo
	err := c.runWithin(ctx, op, r.idempotent, max(c.timeout, r.timeout), func(ctx context.Context, opts ...option.RequestOption) error {
		if payload != nil {
			opts = append(opts, option.WithRequestBody(ct, bytes.Clone(payload)))
		}
		var res *http.Response
		if err := c.sdk.Execute(ctx, r.method, target, nil, &res, opts...); err != nil {
			return err
		}
		defer res.Body.Close()
		raw, err := io.ReadAll(io.LimitReader(res.Body, maxBody+1))
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &UnreachableError{Op: op, Err: err}
		}
		if len(raw) > maxBody {
			return &MalformedResponseError{Op: op, Status: res.StatusCode, Reason: "body larger than 64 MiB"}
		}
		if r.rawResult {
			*(r.result.(*[]byte)) = raw
			return nil
		}
		if len(bytes.TrimSpace(raw)) == 0 && (res.StatusCode == http.StatusNoContent || res.StatusCode == http.StatusResetContent) {
			return nil
		}
		var env envelope
		if err := json.Unmarshal(raw, &env); err != nil {
			return &MalformedResponseError{Op: op, Status: res.StatusCode, Reason: "body is not a JSON envelope"}
		}
		if env.Success != nil && !*env.Success {
			return &APIError{Op: op, Status: res.StatusCode, Errors: env.Errors}
		}
		info = env.ResultInfo
		if r.result != nil && len(env.Result) > 0 && string(env.Result) != "null" {
			dec := json.NewDecoder(bytes.NewReader(env.Result))
			dec.UseNumber()
			if err := dec.Decode(r.result); err != nil {
				return &MalformedResponseError{Op: op, Status: res.StatusCode, Reason: "result: " + err.Error()}
			}
		}
		return nil
	})
	return info, err
}
