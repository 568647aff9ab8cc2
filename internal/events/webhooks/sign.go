// Package webhooks sends the organization's events to its webhook
// endpoints, the Standard Webhooks way (https://www.standardwebhooks.com):
//
//   - the body is the event's envelope {id, type, created_at, data}, built
//     from the stored row only, so every attempt of one event id carries the
//     same bytes;
//   - headers webhook-id (the event id, for de-duplication),
//     webhook-timestamp (Unix seconds of the attempt) and webhook-signature
//     ("v1," + base64 HMAC-SHA256 of "id.timestamp.body" under the key in
//     the endpoint's whsec_ secret; during the 24 hours after a rotation the
//     previous secret's signature follows, space separated);
//   - an event is fanned out once (asynq task id = event id) to the enabled
//     endpoints whose filter wants it, as one delivery task per endpoint
//     (task id from event and endpoint) on a queue with a worker pool of its
//     own; each attempt is logged as a WebhookDelivery row; failures are
//     retried with exponential backoff and jitter for at least 24 hours;
//   - endpoint URLs are https and must not reach private, loopback,
//     link-local or reserved addresses (unless the operator allows it): the
//     URL is checked when saved and the address again when dialled.
package webhooks

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/ent/webhookendpoint"
	"github.com/plangraph/plangraph/internal/secretbox"
	"github.com/plangraph/plangraph/internal/tenant"
)

// SecretPrefix starts every signing secret.
const SecretPrefix = "whsec_"

// RotationOverlap is how long the previous secret keeps signing after a
// rotation.
const RotationOverlap = 24 * time.Hour

// NewSecret is a new signing secret: whsec_ + base64 of 32 random bytes.
func NewSecret() string {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// Sign is the v1 signature of a message: "v1," + base64(HMAC-SHA256(key,
// msgID + "." + timestamp + "." + body)), where key is the base64-decoded
// part of secret after whsec_.
func Sign(secret, msgID string, ts time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil {
		return "", fmt.Errorf("webhooks: malformed secret: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(ts.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// Signatures is the webhook-signature header of a message to ep at ts: the
// current secret's signature, then the previous secret's while it is
// within its overlap.
func Signatures(ep *ent.WebhookEndpoint, msgID string, ts time.Time, body []byte) (string, error) {
	sig, err := Sign(ep.Secret, msgID, ts, body)
	if err != nil {
		return "", err
	}
	if ep.PreviousSecret != "" && ep.PreviousSecretExpiresAt != nil && ts.Before(*ep.PreviousSecretExpiresAt) {
		prev, err := Sign(ep.PreviousSecret, msgID, ts, body)
		if err != nil {
			return "", err
		}
		sig += " " + prev
	}
	return sig, nil
}

// opened is ep with its secrets opened (they are stored sealed).
func (s *Service) opened(ep *ent.WebhookEndpoint) (*ent.WebhookEndpoint, error) {
	out := *ep
	var err error
	if out.Secret, err = s.Box.Open(ep.Secret); err != nil {
		return nil, err
	}
	if ep.PreviousSecret != "" {
		if out.PreviousSecret, err = s.Box.Open(ep.PreviousSecret); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

// SealStored seals the secrets of endpoints stored before secrets were
// sealed; run at start, it leaves sealed ones as they are.
func (s *Service) SealStored(ctx context.Context) error {
	if s.Box == nil {
		return nil
	}
	ctx = tenant.System(ctx)
	eps, err := s.DB.WebhookEndpoint.Query().All(ctx)
	if err != nil {
		return err
	}
	for _, ep := range eps {
		if secretbox.Sealed(ep.Secret) && (ep.PreviousSecret == "" || secretbox.Sealed(ep.PreviousSecret)) {
			continue
		}
		u := s.DB.WebhookEndpoint.Update().Where(webhookendpoint.ID(ep.ID), webhookendpoint.Secret(ep.Secret))
		if !secretbox.Sealed(ep.Secret) {
			u.SetSecret(s.Box.Seal(ep.Secret))
		}
		if ep.PreviousSecret != "" && !secretbox.Sealed(ep.PreviousSecret) {
			u.SetPreviousSecret(s.Box.Seal(ep.PreviousSecret))
		}
		if _, err := u.Save(ctx); err != nil {
			return fmt.Errorf("sealing the secret of webhook endpoint %s: %w", ep.ID, err)
		}
	}
	return nil
}
