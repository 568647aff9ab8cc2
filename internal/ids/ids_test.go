package ids

import (
	"sort"
	"testing"
)

func TestNewIsPrefixedSortableAndUnique(t *testing.T) {
	const n = 10000
	seen := make(map[string]bool, n)
	list := make([]string, n)
	for i := range list {
		id := New(Project)
		if !Valid(Project, id) {
			t.Fatalf("New made an invalid id %q", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
		list[i] = id
	}
	if !sort.StringsAreSorted(list) {
		t.Fatal("ids made one after another are not in increasing order")
	}
}

func TestPrefixAndValid(t *testing.T) {
	tests := []struct {
		id, prefix string
		valid      bool
	}{
		{New(Sheet), "sht", true},
		{"sht_01m81zderh78b9hk05q42srh70", "sht", true},
		{"sht_01m81zderh78b9hk05q42srh7", "sht", false},  // short
		{"sht_01m81zderh78b9hk05q42srh7u", "sht", false}, // 'u' is not in the alphabet
		{"prj_01m81zderh78b9hk05q42srh70", "sht", false},
		{"nounderscore", "", false},
	}
	for _, tt := range tests {
		if got := Prefix(tt.id); tt.prefix != "" && got != tt.prefix && tt.valid {
			t.Errorf("Prefix(%q) = %q, want %q", tt.id, got, tt.prefix)
		}
		if got := Valid("sht", tt.id); got != (tt.valid && tt.prefix == "sht") {
			t.Errorf("Valid(sht, %q) = %v", tt.id, got)
		}
	}
}
