package auth

import (
	"net/http/httptest"
	"testing"
)

func TestNewKeyShape(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		k, err := NewKey()
		if err != nil {
			t.Fatal(err)
		}
		if !WellFormed(k) || len(k) != 46 {
			t.Fatalf("NewKey() = %q is not well formed", k)
		}
		if seen[k] {
			t.Fatal("duplicate key")
		}
		seen[k] = true
		if Hash(k) == k || len(Hash(k)) != 64 {
			t.Fatal("hash must not be the key")
		}
	}
	for _, bad := range []string{"", "sk_", "sk_short", "pk_" + string(make([]byte, 43)), "sk_" + "!" + "a123456789012345678901234567890123456789012"} {
		if WellFormed(bad) {
			t.Errorf("WellFormed(%q) = true", bad)
		}
	}
}

func TestFromRequest(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Bearer sk_abc")
	if got := FromRequest(r); got != "sk_abc" {
		t.Errorf("bearer: %q", got)
	}
	r = httptest.NewRequest("GET", "/", nil)
	r.Header.Set("authorization", "bearer   sk_abc ")
	if got := FromRequest(r); got != "sk_abc" {
		t.Errorf("lower-case bearer: %q", got)
	}
	r = httptest.NewRequest("GET", "/", nil)
	r.Header.Set("X-API-Key", "sk_xyz")
	if got := FromRequest(r); got != "sk_xyz" {
		t.Errorf("x-api-key: %q", got)
	}
	r = httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Authorization", "Basic Zm9vOmJhcg==")
	if got := FromRequest(r); got != "" {
		t.Errorf("basic auth must not count as a key: %q", got)
	}
}
