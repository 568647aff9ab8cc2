package synth

import (
	"crypto/sha256"
	"fmt"
	"testing"
)

// TestClassicBytes pins the classic output: these hashes were taken from
// the generator before Options.Conventions existed, and "" and "classic"
// must keep drawing exactly those bytes.
func TestClassicBytes(t *testing.T) {
	for _, c := range []struct {
		o               Options
		pdf, rev, truth string
	}{
		{Options{Seed: 1, Revision: true},
			"563f9dda5740f2b8fdd4efaad5c46aee8417279c29d573ad0e1a20ec9ff5f1c6", "07ee10229c192a1de7961f8ab65836912857cae0de432029a917c35ea42a1b26", "b3a8a70b914b69ccb970b0c1e1fd91c2a23d3c6b8ac7d3c75c9b6d2a4ff1bfca"},
		{Options{Seed: 2, Revision: true, PageSize: "42x30"},
			"237999eb8f6cfb3341464d5e92e65b2e26acbcf956797b4601f61d2ba9cfdc4c", "22697df1085025d1e18285e26d771177222e334bb66953795d492720b55c26ad", "573486ca8de5f18998b2caf94770f9174c9636cba37e94ad4a55179dfa367a5f"},
		{Options{Seed: 3, Revision: true, PageSize: "24x18", Vary: true},
			"ea6681f74eb8f7f4fab8e0c2e0623c8eef25327ad9aff1384d849521510128c4", "fc26dfbd8a17f963e0336103d24a03c1b23f826e61cbe65e91384a116d8a45ec", "ba6bfcffc27971faffa0d86ff08db5530ef8aadd39619214af0d9117cf8cbb48"},
		{Options{Seed: 1, Sheets: 7, Revision: true, Vary: true},
			"c4e5c175bbaf6c47cdb3c57bc6ef74c75cc26f89399eb1085bcee7d241a35939", "87a806e29a546d7791e186b60019e10f23c9c7d956f4719e6663e6e8ef7f2777", "4d4de1df7e3885e70266e8d281954cd8b122fccbd959aa0fcb25800f247e679f"},
	} {
		for _, conv := range []string{"", "classic", "Classic"} {
			o := c.o
			o.Conventions = conv
			s := mustGen(t, o)
			h := func(b []byte) string { return fmt.Sprintf("%x", sha256.Sum256(b)) }
			if got := h(pdfBytes(t, s, false)); got != c.pdf {
				t.Errorf("%+v: PDF hash %s, want %s", o, got, c.pdf)
			}
			if got := h(pdfBytes(t, s, true)); got != c.rev {
				t.Errorf("%+v: revision PDF hash %s, want %s", o, got, c.rev)
			}
			if got := h(truthBytes(t, s)); got != c.truth {
				t.Errorf("%+v: truth hash %s, want %s", o, got, c.truth)
			}
		}
	}
	if _, err := Generate(Options{Conventions: "baroque"}); err == nil {
		t.Error("unknown conventions accepted")
	}
}
