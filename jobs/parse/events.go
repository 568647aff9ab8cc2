package parse

import (
	"encoding/json"

	"github.com/plangraph/plangraph/ent"
	"github.com/plangraph/plangraph/internal/jobstatus"
	"github.com/plangraph/plangraph/jobs"
)

// BlockCompleted is the data of a parse.block.completed event.
type BlockCompleted struct {
	JobID      string           `json:"job_id"`
	ParseJobID string           `json:"parse_job_id"`
	BlockID    string           `json:"block_id"`
	Status     string           `json:"status"`
	Results    *BlockResults    `json:"results"`
	Error      *jobstatus.Error `json:"error,omitempty"`
}

// BlockResults is a parse.block.completed event's results.
type BlockResults struct {
	Symbols  []ParseSymbol  `json:"symbols"`
	Summary  ParseSummary   `json:"summary"`
	Warnings []ParseWarning `json:"warnings,omitempty"`
}

// blockEvent makes the parse.block.completed event of a parse job's
// symbol search (a vision.symbols.match child); its other children record
// parse.child.completed.
func blockEvent(parent, j *ent.Job) (string, any, bool, error) {
	if j.Type != jobs.TypeSymbolMatch {
		return "", nil, false, nil
	}
	status := jobstatus.Event(string(j.Status))
	d := BlockCompleted{JobID: j.ID, ParseJobID: parent.ID, BlockID: j.TargetID, Status: status, Error: j.Error}
	if len(j.Result) > 0 {
		var res BlockMatchResult
		if err := json.Unmarshal(j.Result, &res); err != nil {
			return "", nil, false, err
		}
		d.Results = &BlockResults{Symbols: res.Symbols, Summary: res.Summary, Warnings: res.Warnings}
		if d.Results.Symbols == nil {
			d.Results.Symbols = []ParseSymbol{}
		}
	}
	return jobs.EventParseBlockCompleted, d, true, nil
}
