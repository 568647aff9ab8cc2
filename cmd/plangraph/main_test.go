package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plangraph/plangraph/ent/apikey"
	"github.com/plangraph/plangraph/internal/auth"
	"github.com/plangraph/plangraph/internal/store"
	"github.com/plangraph/plangraph/internal/tenant"
)

var keyLine = regexp.MustCompile(`^sk_[0-9A-Za-z]{43}$`)

// cleanEnv removes every PLANGRAPH_* setting of the environment for the
// test, so the commands see only their flags.
func cleanEnv(t *testing.T) {
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "PLANGRAPH_") && !strings.HasPrefix(name, "PLANGRAPH_TEST_") {
			t.Setenv(name, "") // restores the value when t ends
			os.Unsetenv(name)
		}
	}
}

type result struct {
	stdout, stderr string
	err            error
}

func runCmd(t *testing.T, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := run(ctx, args, &stdout, &stderr)
	return result{stdout.String(), stderr.String(), err}
}

// createKey runs keys create and returns the key, checking that stdout is
// exactly the key on one line.
func createKey(t *testing.T, args ...string) string {
	t.Helper()
	r := runCmd(t, append([]string{"keys", "create"}, args...)...)
	if r.err != nil {
		t.Fatalf("keys create %v: %v\nstderr: %s", args, r.err, r.stderr)
	}
	key, ok := strings.CutSuffix(r.stdout, "\n")
	if !ok || strings.Contains(key, "\n") || !keyLine.MatchString(key) {
		t.Fatalf("keys create printed %q, want exactly one line sk_ + 43 base62 characters", r.stdout)
	}
	if strings.Contains(r.stderr, key) {
		t.Errorf("the key is also on stderr: %s", r.stderr)
	}
	return key
}

func TestKeysCreate(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	k1 := createKey(t, "--org", "acme", "--data-dir", dir)
	k2 := createKey(t, "--org", "acme", "--data-dir", dir, "--name", "ci")
	k3 := createKey(t, "--org", "globex", "--data-dir", dir)
	if k1 == k2 || k1 == k3 || k2 == k3 {
		t.Fatalf("keys repeat: %s %s %s", k1, k2, k3)
	}

	ctx := context.Background()
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := auth.NewAuthenticator(st.Client, time.Minute)
	defer a.Wait() // its last-use writes end before the store closes
	var orgs []string
	for _, k := range []string{k1, k2, k3} {
		p, err := a.Check(ctx, k)
		if err != nil {
			t.Fatalf("the printed key %s… is not accepted: %v", k[:7], err)
		}
		orgs = append(orgs, p.OrgID)
	}
	if orgs[0] != orgs[1] {
		t.Errorf("two keys for acme belong to organizations %s and %s", orgs[0], orgs[1])
	}
	if orgs[0] == orgs[2] {
		t.Errorf("acme and globex share organization %s", orgs[0])
	}
	rec, err := st.APIKey.Query().Where(apikey.Hash(auth.Hash(k2))).Only(tenant.System(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Name != "ci" {
		t.Errorf("--name ci stored as %q", rec.Name)
	}
	if n, err := st.Organization.Query().Count(tenant.System(ctx)); err != nil || n != 2 {
		t.Errorf("%d organizations (err %v), want 2", n, err)
	}
}

func TestCommands(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	cases := []struct {
		name       string
		args       []string
		wantErr    string // substring of the error; "" for success
		wantHelp   bool   // the error is flag.ErrHelp
		stdout     *regexp.Regexp
		stderrHas  string
		stdoutNone bool
	}{
		{name: "version", args: []string{"version"}, stdout: regexp.MustCompile(`^plangraph \S+\n$`)},
		{name: "help", args: []string{"help"}, stdout: regexp.MustCompile(`(?s)^plangraph .*Usage:.*plangraph keys create --org NAME.*plangraph version`)},
		{name: "--help", args: []string{"--help"}, stdout: regexp.MustCompile(`(?s)Usage:.*plangraph serve.*plangraph keys create`)},
		{name: "-h", args: []string{"-h"}, stdout: regexp.MustCompile(`(?s)Usage:.*plangraph keys create`)},
		{name: "keys create --help", args: []string{"keys", "create", "--help"}, wantHelp: true, stderrHas: "-org", stdoutNone: true},
		{name: "keys create without --org", args: []string{"keys", "create", "--data-dir", dir}, wantErr: "--org is required", stdoutNone: true},
		{name: "keys create with an empty --org", args: []string{"keys", "create", "--org", "", "--data-dir", dir}, wantErr: "--org is required", stdoutNone: true},
		{name: "keys create with a blank --org", args: []string{"keys", "create", "--org", "  ", "--data-dir", dir}, wantErr: "org", stdoutNone: true},
		{name: "keys without create", args: []string{"keys"}, wantErr: "usage: plangraph keys create", stdoutNone: true},
		{name: "keys with another verb", args: []string{"keys", "delete"}, wantErr: "usage: plangraph keys create", stdoutNone: true},
		{name: "keys create with an unknown flag", args: []string{"keys", "create", "--org", "acme", "--colour", "red", "--data-dir", dir}, wantErr: "colour", stdoutNone: true},
		{name: "keys create with an argument", args: []string{"keys", "create", "--org", "acme", "--data-dir", dir, "extra"}, wantErr: `unexpected argument "extra"`, stdoutNone: true},
		{name: "unknown command", args: []string{"frobnicate"}, wantErr: `unknown command "frobnicate"`, stderrHas: "Usage:", stdoutNone: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runCmd(t, tc.args...)
			switch {
			case tc.wantHelp:
				if !errors.Is(r.err, flag.ErrHelp) {
					t.Errorf("error %v, want flag.ErrHelp", r.err)
				}
			case tc.wantErr != "":
				if r.err == nil || !strings.Contains(r.err.Error(), tc.wantErr) {
					t.Errorf("error %v, want one containing %q", r.err, tc.wantErr)
				}
			case r.err != nil:
				t.Errorf("error %v (stderr %s)", r.err, r.stderr)
			}
			if tc.stdout != nil && !tc.stdout.MatchString(r.stdout) {
				t.Errorf("stdout %q does not match %s", r.stdout, tc.stdout)
			}
			if tc.stdoutNone && r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
			if tc.stderrHas != "" && !strings.Contains(r.stderr, tc.stderrHas) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.stderrHas)
			}
		})
	}
}
