package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/plangraph/plangraph/internal/tools/bench"
)

// benchLoad runs `plangraph bench load`: this binary's `serve` started as a
// process of its own on each profile, a page of 100 projects read through
// REST and through GraphQL at a fixed rate by vegeta from this process.
func benchLoad(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plangraph bench load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o bench.LoadOptions
	profiles := fs.String("profiles", "embedded,server", "profiles to measure: embedded (SQLite, in-process Redis) and/or server (PostgreSQL + Redis)")
	fs.StringVar(&o.AdminURL, "admin-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL URL that may create and drop the benchmark's database (server profile)")
	fs.StringVar(&o.RedisURL, "redis-url", "redis://127.0.0.1:6379/14", "Redis of the server profile")
	fs.IntVar(&o.Projects, "projects", 100, "projects seeded (at least 100: the page read)")
	rates := fs.String("rates", "500", "offered rates in requests per second, comma separated (each target at each)")
	fs.DurationVar(&o.Duration, "duration", 10*time.Second, "measured time per target and rate")
	fs.DurationVar(&o.Warmup, "warmup", 3*time.Second, "unmeasured time per target and rate before it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.Projects < 100 {
		return fmt.Errorf("--projects: at least 100")
	}
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	o.Bin = bin
	for _, p := range strings.Split(*profiles, ",") {
		for _, r := range strings.Split(*rates, ",") {
			o.Profile = strings.TrimSpace(p)
			if _, err := fmt.Sscan(strings.TrimSpace(r), &o.Rate); err != nil || o.Rate < 1 {
				return fmt.Errorf("--rates: %q is no rate", r)
			}
			res, err := bench.Load(ctx, o)
			if err != nil {
				return fmt.Errorf("%s at %d req/s: %w", o.Profile, o.Rate, err)
			}
			fmt.Fprintf(stdout, "%s profile:\n", o.Profile)
			for _, x := range res {
				fmt.Fprintln(stdout, "  "+x.String())
			}
			if len(res) == 2 && res[0].P50 > 0 {
				fmt.Fprintf(stdout, "  GraphQL p50 / REST p50 = %.2f×\n", float64(res[1].P50)/float64(res[0].P50))
			}
		}
	}
	return nil
}
