package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const resetPasswordUsage = "edgeflow admin reset-password --email E --password-stdin [--data-dir DIR] [--database-url URL]"

// maxPasswordLine bounds what --password-stdin reads (passwords are at most
// 1024 bytes; the rest would be refused anyway).
const maxPasswordLine = 4096

// runResetPassword sets a user's password from the first line of in and
// signs out every session of the user. The password never appears in the
// arguments (where other local users could see it) nor in any output.
func runResetPassword(ctx context.Context, args []string, in io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin reset-password", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	email := fs.String("email", "", "email of the user whose password is set")
	fromStdin := fs.Bool("password-stdin", false, "read the new password from the first line of standard input (required)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: "+resetPasswordUsage)
		fs.PrintDefaults()
		printExamples(fs.Output(), "echo 'a new passphrase' | edgeflow admin reset-password --email ada@example.com --password-stdin")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 || strings.TrimSpace(*email) == "" || !*fromStdin {
		fmt.Fprintln(stderr, "edgeflow admin reset-password: --email and --password-stdin are required (the password is read from standard input, never from an argument)")
		fs.Usage()
		return 2
	}
	password, err := readPasswordLine(in)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin reset-password: %v\n", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, err := sf.open(ctx, logger)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin reset-password: open database: %v\n", err)
		return 1
	}
	defer store.Close()
	u, err := store.FindUserByEmail(ctx, strings.TrimSpace(*email))
	if edgeflow.IsNotFound(err) {
		fmt.Fprintf(stderr, "edgeflow admin reset-password: no user has the email %q\n", strings.TrimSpace(*email))
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin reset-password: %v\n", err)
		return 1
	}
	if msg := auth.PasswordProblem(password, u.Email); msg != "" {
		fmt.Fprintf(stderr, "edgeflow admin reset-password: the password is refused: %s\n", msg)
		return 2
	}
	hash, err := auth.HashPassword(password, 0)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow admin reset-password: %v\n", err)
		return 1
	}
	if err := store.SetPassword(ctx, u.ID, hash, "", time.Now()); err != nil {
		fmt.Fprintf(stderr, "edgeflow admin reset-password: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "password of %s (%s) set; every session of the user is signed out\n", u.Email, u.ID)
	return 0
}

// readPasswordLine reads the first line of in without its line ending.
func readPasswordLine(in io.Reader) (string, error) {
	r := bufio.NewReaderSize(in, maxPasswordLine)
	line, err := r.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return "", fmt.Errorf("the password on standard input is longer than %d bytes", maxPasswordLine)
	case err != nil && !errors.Is(err, io.EOF):
		return "", fmt.Errorf("read the password from standard input: %w", err)
	}
	pw := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
	if pw == "" {
		return "", errors.New("standard input holds no password (pipe it in: printf '%s\\n' \"$PASSWORD\" | edgeflow admin reset-password ...)")
	}
	return pw, nil
}
