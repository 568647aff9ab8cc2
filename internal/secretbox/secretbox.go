// Package secretbox encrypts the secrets plangraph keeps in its database —
// webhook signing secrets, the cursor and upload signing keys — with a key
// kept outside it (AES-256-GCM), so that a copy of the database (a backup,
// a replica, a dump handed to support) does not hold them in the clear.
//
// The key is PLANGRAPH_SECRETS_KEY (32 bytes, base64 or hex) when set —
// every process of a deployment spread over machines must be given the
// same — or else the file secrets.key in the data directory, made on first
// start with mode 0600.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// EnvKey names the environment variable holding the key.
const EnvKey = "PLANGRAPH_SECRETS_KEY"

// KeyFile is the key's file name in the data directory.
const KeyFile = "secrets.key"

// prefix marks a sealed value; values without it are from before
// encryption and are read as they are (and sealed by Sealed's callers).
const prefix = "sb1:"

// Box seals and opens values. A nil *Box leaves values as they are: only
// tests that construct services without one use it.
type Box struct{ aead cipher.AEAD }

// New makes a box from a 32-byte key.
func New(key []byte) (*Box, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("secretbox: the key is %d bytes, want 32", len(key))
	}
	blk, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(blk)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// Load makes the box of a deployment: the key from EnvKey, or from
// dataDir/secrets.key (created with a random key, mode 0600, when missing;
// its mode is set to 0600 on every load).
func Load(dataDir string) (*Box, error) {
	if v := strings.TrimSpace(os.Getenv(EnvKey)); v != "" {
		key, err := decodeKey(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", EnvKey, err)
		}
		return New(key)
	}
	path := filepath.Join(dataDir, KeyFile)
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, err
		}
		// written whole to a temporary file, then linked into place: a
		// process starting at the same time reads the one key or none
		tmp, err := os.CreateTemp(dataDir, KeyFile+".*")
		if err != nil {
			return nil, fmt.Errorf("secretbox: %w", err)
		}
		defer os.Remove(tmp.Name())
		_, err = tmp.WriteString(base64.StdEncoding.EncodeToString(key) + "\n")
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp.Name(), 0o600)
		}
		if err != nil {
			return nil, fmt.Errorf("secretbox: writing %s: %w", path, err)
		}
		if err := os.Link(tmp.Name(), path); err == nil {
			return New(key)
		} else if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("secretbox: %w", err)
		}
		raw, err = os.ReadFile(path) // another process made it meanwhile
	}
	if err != nil {
		return nil, fmt.Errorf("secretbox: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return nil, fmt.Errorf("secretbox: %w", err)
	}
	key, err := decodeKey(strings.TrimSpace(string(raw)))
	if err != nil {
		return nil, fmt.Errorf("secretbox: %s: %w", path, err)
	}
	return New(key)
}

func decodeKey(s string) ([]byte, error) {
	if b, err := hex.DecodeString(s); err == nil && len(b) == 32 {
		return b, nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != 32 {
		return nil, errors.New("want 32 bytes, base64 or hex")
	}
	return b, nil
}

// Seal encrypts plain.
func (b *Box) Seal(plain string) string {
	if b == nil {
		return plain
	}
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return prefix + base64.RawStdEncoding.EncodeToString(b.aead.Seal(nonce, nonce, []byte(plain), nil))
}

// Open decrypts a sealed value; a value sealed before encryption (no
// prefix) is returned as it is.
func (b *Box) Open(v string) (string, error) {
	rest, sealed := strings.CutPrefix(v, prefix)
	if !sealed {
		return v, nil
	}
	if b == nil {
		return "", errors.New("secretbox: a sealed value and no key to open it")
	}
	raw, err := base64.RawStdEncoding.DecodeString(rest)
	n := b.aead.NonceSize()
	if err != nil || len(raw) < n {
		return "", errors.New("secretbox: malformed sealed value")
	}
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], nil)
	if err != nil {
		return "", errors.New("secretbox: the value does not open with this key (was PLANGRAPH_SECRETS_KEY or secrets.key changed?)")
	}
	return string(plain), nil
}

// Sealed reports whether v is sealed.
func Sealed(v string) bool { return strings.HasPrefix(v, prefix) }
