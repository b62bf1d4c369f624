package cmdline

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/app"
	"github.com/memoree/memoree/scan"
)

func scanCommand(e *app.Env) *cli.Command {
	return &cli.Command{
		Name:      "scan",
		Usage:     "scan text for secrets with the rules checkpoint uses; writes nothing",
		ArgsUsage: "(- | --file PATH | TEXT...)",
		Description: `Prints one line per finding: LINE:COLUMN, rule, category and a redacted preview; the secret
itself is never printed. Exit status 0 when the text is clean, 3 when something was found.

EXAMPLES:
   memoree scan --file notes.md
   git diff | memoree scan - --json`,
		Flags:  []cli.Flag{fileFlag, jsonFlag},
		Action: func(c *cli.Context) error { return runScan(c, e) },
	}
}

type scanJSON struct {
	Flagged  bool           `json:"flagged"`
	Findings []scan.Finding `json:"findings"`
}

func runScan(c *cli.Context, e *app.Env) error {
	text, err := app.ReadText(e, c.Args().Slice(), c.String("file"))
	if err != nil {
		return err
	}
	findings := scan.Text(string(text))
	if c.Bool("json") {
		if findings == nil {
			findings = []scan.Finding{}
		}
		if err := app.PrintJSON(e.Stdout, scanJSON{Flagged: len(findings) > 0, Findings: findings}); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			if _, err := fmt.Fprintf(e.Stdout, "%d:%d\t%s\t%s\t%s\n", f.Line, f.Column, f.Rule, f.Category, f.Preview); err != nil {
				return err
			}
		}
	}
	if len(findings) > 0 {
		return app.QuietExit(app.ExitFlagged)
	}
	return nil
}
