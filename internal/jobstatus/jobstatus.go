// Package jobstatus is the one place where a job's status is spelled for
// each audience: records and the jobs filter use Queued, Started,
// Completed, Failed, Canceled; the 202 answer of a just-queued job says
// PENDING (as the interface specification's example does); events use
// lower case (completed).
package jobstatus

import "strings"

// Statuses of job records, in lifecycle order.
const (
	Queued    = "Queued"
	Started   = "Started"
	Completed = "Completed"
	Failed    = "Failed"
	Canceled  = "Canceled"
)

// All lists the record statuses.
var All = []string{Queued, Started, Completed, Failed, Canceled}

// Terminal reports whether a job in status s will not change again.
func Terminal(s string) bool { return s == Completed || s == Failed || s == Canceled }

// Accepted is the status a 202 response shows for a job it just queued.
func Accepted(s string) string {
	if s == Queued {
		return "PENDING"
	}
	return s
}

// Event is the spelling used in event payloads.
func Event(s string) string { return strings.ToLower(s) }

// Error is why a job failed: a stable machine code and a message.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}
