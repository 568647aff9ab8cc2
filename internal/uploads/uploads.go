// Package uploads moves file bytes in and out of the blob store through
// short-lived signed URLs, so clients never stream files through the JSON
// API and the API key never travels with the bytes.
package uploads

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/file"
	"github.com/plangraph/plangraph/internal/apierr"
	"github.com/plangraph/plangraph/internal/httpx"
	"github.com/plangraph/plangraph/internal/tenant"
)

// Service signs URLs and serves the bytes behind them.
type Service struct {
	DB        *ent.Client
	Bucket    *blob.Bucket
	Key       []byte // signs URLs; shared by every api process
	PublicURL string
	UploadTTL time.Duration
	// MaxSize is the largest file accepted.
	MaxSize int64
}

// StorageKey is where a file's bytes live in the bucket.
func StorageKey(orgID, fileID string) string { return "files/" + orgID + "/" + fileID }

func (s *Service) sign(parts ...string) string {
	m := hmac.New(sha256.New, s.Key)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// UploadURL is where the bytes of fileID (exactly size of them) are PUT.
func (s *Service) UploadURL(fileID string, size int64) (string, time.Time) {
	exp := time.Now().Add(s.UploadTTL).UTC().Truncate(time.Second)
	e, n := strconv.FormatInt(exp.Unix(), 10), strconv.FormatInt(size, 10)
	q := url.Values{"size": {n}, "expires": {e}, "signature": {s.sign("PUT", fileID, n, e)}}
	return s.PublicURL + "/uploads/" + fileID + "?" + q.Encode(), exp
}

// DownloadURL is a link to read fileID, valid for ttl.
func (s *Service) DownloadURL(fileID string, ttl time.Duration) (string, time.Time) {
	exp := time.Now().Add(ttl).UTC().Truncate(time.Second)
	e := strconv.FormatInt(exp.Unix(), 10)
	q := url.Values{"expires": {e}, "signature": {s.sign("GET", fileID, e)}}
	return s.PublicURL + "/downloads/" + fileID + "?" + q.Encode(), exp
}

var errSignature = apierr.New(apierr.Forbidden, "the URL's signature is not valid or has expired; request a new URL").WithCode("INVALID_SIGNATURE")

// verify checks a signed URL's signature and expiry.
func (s *Service) verify(q url.Values, parts ...string) error {
	e := q.Get("expires")
	exp, err := strconv.ParseInt(e, 10, 64)
	if err != nil || time.Now().Unix() > exp {
		return errSignature
	}
	if !hmac.Equal([]byte(q.Get("signature")), []byte(s.sign(append(parts, e)...))) {
		return errSignature
	}
	return nil
}

// Put receives the bytes of a file (PUT /uploads/{id}). More bytes than
// declared → 413, fewer → 400; either way nothing is stored.
func (s *Service) Put(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	q := r.URL.Query()
	if err := s.verify(q, "PUT", id, q.Get("size")); err != nil {
		httpx.Problem(w, r, err)
		return
	}
	size, _ := strconv.ParseInt(q.Get("size"), 10, 64)
	ctx := tenant.System(r.Context())
	f, err := s.DB.File.Get(ctx, id)
	if err != nil {
		httpx.Problem(w, r, apierr.From(err))
		return
	}
	if f.Status != file.StatusPending {
		httpx.Problem(w, r, errConfirmed(id))
		return
	}
	if r.ContentLength > size {
		httpx.Problem(w, r, apierr.New(apierr.TooLarge, "the upload is %d bytes but %d were declared", r.ContentLength, size))
		return
	}
	// the bytes go to an object of this upload's own, which the file takes
	// over only while it is pending: an upload still running when the file
	// is confirmed cannot change the confirmed bytes
	key := uploadKey(f.OrgID, id)
	n, err := s.store(ctx, key, f.ContentType, r.Body, size)
	if err == nil {
		err = s.adopt(ctx, id, key)
	}
	if err != nil {
		httpx.Problem(w, r, err)
		return
	}
	w.Header().Set("ETag", `"`+strconv.FormatInt(n, 10)+`"`)
	w.WriteHeader(http.StatusOK)
}

// uploadKey is a new object name for one upload of fileID's bytes, next to
// StorageKey's.
func uploadKey(orgID, fileID string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return StorageKey(orgID, fileID) + "." + hex.EncodeToString(b[:])
}

// errConfirmed is the answer to an upload for a file confirmed meanwhile.
func errConfirmed(id string) error {
	return apierr.New(apierr.Conflict, "file %s is already confirmed; its bytes cannot change", id).WithCode("FILE_ALREADY_CONFIRMED")
}

// adopt makes key, just written, the bytes of pending file id and deletes
// the object it replaces; when the file was confirmed meanwhile, key is
// deleted instead (409). Each replaced object is deleted by the one upload
// whose compare-and-set replaced it, so none is left behind.
func (s *Service) adopt(ctx context.Context, id, key string) error {
	for {
		f, err := s.DB.File.Get(ctx, id)
		if err != nil {
			_ = s.Delete(ctx, key)
			return apierr.From(err)
		}
		if f.Status != file.StatusPending {
			_ = s.Delete(ctx, key)
			return errConfirmed(id)
		}
		n, err := s.DB.File.Update().Where(file.ID(id), file.StatusEQ(file.StatusPending), file.StorageKey(f.StorageKey)).
			SetStorageKey(key).Save(ctx)
		if err != nil {
			_ = s.Delete(ctx, key)
			return apierr.Internalf(err, "recording the upload")
		}
		if n == 1 {
			if err := s.Delete(ctx, f.StorageKey); err != nil {
				return apierr.Internalf(err, "deleting the bytes replaced by the upload")
			}
			return nil
		}
		// another upload or the confirmation came first: look again
	}
}

// store copies body to key, aborting the write (nothing is kept) unless
// exactly size bytes arrive.
func (s *Service) store(ctx context.Context, key, ct string, body io.Reader, size int64) (int64, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bw, err := s.Bucket.NewWriter(wctx, key, &blob.WriterOptions{ContentType: ct})
	if err != nil {
		return 0, apierr.Internalf(err, "opening the blob store")
	}
	n, err := io.Copy(bw, io.LimitReader(body, size+1))
	switch {
	case err != nil:
		cancel()
		_ = bw.Close()
		return n, apierr.New(apierr.Validation, "the upload was interrupted after %d bytes", n).WithCode("UPLOAD_INCOMPLETE")
	case n > size:
		cancel()
		_ = bw.Close()
		return n, apierr.New(apierr.TooLarge, "the upload is larger than the %d bytes declared", size)
	case n < size:
		cancel()
		_ = bw.Close()
		return n, apierr.New(apierr.Validation, "the upload has %d bytes but %d were declared", n, size).WithCode("UPLOAD_INCOMPLETE")
	}
	if err := bw.Close(); err != nil {
		return n, apierr.Internalf(err, "writing to the blob store")
	}
	return n, nil
}

// Get streams a file's bytes (GET /downloads/{id}).
func (s *Service) Get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.verify(r.URL.Query(), "GET", id); err != nil {
		httpx.Problem(w, r, err)
		return
	}
	ctx := tenant.System(r.Context())
	f, err := s.DB.File.Get(ctx, id)
	if err != nil {
		httpx.Problem(w, r, apierr.From(err))
		return
	}
	rd, err := s.Bucket.NewReader(ctx, f.StorageKey, nil)
	if err != nil {
		httpx.Problem(w, r, blobErr(err, id))
		return
	}
	defer rd.Close()
	w.Header().Set("Content-Type", f.ContentType)
	w.Header().Set("Content-Length", strconv.FormatInt(rd.Size(), 10))
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", f.Filename))
	_, _ = io.Copy(w, rd)
}

func blobErr(err error, id string) error {
	if gcerrors.Code(err) == gcerrors.NotFound {
		return apierr.New(apierr.Validation, "nothing has been uploaded for file %s yet", id).WithCode("UPLOAD_MISSING")
	}
	return apierr.Internalf(err, "reading the blob store")
}

// Verified is what Confirm found in the uploaded bytes.
type Verified struct {
	Size   int64
	SHA256 string
	Type   string
}

// Confirm checks the bytes uploaded for f: all of them arrived, and they
// are of the declared type.
func (s *Service) Confirm(ctx context.Context, f *ent.File) (Verified, error) {
	rd, err := s.Bucket.NewReader(ctx, f.StorageKey, nil)
	if err != nil {
		return Verified{}, blobErr(err, f.ID)
	}
	defer rd.Close()
	if rd.Size() != f.Size {
		return Verified{}, apierr.New(apierr.Validation, "%d bytes were uploaded but %d were declared", rd.Size(), f.Size).WithCode("UPLOAD_INCOMPLETE")
	}
	head := make([]byte, 1024)
	n, err := io.ReadFull(rd, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Verified{}, apierr.Internalf(err, "reading the upload")
	}
	head = head[:n]
	h := sha256.New()
	h.Write(head)
	if _, err := io.Copy(h, rd); err != nil {
		return Verified{}, apierr.Internalf(err, "reading the upload")
	}
	v := Verified{Size: rd.Size(), SHA256: hex.EncodeToString(h.Sum(nil)), Type: Sniff(head)}
	if v.Type != f.ContentType {
		found := v.Type
		if found == "" {
			found = "none of " + fmt.Sprint(Types)
		}
		return v, apierr.New(apierr.Validation, "the uploaded bytes are %s, but the file was declared %s", found, f.ContentType).
			WithCode("CONTENT_TYPE_MISMATCH").Field("content_type", "does not match the uploaded bytes")
	}
	return v, nil
}

// Delete removes a file's bytes; a missing blob is not an error.
func (s *Service) Delete(ctx context.Context, key string) error {
	if err := s.Bucket.Delete(ctx, key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return err
	}
	return nil
}
