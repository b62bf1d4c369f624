package app

import "github.com/memoree/memoree/pending"

// ItemJSON is the --json shape of a checkpoint; Text is set only by show.
type ItemJSON struct {
	ID            string        `json:"id"`
	Session       string        `json:"session"`
	Task          string        `json:"task"`
	Created       string        `json:"created"`
	Updated       string        `json:"updated"`
	Bytes         int           `json:"bytes"`
	OriginalBytes int           `json:"original_bytes"`
	Truncated     bool          `json:"truncated"`
	Flagged       bool          `json:"flagged"`
	Findings      []findingJSON `json:"findings"`
	Applied       *appliedJSON  `json:"applied"`
	Text          *string       `json:"text,omitempty"`
}

type appliedJSON struct {
	Artifact string `json:"artifact"`
	Time     string `json:"time"`
	Changed  bool   `json:"changed"`
}

// NewItemJSON returns the --json shape of it, without its text.
func NewItemJSON(it pending.Item) ItemJSON {
	j := ItemJSON{
		ID: it.ID, Session: it.Session, Task: it.Task, Created: RFC3339(it.Created), Updated: RFC3339(it.Updated),
		Bytes: it.Bytes, OriginalBytes: it.OriginalBytes, Truncated: it.Truncated, Flagged: it.Flagged,
		Findings: []findingJSON{},
	}
	for _, f := range it.Findings {
		j.Findings = append(j.Findings, findingJSON{f.Rule, f.Line, f.Column, f.Preview, true})
	}
	if it.Applied != nil {
		j.Applied = &appliedJSON{it.Applied.Artifact, RFC3339(it.Applied.Time), it.ChangedSinceApply()}
	}
	return j
}
