package sheetmeta

import "testing"

func TestNormalizeAndDiscipline(t *testing.T) {
	tests := []struct{ in, norm, disc string }{
		{"A-100", "A100", "architectural"},
		{"A100", "A100", "architectural"},
		{"a.100", "A100", "architectural"},
		{"E201A", "E201A", "electrical"},
		{"AF101", "AF101", "architectural"},
		{"M-101", "M101", "mechanical"},
		{"S3.1", "S31", "structural"},
		{"FP-2.01", "FP201", "fire_protection"},
		{"F-1", "F1", "fire_protection"},
		{"P1", "P1", "plumbing"},
		{"XYZ1", "XYZ1", ""},
		{"101", "101", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.norm {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.norm)
		}
		if got := Discipline(tt.in); got != tt.disc {
			t.Errorf("Discipline(%q) = %q, want %q", tt.in, got, tt.disc)
		}
	}
	for _, d := range Disciplines() {
		if !ValidDiscipline(d) {
			t.Errorf("%q listed but not valid", d)
		}
	}
	if ValidDiscipline("cooking") {
		t.Error("unknown discipline accepted")
	}
}
