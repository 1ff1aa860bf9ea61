package deploy

import (
	"context"
	"hash/fnv"
	"net/url"
	"time"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Local edge accounts. Every organization reaches the local edge through an
// account of its own (its own id, token, workers.dev subdomain, workers,
// Workflows, KV, D1 and R2), never through the edge's root token or legacy
// account. The account's id and token are sealed into the credentials of the
// organization's local connections, like a Cloudflare token; all local
// connections of one organization share its account.
//
// A local connection without an account (created while the edge was down,
// or before accounts existed) gets one on first use: from another local
// connection of the organization that has one, else from the edge
// (ProvisionAccount, with the reference "org:<organization id>"). When the
// edge refuses the stored token (its data directory was replaced), the
// account is provisioned again and every local connection of the
// organization gets the new token.

// localAccountRef is the edge's reference of an organization's account.
func localAccountRef(organizationID string) string { return "org:" + organizationID }

// localCreds are a local connection's account id and token.
type localCreds struct {
	accountID string
	token     string
}

func (s *Service) openLocal(c *edgeflow.Connection) (localCreds, bool) {
	m, err := s.secrets.OpenConnection(c)
	if err != nil || m["apiToken"] == "" || m["accountId"] == "" {
		return localCreds{}, false
	}
	return localCreds{accountID: m["accountId"], token: m["apiToken"]}, true
}

func (s *Service) lockOrg(organizationID string) func() {
	h := fnv.New32a()
	h.Write([]byte(organizationID))
	m := &s.orgLocks[h.Sum32()%uint32(len(s.orgLocks))]
	m.Lock()
	return m.Unlock
}

// ProvisionLocalAccount gives local connection c its organization's local
// edge account, provisioning the account when the organization has none,
// and stores c with the sealed credentials. It is provider_unavailable when
// the local edge is not running.
func (s *Service) ProvisionLocalAccount(ctx context.Context, c *edgeflow.Connection) error {
	_, err := s.localAccount(ctx, c, false)
	return err
}

// localAccount returns the account of local connection c (updating *c when
// it had to be given one). renew provisions a new token even when c has one
// (the edge refused it).
func (s *Service) localAccount(ctx context.Context, c *edgeflow.Connection, renew bool) (localCreds, error) {
	if s.edge == nil {
		return localCreds{}, edgeflow.Errorf(edgeflow.EProviderUnavailable, "the local edge is not running (the server was started with --no-edge)")
	}
	if creds, ok := s.openLocal(c); ok && !renew {
		return creds, nil
	}
	unlock := s.lockOrg(c.OrganizationID)
	defer unlock()
	fresh, err := s.store.FindConnectionByID(ctx, c.OrganizationID, c.ID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return localCreds{}, edgeflow.NotFound("connection")
		}
		return localCreds{}, err
	}
	if creds, ok := s.openLocal(fresh); ok && (!renew || creds.token != s.tokenOf(c)) {
		*c = *fresh // another request gave it one meanwhile
		return creds, nil
	}
	siblings, err := s.localConnections(ctx, c.OrganizationID)
	if err != nil {
		return localCreds{}, err
	}
	var creds localCreds
	found := false
	if !renew {
		for i := range siblings {
			if got, ok := s.openLocal(&siblings[i]); ok {
				creds, found = got, true
				break
			}
		}
	}
	if !found {
		id, token, err := s.edge.ProvisionAccount(ctx, localAccountRef(c.OrganizationID), "edgeflow organization "+c.OrganizationID)
		if err != nil {
			return localCreds{}, &edgeflow.Error{Code: edgeflow.EProviderUnavailable, Message: "the local edge could not provision the organization's account", Err: err}
		}
		creds = localCreds{accountID: id, token: token}
	}
	// Every local connection of the organization shares the account (after a
	// new token, the old one no longer works anywhere).
	for i := range siblings {
		sc := &siblings[i]
		if got, ok := s.openLocal(sc); ok && got == creds {
			if sc.ID == c.ID {
				*c = *sc
			}
			continue
		}
		if found && sc.ID != c.ID {
			continue // copying from a sibling changes only c
		}
		if err := s.storeLocal(ctx, sc, creds); err != nil {
			return localCreds{}, err
		}
		if sc.ID == c.ID {
			*c = *sc
		}
	}
	return creds, nil
}

func (s *Service) tokenOf(c *edgeflow.Connection) string {
	creds, _ := s.openLocal(c)
	return creds.token
}

func (s *Service) storeLocal(ctx context.Context, c *edgeflow.Connection, creds localCreds) error {
	if err := s.secrets.SealConnection(c, map[string]string{"apiToken": creds.token, "accountId": creds.accountID}); err != nil {
		return err
	}
	c.AccountID = creds.accountID
	return s.store.UpdateConnection(ctx, c)
}

// localConnections lists the organization's local connections: the
// organization-wide ones and those of every project.
func (s *Service) localConnections(ctx context.Context, organizationID string) ([]edgeflow.Connection, error) {
	projects := []string{""}
	popts := edgeflow.ListOptions{Limit: 100}
	for {
		page, err := s.store.ListProjects(ctx, organizationID, popts)
		if err != nil {
			return nil, err
		}
		for _, p := range page.Items {
			projects = append(projects, p.ID)
		}
		if page.NextCursor == "" {
			break
		}
		popts.Cursor = page.NextCursor
	}
	var out []edgeflow.Connection
	seen := map[string]bool{}
	for _, projectID := range projects {
		opts := edgeflow.ListOptions{Limit: 100}
		for {
			page, err := s.store.ListConnections(ctx, organizationID, projectID, opts)
			if err != nil {
				return nil, err
			}
			for _, c := range page.Items {
				if c.Provider == edgeflow.ProviderLocal && !seen[c.ID] {
					seen[c.ID] = true
					out = append(out, c)
				}
			}
			if page.NextCursor == "" {
				break
			}
			opts.Cursor = page.NextCursor
		}
	}
	return out, nil
}

// localProviderFor returns the provider of local connection c: its
// organization's account, with worker URLs under the account's workers.dev
// subdomain (<workers>/<subdomain>/<script>).
func (s *Service) localProviderFor(ctx context.Context, c *edgeflow.Connection) (Provider, error) {
	creds, err := s.localAccount(ctx, c, false)
	if err != nil {
		return nil, err
	}
	key := c.ID + "\x00local\x00" + c.UpdatedAt.Format(time.RFC3339Nano) + "\x00" + s.edge.APIBaseURL()
	if p, ok := s.providers.Load(key); ok {
		return p.(Provider), nil
	}
	sub, err := s.localSubdomain(ctx, creds)
	if cloudflare.IsUnauthorized(err) {
		// The edge no longer knows the token (its data directory was replaced).
		if creds, err = s.localAccount(ctx, c, true); err != nil {
			return nil, err
		}
		key = c.ID + "\x00local\x00" + c.UpdatedAt.Format(time.RFC3339Nano) + "\x00" + s.edge.APIBaseURL()
		sub, err = s.localSubdomain(ctx, creds)
	}
	if err != nil {
		return nil, providerError("read the local edge account's workers.dev subdomain", err)
	}
	p, err := s.makeProvider(ProviderConfig{
		Provider:       edgeflow.ProviderLocal,
		BaseURL:        s.edge.APIBaseURL(),
		APIToken:       creds.token,
		AccountID:      creds.accountID,
		WorkersBaseURL: s.edge.WorkersBaseURL() + "/" + url.PathEscape(sub),
	})
	if err != nil {
		return nil, err
	}
	s.cacheProvider(key, p)
	return p, nil
}

func (s *Service) localSubdomain(ctx context.Context, creds localCreds) (string, error) {
	cl, err := cloudflare.New(cloudflare.Options{BaseURL: s.edge.APIBaseURL(), APIToken: creds.token, AccountID: creds.accountID,
		HTTPClient: s.http, Logger: s.log, Timeout: s.timeout})
	if err != nil {
		return "", err
	}
	return cl.GetAccountSubdomain(ctx)
}
