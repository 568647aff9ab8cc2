package tlsca

import (
	"crypto/tls"
	"fmt"
	"os"
	"sync"
)

// LoadServerConfig returns a server TLS configuration serving the key pair in
// certFile and keyFile. The pair is reloaded on the first handshake after
// either file changes, so rotated certificates are picked up without a
// restart. If a reload fails (for example mid-rotation, when only one of the
// two files has been replaced) the previous pair keeps being served and the
// reload is retried on the next handshake.
func LoadServerConfig(certFile, keyFile string) (*tls.Config, error) {
	r := &reloader{certFile: certFile, keyFile: keyFile}
	cs, ks, err := r.stat()
	if err != nil {
		return nil, fmt.Errorf("tlsca: %w", err)
	}
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("tlsca: %w", err)
	}
	r.cert, r.certStat, r.keyStat = &pair, cs, ks
	return &tls.Config{
		MinVersion:     tls.VersionTLS12,
		NextProtos:     []string{"h2", "http/1.1"},
		GetCertificate: r.getCertificate,
	}, nil
}

type reloader struct {
	certFile, keyFile string

	mu                sync.Mutex
	cert              *tls.Certificate
	certStat, keyStat os.FileInfo
}

func (r *reloader) stat() (cert, key os.FileInfo, err error) {
	if cert, err = os.Stat(r.certFile); err != nil {
		return nil, nil, err
	}
	if key, err = os.Stat(r.keyFile); err != nil {
		return nil, nil, err
	}
	return cert, key, nil
}

func (r *reloader) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	cs, ks, err := r.stat()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil && (changed(r.certStat, cs) || changed(r.keyStat, ks)) {
		if pair, err := tls.LoadX509KeyPair(r.certFile, r.keyFile); err == nil {
			r.cert, r.certStat, r.keyStat = &pair, cs, ks
		}
	}
	return r.cert, nil
}

// changed also compares file identity and size because an atomic replace
// within the file system's timestamp granularity keeps the mtime.
func changed(old, cur os.FileInfo) bool {
	return !cur.ModTime().Equal(old.ModTime()) || cur.Size() != old.Size() || !os.SameFile(old, cur)
}
