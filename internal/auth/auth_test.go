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
	for _, tc := range []struct {
		name, header, value, want string
	}{
		{"bearer", "Authorization", "Bearer sk_abc", "sk_abc"},
		{"lower-case bearer", "authorization", "bearer   sk_abc ", "sk_abc"},
		{"x-api-key", "X-API-Key", "sk_xyz", "sk_xyz"},
		{"basic auth must not count as a key", "Authorization", "Basic Zm9vOmJhcg==", ""},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set(tc.header, tc.value)
		if got := FromRequest(r); got != tc.want {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}
