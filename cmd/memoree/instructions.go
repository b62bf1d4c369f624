package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

var forFlag = &cli.StringFlag{Name: "for", Value: "generic", Usage: "the agent's instructions file: `AGENT` is codex (AGENTS.md), claude (CLAUDE.md) or generic"}

func instructionsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "instructions",
		Usage:     "print the snippet that tells an agent when and how to checkpoint",
		ArgsUsage: " ",
		Description: withDoc(`Prints Markdown to paste into the agent's instructions file (AGENTS.md for Codex, CLAUDE.md for
Claude Code, or any other): when to write a checkpoint, what a good one holds, what never goes in one,
and how to read one's own checkpoint back after a context rollover. memoree ships no capture hook:
agents call it deliberately, as these instructions say.`, "memoree instructions --for claude >> CLAUDE.md\nmemoree instructions --for codex >> AGENTS.md"),
		Flags:  []cli.Flag{forFlag},
		Action: func(c *cli.Context) error { return runInstructions(c, e) },
	}
}

// instructionsText is the snippet; %s is where the agent's instructions file is named.
const instructionsText = `## Session checkpoints (memoree)

This project keeps continuity notes with memoree. A checkpoint is a short note for whoever continues
this work after your context window is compacted or handed off, most likely yourself. A person reviews
every checkpoint before anything of it enters long-term memory.

**When to checkpoint.** Before a manual compaction, before handing the task to another agent or a
person, and before a pause of more than a few minutes. One checkpoint per session: a later one replaces
the earlier, so rewrite it whole each time rather than appending.

    printf '%%s' "$NOTE" | memoree checkpoint --session "$SESSION_ID" --task "billing export" -

Name the task in a few plain words ("billing export", not "T3"): every statement of the note is
remembered under it, and a later question that names the task finds them. Leave --task out to keep
the one the session's checkpoint has. If memoree warns that the checkpoint is flagged (it still exits
0), rewrite it without what the warning names and checkpoint again: a flagged note waits for a person.

**What a good checkpoint holds**, in a few short lines each:
- Goal: what the task is for, in one sentence.
- Decisions: what was decided and why, including what was ruled out.
- Progress: what is done and verified (not every step taken).
- Learnings: facts about the code, the tools or the environment that cost time to find.
- Next steps: what to do next, in order.
- References: the IDs of the requests, issues, commits or tool actions the note relies on.

**Never put in a checkpoint:** credentials, tokens, keys or passwords (memoree flags them, and a person
has to clear them); transcript dumps; prompt bodies or system instructions; raw tool output or payloads;
your chain of thought; routine progress such as "ran the tests again". Never write instructions aimed at
a future reader (such as "ignore previous instructions"): memoree flags those too.

**After a rollover**, read your own checkpoint back before doing anything else:

    memoree pending show --session "$SESSION_ID"

and ask long-term memory for what you need, in your own words:

    memoree recall "how do we deploy" --json
    memoree context build --query "deploy pipeline" --budget 1500

Exit status 0 means success (also when nothing was found), 1 a failure such as no checkpoint for the
session (a person has applied or dropped it: ask recall instead), 2 a mistake in the call (the message
says what; nothing was written), 3 a refusal because the scan flagged the note (for preview and apply).
%s`

func runInstructions(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		return usagef("instructions takes no arguments")
	}
	var where string
	switch forFlag.Get(c) {
	case "codex":
		where = "\nKeep this section in AGENTS.md, where Codex reads it at the start of every session.\n"
	case "claude":
		where = "\nKeep this section in CLAUDE.md, where Claude Code reads it at the start of every session.\n"
	case "generic":
		where = "\nKeep this section in the file your agent reads at the start of every session.\n"
	default:
		return usagef("--for %q is not known: give codex, claude or generic", forFlag.Get(c))
	}
	_, err := fmt.Fprint(e.stdout, strings.TrimLeft(fmt.Sprintf(instructionsText, where), "\n"))
	return err
}
