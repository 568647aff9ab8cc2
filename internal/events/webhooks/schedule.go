package webhooks

import (
	"math/rand/v2"
	"time"
)

// Schedule is when failed deliveries are tried again: after failed
// attempt n the ceiling is Base·2^(n-1), at most Cap, and the delay is
// drawn uniformly from [ceiling/2, ceiling] ("equal jitter": spread out,
// so endpoints that failed together do not retry in step, yet with a
// guaranteed minimum, so the schedule's span has a lower bound). An event
// is tried Attempts times in all, enough that retries go on for at least
// Span after the first attempt.
type Schedule struct {
	Base time.Duration
	Cap  time.Duration
	Span time.Duration
}

// DefaultSchedule is the schedule with retry base base (30 s by default):
// delays doubling up to an hour, for at least 24 hours.
func DefaultSchedule(base time.Duration) Schedule {
	if base <= 0 {
		base = 30 * time.Second
	}
	return Schedule{Base: base, Cap: time.Hour, Span: 24 * time.Hour}
}

// ceiling is the largest delay after failed attempt n (from 1).
func (s Schedule) ceiling(n int) time.Duration {
	d := s.Base
	for i := 1; i < n && d < s.Cap; i++ {
		d *= 2
	}
	return min(d, s.Cap)
}

// Delay is the wait after failed attempt n (from 1), jittered.
func (s Schedule) Delay(n int) time.Duration {
	c := s.ceiling(n)
	return c/2 + rand.N(c/2+1)
}

// MinDelay is the shortest Delay(n) can be.
func (s Schedule) MinDelay(n int) time.Duration { return s.ceiling(n) / 2 }

// Attempts is how many attempts an event gets (the first included): the
// fewest whose shortest possible retry delays add up to Span.
func (s Schedule) Attempts() int {
	var total time.Duration
	n := 1
	for total < s.Span {
		total += s.MinDelay(n)
		n++
	}
	return n
}

// MinSpan is the shortest time from the first to the last attempt.
func (s Schedule) MinSpan() time.Duration {
	var total time.Duration
	for n := 1; n < s.Attempts(); n++ {
		total += s.MinDelay(n)
	}
	return total
}
