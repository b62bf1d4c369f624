package cmdline

import (
	"github.com/urfave/cli/v2"

	"github.com/memoree/memoree/internal/app"
)

func checkpointCommand(e *app.Env) *cli.Command {
	return &cli.Command{
		Name:      "checkpoint",
		Usage:     "stage a continuity note for the session (one per session; a later one replaces it)",
		ArgsUsage: "(- | --file PATH | TEXT...)",
		Description: `Stages the note as the pending checkpoint of the session. Input is UTF-8, at most 64 KiB;
at most 4096 bytes are stored, cut with a truncation marker. A note that looks like it holds a
secret is still staged, with a warning, and stays flagged.

EXAMPLES:
   printf '%s' 'Storage recall is implemented; next verify the regression corpus.' |
     memoree checkpoint --session S1 --task retrieval -
   memoree checkpoint --session S1 --file notes.md --json
   MEMOREE_SESSION=S1 memoree checkpoint -- '-v is the verbose flag now'`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "session `ID` (default: $MEMOREE_SESSION)"},
			&cli.StringFlag{Name: "task", Usage: "task `LABEL` (kept from the earlier checkpoint when not given)"},
			fileFlag,
			jsonFlag,
		},
		Action: func(c *cli.Context) error { return app.RunCheckpoint(checkpointArgsFrom(c), e) },
	}
}

func checkpointArgsFrom(c *cli.Context) app.CheckpointArgs {
	return app.CheckpointArgs{
		Session: c.String("session"), SessionSet: c.IsSet("session"),
		Task: c.String("task"), TaskSet: c.IsSet("task"),
		File: c.String("file"), JSON: c.Bool("json"), Text: c.Args().Slice(),
	}
}
