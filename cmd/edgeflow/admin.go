package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func runAdmin(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: "+bootstrapUsage)
		fmt.Fprintln(w, "       "+setupLinkUsage)
		fmt.Fprintln(w, "       "+resetPasswordUsage)
		fmt.Fprintln(w, "       "+pruneRunsUsage)
		fmt.Fprintln(w, "       "+backupUsage)
		fmt.Fprintln(w, "       "+restoreUsage)
		fmt.Fprintln(w, "       "+verifyBackupUsage)
		printExamples(w,
			"edgeflow admin bootstrap --email ada@example.com --password 'a long passphrase' --json",
			"edgeflow admin setup-link --url https://flows.example.com",
			"echo 'a new passphrase' | edgeflow admin reset-password --email ada@example.com --password-stdin",
			"edgeflow admin prune-runs --database-url postgres://edgeflow@db/edgeflow")
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if isHelp(args[0]) {
		usage(stdout)
		return 0
	}
	switch args[0] {
	case "bootstrap":
		return runBootstrap(ctx, args[1:], stdout, stderr)
	case "reset-password":
		return runResetPassword(ctx, args[1:], os.Stdin, stdout, stderr)
	case "setup-link":
		return runSetupLink(ctx, args[1:], stdout, stderr)
	case "prune-runs":
		return runPruneRuns(ctx, args[1:], stdout, stderr)
	case "backup":
		return runBackupCmd(ctx, args[1:], stdout, stderr)
	case "restore":
		return runRestoreCmd(ctx, args[1:], stdout, stderr)
	case "verify-backup":
		return runVerifyBackupCmd(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "edgeflow admin: unknown subcommand %q\n", args[0])
	usage(stderr)
	return 2
}

const bootstrapUsage = "edgeflow admin bootstrap --email E --password P [--org NAME] [--project NAME] [--scopes read,write,deploy] [--data-dir DIR] [--database-url URL] [--json]"

// bootstrapResult is what `edgeflow admin bootstrap --json` prints.
type bootstrapResult struct {
	UserID         string `json:"userId"`
	OrganizationID string `json:"organizationId"`
	ProjectID      string `json:"projectId"`
	APIKey         string `json:"apiKey"`
}

func runBootstrap(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin bootstrap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	email := fs.String("email", "", "email of the user (created, or reused when it exists)")
	password := fs.String("password", "", "password of a new user (at least 8 characters, not a common password)")
	orgName := fs.String("org", "Default", "organization name (reused when the user has one of that name)")
	projectName := fs.String("project", "Default", "project name (reused when the organization has one with its slug)")
	scopesText := fs.String("scopes", "read,write,deploy", "scopes of the API key, comma separated: read and any of write, deploy")
	asJSON := fs.Bool("json", false, `print {"userId","organizationId","projectId","apiKey"} as JSON`)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: "+bootstrapUsage)
		fs.PrintDefaults()
		printExamples(fs.Output(), "edgeflow admin bootstrap --email ada@example.com --password 'a long passphrase' --json")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 || *email == "" || *password == "" {
		fmt.Fprintln(stderr, "edgeflow admin bootstrap: --email and --password are required")
		fs.Usage()
		return 2
	}
	if *email = strings.TrimSpace(*email); !edgeflow.ValidEmail(*email) {
		fmt.Fprintf(stderr, "edgeflow admin bootstrap: --email %q is not a valid email address (user@example.com)\n", *email)
		return 2
	}
	scopes, msg := edgeflow.ParseScopes(strings.Split(strings.ReplaceAll(*scopesText, " ", ""), ","))
	if msg != "" {
		fmt.Fprintf(stderr, "edgeflow admin bootstrap: --scopes: %s\n", msg)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, err := sf.open(ctx, logger)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin bootstrap: open database: %v\n", err)
		return 1
	}
	defer store.Close()
	res, err := bootstrap(ctx, store, strings.TrimSpace(*email), *password, strings.TrimSpace(*orgName), strings.TrimSpace(*projectName), scopes)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin bootstrap: %v\n", err)
		return 1
	}
	if *asJSON {
		json.NewEncoder(stdout).Encode(res)
		return 0
	}
	fmt.Fprintf(stdout, "user          %s\norganization  %s\nproject       %s\napi key       %s (shown once; keep it)\n",
		res.UserID, res.OrganizationID, res.ProjectID, res.APIKey)
	return 0
}

// bootstrap creates or reuses the user, organization and project, and
// creates a new API key with scopes.
func bootstrap(ctx context.Context, store edgeflow.Store, email, password, orgName, projectName string, scopes []edgeflow.Scope) (*bootstrapResult, error) {
	if orgName == "" || projectName == "" {
		return nil, errors.New("--org and --project must not be empty")
	}
	if msg := edgeflow.NameProblem(orgName); msg != "" {
		return nil, errors.New("--org: " + msg)
	}
	if msg := edgeflow.NameProblem(projectName); msg != "" {
		return nil, errors.New("--project: " + msg)
	}
	u, err := store.FindUserByEmail(ctx, email)
	if edgeflow.IsNotFound(err) {
		if msg := auth.PasswordProblem(password, email); msg != "" {
			return nil, errors.New("--password: " + msg)
		}
		hash, herr := auth.HashPassword(password, 0)
		if herr != nil {
			return nil, herr
		}
		u = &edgeflow.User{Email: email, PasswordHash: hash}
		err = store.CreateUser(ctx, u)
		if edgeflow.IsConflict(err) { // created concurrently
			u, err = store.FindUserByEmail(ctx, email)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("user: %w", err)
	}

	var org *edgeflow.Organization
	orgs, err := store.ListOrganizationsForUser(ctx, u.ID)
	if err != nil {
		return nil, fmt.Errorf("organizations: %w", err)
	}
	for _, o := range orgs {
		if o.Name == orgName {
			org = &o.Organization
			break
		}
	}
	var project *edgeflow.Project
	if org == nil {
		org, project, err = api.CreateOrganizationWithProject(ctx, store, u.ID, orgName, projectName)
		if err != nil {
			return nil, fmt.Errorf("organization: %w", err)
		}
	} else {
		slug := edgeflow.Slugify(projectName, edgeflow.MaxSlugLength)
		project, err = store.FindProjectBySlug(ctx, org.ID, slug)
		if edgeflow.IsNotFound(err) {
			project = &edgeflow.Project{OrganizationID: org.ID, Name: projectName, Slug: slug}
			err = store.CreateProject(ctx, project)
			if edgeflow.IsConflict(err) {
				project, err = store.FindProjectBySlug(ctx, org.ID, slug)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("project: %w", err)
		}
	}

	key, prefix, hash := auth.NewAPIKey()
	k := &edgeflow.APIKey{
		OrganizationID: org.ID, ProjectID: project.ID, UserID: u.ID, Name: "bootstrap", Prefix: prefix, Hash: hash,
		Scopes: scopes,
	}
	if err := store.CreateAPIKey(ctx, k); err != nil {
		return nil, fmt.Errorf("API key: %w", err)
	}
	return &bootstrapResult{UserID: u.ID, OrganizationID: org.ID, ProjectID: project.ID, APIKey: key}, nil
}

const setupLinkUsage = "edgeflow admin setup-link [--url BASE] [--data-dir DIR] [--database-url URL]"

// runSetupLink prints a fresh one-time setup link for the first user; it
// refuses once a user exists.
func runSetupLink(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin setup-link", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	base := fs.String("url", envOr("EDGEFLOW_PUBLIC_URL", "http://127.0.0.1:8080"),
		"the URL users reach the server at (env EDGEFLOW_PUBLIC_URL)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: "+setupLinkUsage)
		fs.PrintDefaults()
		printExamples(fs.Output(), "edgeflow admin setup-link", "edgeflow admin setup-link --url https://flows.example.com --data-dir /var/lib/edgeflow")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "edgeflow admin setup-link: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if err := checkBaseURL(*base); err != nil {
		fmt.Fprintf(stderr, "edgeflow admin setup-link: --url: %v\n", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, err := sf.open(ctx, logger)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin setup-link: open database: %v\n", err)
		return 1
	}
	defer store.Close()
	link, err := api.NewSetupLink(ctx, store, *base, time.Now())
	if edgeflow.IsConflict(err) {
		fmt.Fprintln(stderr, "edgeflow admin setup-link: users exist already; a setup link is only for the first user (invite people from an organization instead)")
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin setup-link: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, link)
	return 0
}

const pruneRunsUsage = "edgeflow admin prune-runs [--data-dir DIR] [--database-url URL]"

// runPruneRuns deletes the runs past their organization's retention now,
// as the serve job does, and prints how many.
func runPruneRuns(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin prune-runs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: "+pruneRunsUsage)
		fmt.Fprintln(fs.Output(), "Deletes finished runs older than their organization's runRetentionDays (default 90).")
		fs.PrintDefaults()
		printExamples(fs.Output(), "edgeflow admin prune-runs", "edgeflow admin prune-runs --database-url postgres://edgeflow@db/edgeflow")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "edgeflow admin prune-runs: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, err := sf.open(ctx, logger)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin prune-runs: open database: %v\n", err)
		return 1
	}
	defer store.Close()
	n, instances, err := pruneRuns(ctx, store, time.Now())
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin prune-runs: %v (%d runs deleted before the error)\n", err, n)
		return 1
	}
	fmt.Fprintf(stdout, "deleted %d runs past their retention\n", n)
	if len(instances) > 0 {
		// This command reaches the database only; a running server
		// deletes the instances of the runs it prunes itself.
		fmt.Fprintf(stdout, "their %d provider instances are left to the provider's retention\n", len(instances))
	}
	return 0
}
