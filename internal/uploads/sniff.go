package uploads

import "bytes"

// Types are the content types a file may have.
var Types = []string{"application/pdf", "image/png", "image/tiff", "image/jpeg"}

// Sniff names the type of a file from its first bytes ("" when it is none
// of Types). PDF readers accept a header within the first 1024 bytes.
func Sniff(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")),
		bytes.HasPrefix(head, []byte("II+\x00")), bytes.HasPrefix(head, []byte("MM\x00+")): // classic and BigTIFF
		return "image/tiff"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	}
	if i := bytes.Index(head[:min(len(head), 1024)], []byte("%PDF-")); i >= 0 {
		return "application/pdf"
	}
	return ""
}

// Allowed reports whether ct is one of Types.
func Allowed(ct string) bool {
	for _, t := range Types {
		if t == ct {
			return true
		}
	}
	return false
}
