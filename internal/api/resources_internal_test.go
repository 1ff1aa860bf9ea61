package api

import "testing"

// TestAttachment: a download is named by the key's last segment, with
// nothing that could end the header's quoted string or start another
// header, and an ASCII fallback beside filename* for other names.
func TestAttachment(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]string{
		"invoices/2026/A-1001.pdf": `attachment; filename="A-1001.pdf"`,
		"report.csv":               `attachment; filename="report.csv"`,
		`a/"quoted\name".txt`:      `attachment; filename="_quoted_name_.txt"`,
		"line\r\nSet-Cookie: x=1":  `attachment; filename="line__Set-Cookie: x=1"`,
		"folder/":                  `attachment; filename="object"`,
		"a/..":                     `attachment; filename="object"`,
		"résumé 1;2.pdf":           `attachment; filename="r_sum_ 1;2.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%201%3B2.pdf`,
	} {
		if got := attachment(key); got != want {
			t.Errorf("attachment(%q) = %s, want %s", key, got, want)
		}
	}
}
