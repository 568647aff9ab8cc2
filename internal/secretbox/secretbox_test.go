package secretbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSealOpenAndKeyFile(t *testing.T) {
	t.Setenv(EnvKey, "")
	dir := filepath.Join(t.TempDir(), "data")
	b, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v", fi, err)
	}
	s := b.Seal("whsec_abc")
	if strings.Contains(s, "whsec") || !Sealed(s) || s == b.Seal("whsec_abc") {
		t.Fatalf("sealed %q (two seals must differ)", s)
	}
	// a second load reads the same key, and repairs the file's mode
	if err := os.Chmod(filepath.Join(dir, KeyFile), 0o644); err != nil {
		t.Fatal(err)
	}
	b2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b2.Open(s); err != nil || got != "whsec_abc" {
		t.Fatalf("open: %q, %v", got, err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, KeyFile)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after load %v", fi.Mode().Perm())
	}
	// legacy plaintext reads as it is; another key does not open
	if got, err := b2.Open("whsec_old"); err != nil || got != "whsec_old" {
		t.Errorf("legacy: %q, %v", got, err)
	}
	t.Setenv(EnvKey, strings.Repeat("ab", 32))
	other, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Open(s); err == nil {
		t.Error("a value opened with another key")
	}
	t.Setenv(EnvKey, "short")
	if _, err := Load(dir); err == nil {
		t.Error("a short key was accepted")
	}
}
