package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/escape"
	"github.com/memoree/memoree/scan"
)

func scanCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "scan",
		Usage:     "scan text for secrets and instructions to the agent with the rules checkpoint uses; writes nothing",
		ArgsUsage: "(- | --file PATH | TEXT...)",
		Description: withDoc(`Prints one line per finding: LINE:COLUMN, rule, category and a redacted preview; the secret
itself is never printed. Exit status 0 when the text is clean, 3 when something was found.`, `memoree scan --file notes.md
git diff | memoree scan - --json`),
		Flags:  []cli.Flag{fileFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runScan(c, e) },
	}
}

// scanJSON is the --json shape of scan.
type scanJSON struct {
	Flagged  bool           `json:"flagged"`
	Findings []scan.Finding `json:"findings"`
}

func runScan(c *cli.Context, e *env) error {
	text, err := readText(c.Context, e, c.Args().Slice(), fileFlag.Get(c))
	if err != nil {
		return err
	}
	findings := scan.Text(string(text))
	if jsonFlag.Get(c) {
		if findings == nil {
			findings = []scan.Finding{}
		}
		if err := e.printJSON(scanJSON{Flagged: len(findings) > 0, Findings: findings}); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			if _, err := fmt.Fprintf(e.stdout, "%d:%d\t%s\t%s\t%s\n", f.Line, f.Column, f.Rule, f.Category, escape.Label(f.Preview)); err != nil {
				return err
			}
		}
	}
	if len(findings) > 0 {
		return quietExit(exitFlagged)
	}
	return nil
}
