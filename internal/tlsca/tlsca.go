// Package tlsca maintains a small local certificate authority and a server
// certificate signed by it, so the server can speak TLS without any external
// PKI, and serves the certificate with hot reload on rotation.
package tlsca

import (
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cloudflare/cfssl/config"
	"github.com/cloudflare/cfssl/csr"
	"github.com/cloudflare/cfssl/helpers"
	"github.com/cloudflare/cfssl/initca"
	"github.com/cloudflare/cfssl/signer"
	"github.com/cloudflare/cfssl/signer/local"
)

// File names inside the directory passed to Ensure.
const (
	nameCA     = "ca.pem"
	nameCAKey  = "ca-key.pem"
	nameCert   = "server.pem"
	nameKey    = "server-key.pem"
	caSubject  = "plangraph local CA"
	caValidity = 10 * 365 * 24 * time.Hour
	// 825 days is the maximum lifetime Apple platforms accept for TLS
	// server certificates.
	serverValidity = 825 * 24 * time.Hour
	// renewBefore is how long before expiry a certificate is replaced.
	renewBefore = 30 * 24 * time.Hour
)

// defaultHosts are used when Ensure is called without hosts.
var defaultHosts = []string{"localhost", "127.0.0.1", "::1"}

// Files holds the paths of the CA and server certificate and key files.
type Files struct {
	CA, CAKey, Cert, Key string
}

// Ensure makes dir contain a CA and a server certificate signed by it that
// is valid for every host in hosts (localhost, 127.0.0.1 and ::1 when empty) for at least
// another 30 days. Existing files are reused; only what is missing, stale or
// inconsistent is (re)generated, and a reissued server certificate keeps the
// names of the one it replaces. Ensure is not safe for concurrent use on the
// same dir by several processes.
func Ensure(dir string, hosts []string) (Files, error) {
	hosts, err := normalizeHosts(hosts)
	if err != nil {
		return Files{}, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Files{}, fmt.Errorf("tlsca: create %s: %w", dir, err)
	}
	f := Files{
		CA:    filepath.Join(dir, nameCA),
		CAKey: filepath.Join(dir, nameCAKey),
		Cert:  filepath.Join(dir, nameCert),
		Key:   filepath.Join(dir, nameKey),
	}
	now := time.Now()

	ca, err := loadCA(f, now)
	if err != nil {
		return Files{}, err
	}
	if ca == nil {
		if ca, err = createCA(f); err != nil {
			return Files{}, err
		}
	}

	names := hosts
	cur, err := loadServer(f)
	if err != nil {
		return Files{}, err
	}
	if cur != nil {
		if serverUsable(cur, ca, hosts, now) {
			return f, nil
		}
		names = mergeHosts(hosts, certHosts(cur))
	}
	if err := issueServer(f, ca, names, now.Add(serverValidity)); err != nil {
		return Files{}, err
	}
	return f, nil
}

type authority struct {
	cert *x509.Certificate
	key  crypto.Signer
}

// loadCA returns the existing CA, or nil when a new one must be created.
func loadCA(f Files, now time.Time) (*authority, error) {
	certPEM, certErr := os.ReadFile(f.CA)
	keyPEM, keyErr := os.ReadFile(f.CAKey)
	if errors.Is(certErr, fs.ErrNotExist) || errors.Is(keyErr, fs.ErrNotExist) {
		return nil, nil
	}
	if err := errors.Join(certErr, keyErr); err != nil {
		return nil, fmt.Errorf("tlsca: read CA: %w", err)
	}
	cert, err := helpers.ParseCertificatePEM(certPEM)
	if err != nil {
		return nil, fmt.Errorf("tlsca: parse %s: %w", f.CA, err)
	}
	key, err := helpers.ParsePrivateKeyPEM(keyPEM)
	if err != nil {
		return nil, fmt.Errorf("tlsca: parse %s: %w", f.CAKey, err)
	}
	// A mismatch or a non-CA certificate means someone else put these files
	// here; refuse rather than silently replace a CA clients may trust.
	if pub, ok := cert.PublicKey.(interface{ Equal(crypto.PublicKey) bool }); !ok || !pub.Equal(key.Public()) {
		return nil, fmt.Errorf("tlsca: %s does not match %s; remove both to create a new CA", f.CAKey, f.CA)
	}
	if !cert.IsCA || cert.KeyUsage&x509.KeyUsageCertSign == 0 {
		return nil, fmt.Errorf("tlsca: %s is not a CA certificate", f.CA)
	}
	if now.Add(renewBefore).After(cert.NotAfter) {
		// Nothing it signs could outlive it; start over with a new CA.
		return nil, nil
	}
	return &authority{cert: cert, key: key}, nil
}

func createCA(f Files) (*authority, error) {
	req := &csr.CertificateRequest{
		CN:         caSubject,
		KeyRequest: &csr.KeyRequest{A: "ecdsa", S: 256},
		CA: &csr.CAConfig{
			Expiry:      caValidity.String(),
			PathLenZero: true, // may sign leaf certificates only
		},
	}
	certPEM, _, keyPEM, err := initca.New(req)
	if err != nil {
		return nil, fmt.Errorf("tlsca: create CA: %w", err)
	}
	cert, err := helpers.ParseCertificatePEM(certPEM)
	if err != nil {
		return nil, fmt.Errorf("tlsca: parse new CA: %w", err)
	}
	key, err := helpers.ParsePrivateKeyPEM(keyPEM)
	if err != nil {
		return nil, fmt.Errorf("tlsca: parse new CA key: %w", err)
	}
	// Drop the old certificate first so a crash between the two writes
	// leaves a missing certificate (regenerated next time) rather than a
	// certificate that does not match its key.
	if err := os.Remove(f.CA); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("tlsca: %w", err)
	}
	if err := writeFileAtomic(f.CAKey, keyPEM, 0o600); err != nil {
		return nil, err
	}
	if err := writeFileAtomic(f.CA, certPEM, 0o644); err != nil {
		return nil, err
	}
	return &authority{cert: cert, key: key}, nil
}

// loadServer returns the current server certificate, or nil when it is
// missing, unreadable or does not match its key, all of which a reissue fixes.
func loadServer(f Files) (*x509.Certificate, error) {
	pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("tlsca: %w", err)
		}
		return nil, nil
	}
	if pair.Leaf != nil {
		return pair.Leaf, nil
	}
	cert, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, nil
	}
	return cert, nil
}

// serverUsable reports whether cert chains to ca, covers hosts and is not
// about to expire.
func serverUsable(cert *x509.Certificate, ca *authority, hosts []string, now time.Time) bool {
	if now.Add(renewBefore).After(cert.NotAfter) {
		return false
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	opts := x509.VerifyOptions{
		Roots:       roots,
		CurrentTime: now,
		KeyUsages:   []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if _, err := cert.Verify(opts); err != nil {
		return false
	}
	for _, h := range hosts {
		if cert.VerifyHostname(h) != nil {
			return false
		}
	}
	return true
}

func issueServer(f Files, ca *authority, hosts []string, notAfter time.Time) error {
	if notAfter.After(ca.cert.NotAfter) {
		notAfter = ca.cert.NotAfter
	}
	req := &csr.CertificateRequest{
		CN:         hosts[0],
		Hosts:      hosts,
		KeyRequest: &csr.KeyRequest{A: "ecdsa", S: 256},
	}
	csrPEM, keyPEM, err := csr.ParseRequest(req)
	if err != nil {
		return fmt.Errorf("tlsca: server CSR: %w", err)
	}
	policy := &config.Signing{
		Default: &config.SigningProfile{
			// ECDSA keys sign; they never encipher, so no key encipherment.
			Usage:        []string{"digital signature", "server auth"},
			Expiry:       serverValidity,
			ExpiryString: serverValidity.String(),
		},
	}
	s, err := local.NewSigner(ca.key, ca.cert, signer.DefaultSigAlgo(ca.key), policy)
	if err != nil {
		return fmt.Errorf("tlsca: signer: %w", err)
	}
	certPEM, err := s.Sign(signer.SignRequest{
		Hosts:    hosts,
		Request:  string(csrPEM),
		NotAfter: notAfter,
	})
	if err != nil {
		return fmt.Errorf("tlsca: sign server certificate: %w", err)
	}
	// Key first: a reader that sees the new key with the old certificate
	// fails to pair them and keeps what it had (see LoadServerConfig).
	if err := writeFileAtomic(f.Key, keyPEM, 0o600); err != nil {
		return err
	}
	return writeFileAtomic(f.Cert, certPEM, 0o644)
}

// normalizeHosts applies the defaults, canonicalises IPs and DNS names and
// rejects entries cfssl would otherwise turn into e-mail or URI SANs.
func normalizeHosts(hosts []string) ([]string, error) {
	if len(hosts) == 0 {
		hosts = defaultHosts
	}
	out := make([]string, 0, len(hosts))
	for _, h := range hosts {
		h = strings.TrimSpace(h)
		if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
			h = h[1 : len(h)-1]
		}
		if h == "" {
			continue
		}
		if ip := net.ParseIP(h); ip != nil {
			out = append(out, ip.String())
			continue
		}
		if strings.ContainsAny(h, ":/@[] \t") {
			return nil, fmt.Errorf("tlsca: invalid host %q", h)
		}
		out = append(out, strings.ToLower(strings.TrimSuffix(h, ".")))
	}
	out = mergeHosts(out, nil)
	if len(out) == 0 {
		return nil, errors.New("tlsca: no hosts")
	}
	return out, nil
}

// mergeHosts returns a followed by the entries of b, without duplicates.
func mergeHosts(a, b []string) []string {
	seen := make(map[string]bool, len(a)+len(b))
	out := make([]string, 0, len(a)+len(b))
	for _, h := range append(append([]string(nil), a...), b...) {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out
}

func certHosts(c *x509.Certificate) []string {
	out := append([]string(nil), c.DNSNames...)
	for _, ip := range c.IPAddresses {
		out = append(out, ip.String())
	}
	return out
}

// writeFileAtomic replaces path with data so that readers and crashes see
// either the old or the new content, never a partial file.
func writeFileAtomic(path string, data []byte, perm os.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("tlsca: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("tlsca: write %s: %w", path, err)
		}
	}()
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// Persist the rename itself; best effort because not every platform
	// can sync a directory.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
