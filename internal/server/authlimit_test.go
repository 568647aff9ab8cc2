package server_test

import (
	"net/http"
	"testing"

	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/testenv"
)

// Keys tried at random from one address: after the address's budget of
// failed authentications (30), it is refused with 429 before any key is
// looked up, while a key already known valid keeps working from it.
func TestFailedAuthenticationLimited(t *testing.T) {
	for _, p := range testenv.Profiles(t) {
		t.Run(p.Name, func(t *testing.T) {
			s, key := startWithKey(t, p)
			s.Get(t, key, "/v1/projects").ExpectStatus(t, http.StatusOK) // known valid now
			fresh := s.CreateKey(t, "acme")                              // valid, never used
			codes := map[int]int{}
			var last *testenv.Response
			for range 40 {
				k, err := auth.NewKey()
				if err != nil {
					t.Fatal(err)
				}
				last = s.Get(t, k, "/v1/projects")
				codes[last.Status]++
			}
			if codes[http.StatusUnauthorized] != 30 || codes[http.StatusTooManyRequests] != 10 {
				t.Fatalf("40 random keys from one address: %v, want 30 × 401 then 10 × 429", codes)
			}
			last.ExpectProblem(t, http.StatusTooManyRequests, "RATE_LIMITED")
			if last.Header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			s.Get(t, key, "/v1/projects").ExpectStatus(t, http.StatusOK)
			s.Get(t, fresh, "/v1/projects").ExpectProblem(t, http.StatusTooManyRequests, "RATE_LIMITED")
		})
	}
}
