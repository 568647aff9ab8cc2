// Package ids makes the service's identifiers: a type prefix ("prj_", "sht_"…)
// followed by a time-sortable random part (48-bit millisecond timestamp and
// 80 random bits, Crockford base32, lower case — 26 characters).
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"strings"
	"sync"
	"time"
)

// Prefixes of every identifier the service issues.
const (
	Organization    = "org"
	APIKey          = "key"
	Project         = "prj"
	File            = "fil"
	Drawing         = "drw"
	Sheet           = "sht"
	Block           = "blk"
	Overlay         = "ovl"
	Change          = "chg" // a described difference, stored in its overlay
	Job             = "job"
	Feature         = "ftr"
	Request         = "req"
	Idempotency     = "idk"
	Webhook         = "whe"
	Event           = "evt"
	WebhookDelivery = "whd"
)

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

var (
	mu       sync.Mutex
	lastMs   uint64
	lastRand [10]byte
)

// New returns prefix + "_" + a 26-character sortable id. Ids made in the
// same millisecond by this process increase monotonically.
func New(prefix string) string {
	var b [16]byte
	ms := uint64(time.Now().UnixMilli())
	mu.Lock()
	if ms <= lastMs {
		ms = lastMs
		// increment the 80-bit random part so ids stay ordered
		for i := 9; i >= 0; i-- {
			lastRand[i]++
			if lastRand[i] != 0 {
				break
			}
		}
	} else {
		lastMs = ms
		if _, err := rand.Read(lastRand[:]); err != nil {
			panic(err)
		}
	}
	var tsb [8]byte
	binary.BigEndian.PutUint64(tsb[:], ms)
	copy(b[0:6], tsb[2:8])
	copy(b[6:], lastRand[:])
	mu.Unlock()
	return prefix + "_" + encode(b)
}

// encode writes 128 bits as 26 base32 characters (the first carries 3 bits).
func encode(b [16]byte) string {
	hi := binary.BigEndian.Uint64(b[0:8])
	lo := binary.BigEndian.Uint64(b[8:16])
	var out [26]byte
	for i := 25; i >= 0; i-- {
		out[i] = alphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// Prefix returns the type prefix of id ("prj" for "prj_…"), or "" when id
// has none.
func Prefix(id string) string {
	i := strings.IndexByte(id, '_')
	if i <= 0 {
		return ""
	}
	return id[:i]
}

// Valid reports whether id has the given prefix and a well-formed body.
func Valid(prefix, id string) bool {
	if !strings.HasPrefix(id, prefix+"_") {
		return false
	}
	body := id[len(prefix)+1:]
	if len(body) != 26 {
		return false
	}
	for i := 0; i < len(body); i++ {
		if strings.IndexByte(alphabet, body[i]) < 0 {
			return false
		}
	}
	return true
}

// Derived is the id with the given prefix that from and key always give:
// it keeps from's timestamp part (so it sorts with from) and takes the rest
// from a hash of both. Records keyed this way exist once however many
// times they are created (retried tasks, concurrent workers).
func Derived(prefix, from, key string) string {
	body := from[strings.IndexByte(from, '_')+1:]
	if len(body) != 26 {
		body = strings.Repeat("0", 26)
	}
	h := sha256.Sum256([]byte(from + "\x00" + key))
	var tail [16]byte
	for i := range tail {
		tail[i] = alphabet[h[i]&31]
	}
	return prefix + "_" + body[:10] + string(tail[:])
}
