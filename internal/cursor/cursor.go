// Package cursor makes the opaque list cursors of the REST API: the state
// of a list walk, sealed with an HMAC so clients can neither read nor forge
// it.
package cursor

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/apierr"
)

// TTL is how long a cursor stays valid.
const TTL = 24 * time.Hour

// Cursor is the signed state of a list walk: who may use it, which list
// and filters it continues, and the key of the row it continues from.
type Cursor struct {
	V       int               `json:"v"`
	Org     string            `json:"o"`
	List    string            `json:"l"`
	Filters map[string]string `json:"f,omitempty"`
	Limit   int               `json:"n"`
	Time    time.Time         `json:"t"`
	ID      string            `json:"i"`
	Prev    bool              `json:"p,omitempty"` // walk towards newer records
	Exp     int64             `json:"e"`
}

func errCursor(msg string) error {
	return apierr.New(apierr.Validation, "%s", msg).WithCode("INVALID_CURSOR").Field("cursor", msg)
}

// Codec seals and opens cursors with Key (shared by every api process).
type Codec struct{ Key []byte }

func (c Codec) sign(payload string) string {
	m := hmac.New(sha256.New, c.Key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// Encode seals cur; clients cannot read or change what it says.
func (c Codec) Encode(cur Cursor) string {
	cur.V = 1
	cur.Exp = time.Now().Add(TTL).Unix()
	return c.Seal(cur)
}

// Seal signs cur as it is (its expiry included).
func (c Codec) Seal(cur Cursor) string {
	b, _ := json.Marshal(cur)
	p := base64.RawURLEncoding.EncodeToString(b)
	return p + "." + c.sign(p)
}

// Decode checks the signature, version, expiry, organization and list.
func (c Codec) Decode(s, org, list string) (Cursor, error) {
	var cur Cursor
	p, sig, ok := strings.Cut(s, ".")
	if !ok || len(s) > 4096 || !hmac.Equal([]byte(sig), []byte(c.sign(p))) {
		return cur, errCursor("the cursor is not valid: pass _meta.next or _meta.prev from a previous response unchanged")
	}
	b, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil || json.Unmarshal(b, &cur) != nil || cur.V != 1 {
		return cur, errCursor("the cursor is not valid")
	}
	if time.Now().Unix() > cur.Exp {
		return cur, errCursor("the cursor has expired: start the list again without a cursor")
	}
	if cur.Org != org || cur.List != list {
		return cur, errCursor("the cursor belongs to another list")
	}
	return cur, nil
}
