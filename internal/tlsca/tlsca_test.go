package tlsca

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/tls"
	"crypto/x509"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cloudflare/cfssl/helpers"
)

func readCert(t *testing.T, path string) *x509.Certificate {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := helpers.ParseCertificatePEM(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func verify(t *testing.T, f Files, host string) {
	t.Helper()
	roots := x509.NewCertPool()
	roots.AddCert(readCert(t, f.CA))
	_, err := readCert(t, f.Cert).Verify(x509.VerifyOptions{
		DNSName:   host,
		Roots:     roots,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	})
	if err != nil {
		t.Errorf("verify %s: %v", host, err)
	}
}

type snapshot map[string][]byte

func snap(t *testing.T, f Files) snapshot {
	t.Helper()
	s := snapshot{}
	for _, p := range []string{f.CA, f.CAKey, f.Cert, f.Key} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s[p] = b
	}
	return s
}

func TestEnsureGeneratesVerifiableChain(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	f, err := Ensure(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.CA != filepath.Join(dir, "ca.pem") || f.CAKey != filepath.Join(dir, "ca-key.pem") ||
		f.Cert != filepath.Join(dir, "server.pem") || f.Key != filepath.Join(dir, "server-key.pem") {
		t.Fatalf("unexpected paths %+v", f)
	}
	for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
		verify(t, f, h)
	}

	ca := readCert(t, f.CA)
	if ca.Subject.CommonName != "plangraph local CA" || !ca.IsCA || ca.MaxPathLen != 0 || !ca.MaxPathLenZero {
		t.Errorf("CA subject %q IsCA %v pathlen %d/%v", ca.Subject.CommonName, ca.IsCA, ca.MaxPathLen, ca.MaxPathLenZero)
	}
	if k, ok := ca.PublicKey.(*ecdsa.PublicKey); !ok || k.Curve != elliptic.P256() {
		t.Errorf("CA key is %T, want ECDSA P-256", ca.PublicKey)
	}
	if d := ca.NotAfter.Sub(time.Now()); d < 9*365*24*time.Hour || d > 11*365*24*time.Hour {
		t.Errorf("CA lifetime %v, want about 10 years", d)
	}

	srv := readCert(t, f.Cert)
	if k, ok := srv.PublicKey.(*ecdsa.PublicKey); !ok || k.Curve != elliptic.P256() {
		t.Errorf("server key is %T, want ECDSA P-256", srv.PublicKey)
	}
	if srv.IsCA {
		t.Error("server certificate is a CA")
	}
	if len(srv.ExtKeyUsage) != 1 || srv.ExtKeyUsage[0] != x509.ExtKeyUsageServerAuth {
		t.Errorf("server EKU %v, want server auth only", srv.ExtKeyUsage)
	}
	if d := srv.NotAfter.Sub(time.Now()); d < 824*24*time.Hour || d > 826*24*time.Hour {
		t.Errorf("server lifetime %v, want 825 days", d)
	}
	if len(srv.DNSNames) != 1 || srv.DNSNames[0] != "localhost" {
		t.Errorf("DNS SANs %v", srv.DNSNames)
	}
	if len(srv.IPAddresses) != 2 || !srv.IPAddresses[0].Equal(net.IPv4(127, 0, 0, 1)) || !srv.IPAddresses[1].Equal(net.IPv6loopback) {
		t.Errorf("IP SANs %v", srv.IPAddresses)
	}
	if _, err := tls.LoadX509KeyPair(f.Cert, f.Key); err != nil {
		t.Errorf("server pair: %v", err)
	}
}

func TestEnsurePermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "tls")
	f, err := Ensure(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{dir: 0o700 | os.ModeDir, f.CA: 0o644, f.Cert: 0o644, f.CAKey: 0o600, f.Key: 0o600}
	for p, m := range want {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != m {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode(), m)
		}
	}
	// No temporary files are left behind.
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 4 {
		t.Errorf("dir has %d entries, want 4", len(entries))
	}
}

func TestEnsureReusesFiles(t *testing.T) {
	dir := t.TempDir()
	f, err := Ensure(dir, []string{"localhost", "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	before := snap(t, f)
	mtime := func() time.Time {
		fi, err := os.Stat(f.Cert)
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	m := mtime()
	// Same hosts in another spelling, and a subset, are already covered.
	for _, hosts := range [][]string{{"LOCALHOST", " 127.0.0.1 "}, {"localhost"}} {
		f2, err := Ensure(dir, hosts)
		if err != nil {
			t.Fatal(err)
		}
		if f2 != f {
			t.Fatalf("paths changed: %+v vs %+v", f2, f)
		}
		for p, b := range snap(t, f) {
			if !bytes.Equal(b, before[p]) {
				t.Errorf("%s changed on Ensure(%q)", p, hosts)
			}
		}
	}
	if !mtime().Equal(m) {
		t.Error("server certificate rewritten")
	}
}

func TestEnsureExtraHostReissuesServerKeepsCA(t *testing.T) {
	dir := t.TempDir()
	f, err := Ensure(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := snap(t, f)
	if _, err := Ensure(dir, []string{"plangraph.test", "10.1.2.3"}); err != nil {
		t.Fatal(err)
	}
	after := snap(t, f)
	if !bytes.Equal(before[f.CA], after[f.CA]) || !bytes.Equal(before[f.CAKey], after[f.CAKey]) {
		t.Error("CA changed")
	}
	if bytes.Equal(before[f.Cert], after[f.Cert]) || bytes.Equal(before[f.Key], after[f.Key]) {
		t.Error("server certificate not reissued")
	}
	// Old names stay valid so earlier callers keep working.
	for _, h := range []string{"plangraph.test", "10.1.2.3", "localhost", "127.0.0.1", "::1"} {
		verify(t, f, h)
	}
	if cn := readCert(t, f.Cert).Subject.CommonName; cn != "plangraph.test" {
		t.Errorf("CN %q", cn)
	}
}

func TestEnsureRenewsExpiringServerCert(t *testing.T) {
	dir := t.TempDir()
	f, err := Ensure(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := loadCA(f, time.Now())
	if err != nil || ca == nil {
		t.Fatalf("loadCA: %v %v", ca, err)
	}
	if err := issueServer(f, ca, defaultHosts, time.Now().Add(10*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := Ensure(dir, nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Until(readCert(t, f.Cert).NotAfter); d < 800*24*time.Hour {
		t.Errorf("server certificate not renewed, expires in %v", d)
	}
}

func TestEnsureReplacesMissingOrForeignPieces(t *testing.T) {
	dir := t.TempDir()
	f, err := Ensure(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := snap(t, f)

	// Without its key the CA is useless: a new CA and server certificate.
	if err := os.Remove(f.CAKey); err != nil {
		t.Fatal(err)
	}
	if _, err := Ensure(dir, nil); err != nil {
		t.Fatal(err)
	}
	cur := snap(t, f)
	if bytes.Equal(old[f.CA], cur[f.CA]) || bytes.Equal(old[f.Cert], cur[f.Cert]) {
		t.Error("CA or server certificate not regenerated")
	}
	verify(t, f, "localhost")

	// A server key that does not match its certificate is reissued.
	if err := os.WriteFile(f.Key, old[f.Key], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Ensure(dir, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tls.LoadX509KeyPair(f.Cert, f.Key); err != nil {
		t.Error(err)
	}
	verify(t, f, "localhost")

	// A CA key that does not match the CA is an error, never silently replaced.
	if err := os.WriteFile(f.CAKey, old[f.CAKey], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Ensure(dir, nil); err == nil {
		t.Error("mismatched CA accepted")
	}
}

func TestEnsureRejectsBadHosts(t *testing.T) {
	for _, h := range []string{"localhost:8443", "https://x", "a@b", "a b"} {
		if _, err := Ensure(t.TempDir(), []string{h}); err == nil {
			t.Errorf("host %q accepted", h)
		}
	}
}

func TestLoadServerConfigReloads(t *testing.T) {
	dir := t.TempDir()
	f, err := Ensure(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadServerConfig(f.Cert, f.Key)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MinVersion != tls.VersionTLS12 || len(cfg.NextProtos) != 2 || cfg.NextProtos[0] != "h2" || cfg.NextProtos[1] != "http/1.1" {
		t.Errorf("config %v %v", cfg.MinVersion, cfg.NextProtos)
	}
	c1, err := cfg.GetCertificate(&tls.ClientHelloInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if c1.Leaf.VerifyHostname("rotated.test") == nil {
		t.Fatal("unexpected host in first certificate")
	}
	if c, _ := cfg.GetCertificate(&tls.ClientHelloInfo{}); c != c1 {
		t.Error("unchanged files reloaded")
	}

	if _, err := Ensure(dir, []string{"rotated.test"}); err != nil {
		t.Fatal(err)
	}
	c2, err := cfg.GetCertificate(&tls.ClientHelloInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c2.Leaf.VerifyHostname("rotated.test"); err != nil {
		t.Errorf("rotated certificate not picked up: %v", err)
	}

	// A half-done rotation keeps serving the last good pair.
	other, err := Ensure(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(other.Key)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(f.Key, key, 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := cfg.GetCertificate(&tls.ClientHelloInfo{}); err != nil || c != c2 {
		t.Errorf("mismatched pair: got %p, %v; want last good pair", c, err)
	}

	if _, err := LoadServerConfig(filepath.Join(dir, "missing.pem"), f.Key); err == nil {
		t.Error("missing certificate accepted")
	}
}
