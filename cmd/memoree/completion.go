package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script for bash, zsh or fish",
		ArgsUsage: "SHELL",
		Description: withDoc(`Prints a script that completes memoree's commands and flags, file names after --file and
--output and for the FILE of import and eval, and the values of --for, completion and help.
'make install' installs all three; to load one by hand, source its output.`, `source <(memoree completion bash)
memoree completion zsh > "${fpath[1]}/_memoree"
memoree completion fish > ~/.config/fish/completions/memoree.fish`),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("completion takes one shell: bash, zsh or fish")
			}
			script, err := completionScript(newApp(e), c.Args().First())
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(e.stdout, script)
			return err
		},
	}
}

// completionNode is one command path ("", "/pending", "/pending/list") with what may follow it.
type completionNode struct {
	path        string
	subcommands []*cli.Command
	flags       []cli.Flag
	files       bool     // its arguments are file names (ArgsUsage names a FILE)
	args        []string // the words its argument may be, when they are few and known
}

// completionNodes lists every command path of tree, the program itself first.
func completionNodes(tree *cli.App) []completionNode {
	nodes := []completionNode{{path: "", subcommands: tree.Commands}}
	walk(tree.Commands, func(c *cli.Command, parents []string) {
		path := ""
		for _, p := range append(parents, c.Name) {
			path += "/" + p
		}
		n := completionNode{path: path, subcommands: c.Subcommands, flags: c.Flags,
			files: strings.Contains(c.ArgsUsage, "FILE")}
		switch path {
		case "/completion":
			n.args = shells
		case "/help":
			n.args = commandList(tree.Commands)
		}
		nodes = append(nodes, n)
	})
	return nodes
}

// shells are the shells completion writes scripts for.
var shells = []string{"bash", "zsh", "fish"}

// commandList returns the names of cmds.
func commandList(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	return names
}

// words lists what may follow a node: its subcommands or known arguments, else its flags with their dashes
// and --help.
func (n completionNode) words() []string {
	w := append(commandList(n.subcommands), n.args...)
	for _, f := range n.flags {
		for _, name := range f.Names() {
			w = append(w, dashes(name))
		}
	}
	if n.path == "" {
		w = append(w, "--version")
	}
	return append(w, "--help")
}

// valueFlags lists, as typed, the node's flags that take a value: after one, what follows is its value.
func (n completionNode) valueFlags() []string {
	var w []string
	for _, f := range n.flags {
		if df, ok := f.(cli.DocGenerationFlag); ok && df.TakesValue() {
			for _, name := range f.Names() {
				w = append(w, dashes(name))
			}
		}
	}
	return w
}

// What a flag's value is: file names for --file and --output, the agents of instructions for --for;
// anything else is not completed.
var (
	fileValueFlags = []string{"--file", "-f", "--output", "-o"}
	forValues      = []string{"codex", "claude", "generic"}
)

// completionScript returns the completion script for shell.
func completionScript(tree *cli.App, shell string) (string, error) {
	nodes := completionNodes(tree)
	var paths []string
	for _, n := range nodes[1:] {
		paths = append(paths, n.path)
	}
	sort.Strings(paths)
	var b strings.Builder
	switch shell {
	case "bash":
		b.WriteString("# bash completion for memoree: source <(memoree completion bash)\n_memoree() {\n")
		b.WriteString("\tlocal cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd=\"\" w opts vals files\n")
		b.WriteString("\tfor w in \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"; do\n\t\tcase \"$cmd/$w\" in\n\t\t\t")
		b.WriteString(strings.Join(paths, "|"))
		b.WriteString(") cmd=\"$cmd/$w\";;\n\t\tesac\n\tdone\n\tcase \"$cmd\" in\n")
		for _, n := range nodes {
			files := ""
			if n.files {
				files = "1"
			}
			fmt.Fprintf(&b, "\t\t%q) opts=%q vals=%q files=%q;;\n", n.path, strings.Join(n.words(), " "),
				" "+strings.Join(n.valueFlags(), " ")+" ", files)
		}
		b.WriteString("\tesac\n")
		// After a flag that takes a value, complete the value, or nothing.
		fmt.Fprintf(&b, "\tif [[ \"$vals\" == *\" $prev \"* ]]; then\n\t\tcase \"$prev\" in\n")
		fmt.Fprintf(&b, "\t\t\t%s) COMPREPLY=($(compgen -f -- \"$cur\"));;\n", strings.Join(fileValueFlags, "|"))
		fmt.Fprintf(&b, "\t\t\t--for) COMPREPLY=($(compgen -W %q -- \"$cur\"));;\n", strings.Join(forValues, " "))
		b.WriteString("\t\t\t*) COMPREPLY=();;\n\t\tesac\n\t\treturn\n\tfi\n")
		b.WriteString("\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n")
		b.WriteString("\tif [[ -n \"$files\" && \"$cur\" != -* ]]; then COMPREPLY+=($(compgen -f -- \"$cur\")); fi\n")
		b.WriteString("}\ncomplete -F _memoree memoree\n")
	case "zsh":
		b.WriteString("#compdef memoree\n# zsh completion for memoree: memoree completion zsh > \"${fpath[1]}/_memoree\"\n_memoree() {\n")
		b.WriteString("\tlocal cmd=\"\" w files prev=\"${words[CURRENT-1]}\"\n\tlocal -a opts vals\n")
		b.WriteString("\tfor w in \"${(@)words[2,CURRENT-1]}\"; do\n\t\tcase \"$cmd/$w\" in\n\t\t\t(")
		b.WriteString(strings.Join(paths, "|"))
		b.WriteString(") cmd=\"$cmd/$w\";;\n\t\tesac\n\tdone\n\tcase \"$cmd\" in\n")
		for _, n := range nodes {
			files := ""
			if n.files {
				files = "1"
			}
			fmt.Fprintf(&b, "\t\t(%q) opts=(%s) vals=(%s) files=%q;;\n", n.path, strings.Join(n.words(), " "),
				strings.Join(n.valueFlags(), " "), files)
		}
		b.WriteString("\tesac\n\tif (( ${vals[(Ie)$prev]} )); then\n\t\tcase \"$prev\" in\n")
		fmt.Fprintf(&b, "\t\t\t(%s) _files;;\n", strings.Join(fileValueFlags, "|"))
		fmt.Fprintf(&b, "\t\t\t(--for) compadd -- %s;;\n", strings.Join(forValues, " "))
		b.WriteString("\t\tesac\n\t\treturn\n\tfi\n")
		b.WriteString("\tcompadd -- \"${opts[@]}\"\n\tif [[ -n \"$files\" ]]; then _files; fi\n}\n")
		// Autoloaded from $fpath, the file is the function's body and runs it; sourced, it registers it.
		b.WriteString("if [[ \"${funcstack[1]}\" == _memoree ]]; then\n\t_memoree \"$@\"\nelse\n\tcompdef _memoree memoree\nfi\n")
	case "fish":
		b.WriteString("# fish completion for memoree: memoree completion fish > ~/.config/fish/completions/memoree.fish\n")
		b.WriteString("complete -c memoree -f\n")
		for _, n := range nodes {
			cond := fishCondition(n.path)
			if n.path != "" && len(n.subcommands) > 0 {
				// Offer a group's commands only until one of them is given.
				cond += "; and not __fish_seen_subcommand_from " + commandNames(n.subcommands)
				cond = strings.ReplaceAll(cond, ", ", " ")
			}
			for _, c := range n.subcommands {
				fmt.Fprintf(&b, "complete -c memoree -n %s -a %s -d %s\n", fishQuote(cond), c.Name, fishQuote(c.Usage))
			}
			if len(n.args) > 0 {
				fmt.Fprintf(&b, "complete -c memoree -n %s -a %s\n", fishQuote(cond), fishQuote(strings.Join(n.args, " ")))
			}
			if n.files {
				fmt.Fprintf(&b, "complete -c memoree -n %s -F\n", fishQuote(cond))
			}
			for _, f := range n.flags {
				names := f.Names()
				line := fmt.Sprintf("complete -c memoree -n %s", fishQuote(cond))
				for _, name := range names {
					if len(name) == 1 {
						line += " -s " + name
					} else {
						line += " -l " + name
					}
				}
				if df, ok := f.(cli.DocGenerationFlag); ok && df.TakesValue() {
					switch {
					case slices.Contains(fileValueFlags, dashes(names[0])):
						line += " -r -F"
					case names[0] == "for":
						line += " -x -a " + fishQuote(strings.Join(forValues, " "))
					default:
						line += " -x"
					}
				}
				line += " -d " + fishQuote(flagUsage(f))
				b.WriteString(line + "\n")
			}
		}
	default:
		return "", usagef("no completion for shell %q: give bash, zsh or fish", shell)
	}
	return b.String(), nil
}

// fishCondition is the fish test that the command line is at path ("/pending/list") and no deeper.
func fishCondition(path string) string {
	if path == "" {
		return "__fish_use_subcommand"
	}
	var parts []string
	for _, p := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		parts = append(parts, "__fish_seen_subcommand_from "+p)
	}
	return strings.Join(parts, "; and ")
}

// fishQuote quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
