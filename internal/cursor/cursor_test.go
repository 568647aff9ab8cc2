package cursor

import (
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/internal/apierr"
)

func TestCursorRoundTripAndRejections(t *testing.T) {
	c := Codec{Key: []byte("0123456789abcdef0123456789abcdef")}
	in := Cursor{Org: "org_a", List: "sheets", Filters: map[string]string{"project_id": "prj_x"}, Limit: 20,
		Time: time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC), ID: "sht_1", Prev: true}
	s := c.Encode(in)
	out, err := c.Decode(s, "org_a", "sheets")
	if err != nil {
		t.Fatal(err)
	}
	if !out.Time.Equal(in.Time) || out.ID != in.ID || !out.Prev || out.Filters["project_id"] != "prj_x" || out.Limit != 20 {
		t.Fatalf("round trip changed the cursor: %+v", out)
	}
	payload, sig, _ := strings.Cut(s, ".")
	tampered := []string{
		"", "abc", s + "x", payload + ".AAAA", "x" + payload[1:] + "." + sig,
	}
	for _, bad := range tampered {
		if _, err := c.Decode(bad, "org_a", "sheets"); apierr.From(err).MachineCode() != "INVALID_CURSOR" {
			t.Errorf("decode(%q) = %v, want INVALID_CURSOR", bad, err)
		}
	}
	if _, err := c.Decode(s, "org_b", "sheets"); err == nil {
		t.Error("another organization's cursor was accepted")
	}
	if _, err := c.Decode(s, "org_a", "blocks"); err == nil {
		t.Error("another list's cursor was accepted")
	}
	other := Codec{Key: []byte("another key, another deployment")}
	if _, err := other.Decode(s, "org_a", "sheets"); err == nil {
		t.Error("a cursor signed with another key was accepted")
	}
}

func TestCursorExpires(t *testing.T) {
	c := Codec{Key: []byte("k")}
	in := Cursor{Org: "o", List: "l", ID: "x"}
	in.V = 1
	// craft an expired one with a valid signature
	s := c.Encode(in)
	cur, _ := c.Decode(s, "o", "l")
	cur.Exp = time.Now().Add(-time.Minute).Unix()
	expired := c.Seal(cur)
	if _, err := c.Decode(expired, "o", "l"); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired cursor: got %v", err)
	}
}

func FuzzCursorDecode(f *testing.F) {
	c := Codec{Key: []byte("fuzz-key")}
	f.Add(c.Encode(Cursor{Org: "o", List: "l", ID: "x", Limit: 5}))
	f.Add("")
	f.Add("a.b")
	f.Add("eyJ2IjoxfQ.")
	f.Fuzz(func(t *testing.T, s string) {
		cur, err := c.Decode(s, "o", "l")
		if err == nil && (cur.Org != "o" || cur.List != "l") {
			t.Fatalf("accepted a cursor for another list: %+v", cur)
		}
		if err != nil && apierr.From(err).Status() != 400 {
			t.Fatalf("decode error is not a 400: %v", err)
		}
	})
}
