package auth_test

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/auth"
)

func TestPasswordProblem(t *testing.T) {
	t.Parallel()
	const email = "Carol.Smith@example.com"
	refused := []string{
		"", "short", "seven77", "        ", " \t\n\u00a0 \u2003  ", "carol.smith@example.com", "CAROL.SMITH",
		"carol.smith", "password", "Password1", "PASSWORD123", "qwertyuiop", "12345678", "iloveyou",
		"p@ssw0rd", "aaaaaaaa", "edgeflow123", "football2024", strings.Repeat("x", auth.MaxPasswordLen+1),
		"日本語", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8",
	}
	for _, pw := range refused {
		if auth.PasswordProblem(pw, email) == "" {
			t.Errorf("PasswordProblem(%q) accepted", pw)
		}
	}
	accepted := []string{
		"password-1", "e2e-password-1", "choose-a-password", "correct horse battery staple",
		"パスワードは長い日本語", "carol.smith!x9Q", strings.Repeat("long passphrase ", 60),
	}
	for _, pw := range accepted {
		if msg := auth.PasswordProblem(pw, email); msg != "" {
			t.Errorf("PasswordProblem(%q) = %q, want accepted", pw, msg)
		}
	}
}

func TestCommonPasswordList(t *testing.T) {
	t.Parallel()
	for _, pw := range []string{"password1", "QWERTY123", "letmein1", "1q2w3e4r", "sunshine"} {
		if !auth.IsCommonPassword(pw) {
			t.Errorf("%q is not on the list", pw)
		}
	}
	if auth.IsCommonPassword("Tr0ub4dor&3-horse") {
		t.Error("an uncommon password is on the list")
	}
}
