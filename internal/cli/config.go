package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// credentials is what `login` stores: the server and one credential, an
// API key or a session, and the project an organization API key acts in
// (`use project`).
type credentials struct {
	URL string `json:"url"`
	// APIKey is set by `login --api-key`.
	APIKey string `json:"apiKey,omitempty"`
	// Session and CSRFToken are set by `login --email`.
	Session   string `json:"session,omitempty"`
	CSRFToken string `json:"csrfToken,omitempty"`
	Email     string `json:"email,omitempty"`
	// ProjectID is sent as X-Edgeflow-Project with an API key.
	ProjectID string `json:"projectId,omitempty"`
}

// credentialsPath is ConfigDir/edgeflow/credentials.json.
func (e Env) credentialsPath() (string, error) {
	dir, err := e.ConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory: %w (set XDG_CONFIG_HOME or HOME)", err)
	}
	return filepath.Join(dir, "edgeflow", "credentials.json"), nil
}

// loadCredentials reads the stored login; ok is false when there is none.
func (e Env) loadCredentials() (credentials, bool, error) {
	path, err := e.credentialsPath()
	if err != nil {
		return credentials{}, false, err
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return credentials{}, false, nil
	}
	if err != nil {
		return credentials{}, false, err
	}
	var c credentials
	if err := json.Unmarshal(raw, &c); err != nil {
		return credentials{}, false, fmt.Errorf("%s is not valid JSON (%v): run edgeflow login again", path, err)
	}
	return c, true, nil
}

// saveCredentials writes the login: the directory 0700, the file 0600,
// replaced atomically (a reader never sees half a file).
func (e Env) saveCredentials(c credentials) (string, error) {
	path, err := e.credentialsPath()
	if err != nil {
		return "", err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", err
	}
	raw, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".credentials-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return "", err
	}
	if _, err := tmp.Write(append(raw, '\n')); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}

// deleteCredentials removes the stored login; ok is false when there was
// none.
func (e Env) deleteCredentials() (bool, error) {
	path, err := e.credentialsPath()
	if err != nil {
		return false, err
	}
	err = os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// client builds the API client of the current login: EDGEFLOW_URL and
// EDGEFLOW_API_KEY override the stored one (for CI, where nothing is
// stored); with EDGEFLOW_API_KEY, EDGEFLOW_PROJECT names the project an
// organization key acts in.
func (c *call) client() (*client, error) {
	stored, ok, err := c.env.loadCredentials()
	if err != nil {
		return nil, err
	}
	base := stored.URL
	if u := c.env.Getenv("EDGEFLOW_URL"); u != "" {
		base = u
	}
	if base == "" {
		return nil, failed("not logged in: run edgeflow login --url URL --api-key KEY (or set EDGEFLOW_URL and EDGEFLOW_API_KEY)")
	}
	base, err = normalizeURL(base)
	if err != nil {
		return nil, err
	}
	cl := &client{base: base, http: c.env.HTTP}
	if key := c.env.Getenv("EDGEFLOW_API_KEY"); key != "" {
		// The stored project belongs to the stored login, not to this key.
		cl.apiKey, cl.project = key, c.env.Getenv("EDGEFLOW_PROJECT")
		return cl, nil
	}
	if !ok || (stored.APIKey == "" && stored.Session == "") {
		return nil, failed("not logged in: run edgeflow login --url URL --api-key KEY (or set EDGEFLOW_API_KEY)")
	}
	cl.apiKey, cl.session, cl.csrf, cl.project = stored.APIKey, stored.Session, stored.CSRFToken, stored.ProjectID
	return cl, nil
}
