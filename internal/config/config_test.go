package config

import (
	"strings"
	"testing"
)

// --ocr-languages takes Tesseract codes joined by "+" (English when
// empty) and refuses anything else, naming it.
func TestOCRLanguages(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{"", "eng", ""},
		{"eng+jpn", "eng+jpn", ""},
		{"chi_sim", "chi_sim", ""},
		{"eng+", "", `""`},
		{"english", "", `"english"`},
		{"eng jpn", "", `"eng jpn"`},
	} {
		c := Config{DataDir: t.TempDir(), LogLevel: "info", OCRLanguages: tc.in}
		err := c.Resolve()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), "--ocr-languages") || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want one naming %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || c.OCRLanguages != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, c.OCRLanguages, err, tc.want)
		}
	}
}
