package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/recall"
)

var (
	contextQueryFlag   = &cli.StringFlag{Name: "query", Aliases: []string{"q"}, Usage: "rank claims by relevance to `TEXT`"}
	contextSessionFlag = &cli.StringFlag{Name: "session", Aliases: []string{"s"}, Usage: "only claims with evidence from session `ID`"}
	contextTaskFlag    = &cli.StringFlag{Name: "task", Aliases: []string{"t"}, Usage: "only claims with evidence from task `LABEL`"}
	budgetFlag         = &cli.IntFlag{Name: "budget", Aliases: []string{"b"}, Value: 1500, Usage: "hard limit in `TOKENS` for the whole block"}
	explainFlag        = &cli.BoolFlag{Name: "explain", Usage: "list every candidate claim with its score and tokens, and why it was left out", DisableDefaultText: true}
)

func contextCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "context",
		Usage:       "build prompt context from stored claims",
		Description: withDoc(`Commands that turn stored claims into text for a prompt.`, `memoree context build --query "recall work" --budget 1500`),
		Subcommands: []*cli.Command{{
			Name:      "build",
			Usage:     "print the most relevant claims as a Markdown block within a token budget",
			ArgsUsage: " ",
			Description: withDoc(`Picks the claims most relevant to --query (else the most recent), optionally only those with
evidence from --session or --task, and prints them as a compact Markdown block, each line giving
in brackets what the claim sits under in its note (its task, headings, a label) and citing its
artifact. The block never exceeds --budget tokens by memoree's estimate (an upper bound for
English with common tokenizers); when relevant claims did not fit, it ends with a line saying how
many were left out, and when none is relevant it says so. Control and invisible format characters
in claims are escaped (\x1b, \u202e), so a stored note can neither drive a terminal nor hide text
in a prompt.

Superseded claims are left out unless --history, which marks them. Claims from a note applied with
--allow-flagged are left out unless --allow-flagged is given here too; how many were left out is said
on stderr, never in the block. --ref KEY=VALUE keeps only claims from notes that carry that ref.

--explain prints, instead of the block, one line per candidate claim: IN or OUT, its score, its
estimated tokens, why it was left out (budget, superseded, flagged, below relevance floor), its
claim ID and text. With --json it adds a "candidates" array to the block's document.`, `memoree context build --query "recall work" --budget 1500
memoree context build --session S1 --json
memoree context build --query "deploy" --budget 200 --explain`),
			Flags: []cli.Flag{contextQueryFlag, contextSessionFlag, contextTaskFlag, filterRefFlag, budgetFlag, historyFlag,
				allowFlaggedFlag, explainFlag, jsonFlag},
			Action: func(c *cli.Context) error { return runContextBuild(c, e) },
		}},
	}
}

// contextJSON is the --json shape of context build.
type contextJSON struct {
	Markdown   string          `json:"markdown"`
	Included   int             `json:"included"`
	LeftOut    int             `json:"left_out"`
	Flagged    int             `json:"flagged"` // flagged claims left out (without --allow-flagged)
	Tokens     int             `json:"tokens"`
	Budget     int             `json:"budget"`
	Candidates []candidateJSON `json:"candidates,omitempty"` // with --explain
}

// candidateJSON is one candidate claim of context build --explain.
type candidateJSON struct {
	ClaimID    int64   `json:"claim_id"`
	Text       string  `json:"text"`
	Kind       string  `json:"kind"`
	Score      float64 `json:"score"`
	Confidence float64 `json:"confidence"`
	Tokens     int     `json:"tokens"`
	Included   bool    `json:"included"`
	Reason     string  `json:"reason"` // "" when included; else budget, superseded, restated, flagged or below relevance floor
}

func runContextBuild(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		return usagef("context build takes no arguments; give the query with --query")
	}
	budget := budgetFlag.Get(c)
	if budget < 1 {
		return usagef("--budget %d is not a positive number of tokens", budget)
	}
	session := ""
	if c.IsSet(contextSessionFlag.Name) {
		var err error
		if session, err = sessionArg(c, e, contextSessionFlag, true); err != nil {
			return err
		}
	}
	task, err := optionalLabel(c, "task", contextTaskFlag)
	if err != nil {
		return err
	}
	ref, err := refFilter(c)
	if err != nil {
		return err
	}
	query := contextQueryFlag.Get(c)
	if err := checkQuery(query); err != nil {
		return err
	}
	now, err := e.now()
	if err != nil {
		return err
	}
	st, err := queryStore(e)
	if err != nil {
		return err
	}
	var blk recall.ContextBlock
	var cands []recall.ContextCandidate
	opt := recall.ContextOptions{Query: query, Session: session, Task: task, Budget: budget, Now: now,
		History: historyFlag.Get(c), AllowFlagged: allowFlaggedFlag.Get(c), Ref: ref}
	switch {
	case st == nil:
		blk, err = recall.EmptyContext(opt)
	case explainFlag.Get(c):
		blk, cands, err = st.ExplainContext(c.Context, opt)
	default:
		blk, err = st.Context(c.Context, opt)
	}
	if be := (*recall.BudgetError)(nil); errors.As(err, &be) {
		return usagef("--budget %d is too small: even an empty block needs %d tokens", budget, be.Need)
	}
	if err != nil {
		return err
	}
	if blk.Flagged > 0 {
		e.warnf("left out %d flagged claim(s); --allow-flagged includes them", blk.Flagged)
	}
	out := contextJSON{blk.Markdown, blk.Included, blk.LeftOut, blk.Flagged, blk.Tokens, budget, nil}
	if explainFlag.Get(c) {
		out.Candidates = []candidateJSON{}
		for _, cd := range cands {
			out.Candidates = append(out.Candidates, candidateJSON{cd.ClaimID, cd.Text, cd.Kind, round(cd.Score),
				round(cd.Confidence), cd.Tokens, cd.Included, cd.Reason})
		}
	}
	if jsonFlag.Get(c) {
		return e.printJSON(out)
	}
	if !explainFlag.Get(c) {
		_, err = fmt.Fprint(e.stdout, blk.Markdown)
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "block: %d claim(s), %d token(s) of %d; %d relevant claim(s) left out\n", blk.Included, blk.Tokens, budget, blk.LeftOut)
	for _, cd := range out.Candidates {
		state := "IN"
		if !cd.Included {
			state = "OUT"
		}
		fmt.Fprintf(&b, "%s\t%.4f\t%d\t%s\t%d\t%s\n", state, cd.Score, cd.Tokens, orDash(cd.Reason), cd.ClaimID, escape.Label(cd.Text))
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}
