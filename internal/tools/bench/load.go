// Package bench holds the benchmarks behind `plangraph bench …`: load
// generators and seeders that measure the running service on this machine.
package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Result summarises one load run.
type Result struct {
	Name       string
	Requests   int
	Errors     int
	Duration   time.Duration
	P50, P90   time.Duration
	P99, Max   time.Duration
	Throughput float64 // completed requests per second
	Bytes      int64
}

func (r Result) String() string {
	return fmt.Sprintf("%-22s %6d req  %4d err  %7.1f req/s  p50 %6.2f ms  p90 %6.2f ms  p99 %6.2f ms  max %7.2f ms",
		r.Name, r.Requests, r.Errors, r.Throughput, ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Constant drives newReq at rate requests per second for d (open loop:
// requests start on schedule whether or not earlier ones finished, so slow
// responses show up as latency instead of hiding as lower offered load).
func Constant(ctx context.Context, name string, client *http.Client, rate int, d time.Duration, newReq func() (*http.Request, error)) Result {
	var (
		mu        sync.Mutex
		latencies []time.Duration
		errs      atomic.Int64
		bytes     atomic.Int64
		wg        sync.WaitGroup
	)
	interval := time.Second / time.Duration(rate)
	start := time.Now()
	total := int(d / interval)
	sem := make(chan struct{}, 2000) // bound goroutines if the server stalls
	for i := 0; i < total; i++ {
		if ctx.Err() != nil {
			break
		}
		if wait := time.Until(start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait)
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			req, err := newReq()
			if err != nil {
				errs.Add(1)
				return
			}
			t0 := time.Now()
			resp, err := client.Do(req.WithContext(ctx))
			if err != nil {
				errs.Add(1)
				return
			}
			n, _ := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			lat := time.Since(t0)
			bytes.Add(n)
			if resp.StatusCode != http.StatusOK {
				errs.Add(1)
				return
			}
			mu.Lock()
			latencies = append(latencies, lat)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
	q := func(p float64) time.Duration {
		if len(latencies) == 0 {
			return 0
		}
		return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))]
	}
	r := Result{Name: name, Requests: len(latencies) + int(errs.Load()), Errors: int(errs.Load()), Duration: elapsed,
		P50: q(.50), P90: q(.90), P99: q(.99), Bytes: bytes.Load(), Throughput: float64(len(latencies)) / elapsed.Seconds()}
	if len(latencies) > 0 {
		r.Max = latencies[len(latencies)-1]
	}
	return r
}
