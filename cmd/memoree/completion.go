package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script for bash, zsh or fish",
		ArgsUsage: "SHELL",
		Description: withDoc(`Prints a script that completes memoree's commands and flags, and file names after --file.
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
}

// completionNodes lists every command path of tree, the program itself first.
func completionNodes(tree *cli.App) []completionNode {
	nodes := []completionNode{{path: "", subcommands: tree.Commands}}
	walk(tree.Commands, func(c *cli.Command, parents []string) {
		path := ""
		for _, p := range append(parents, c.Name) {
			path += "/" + p
		}
		nodes = append(nodes, completionNode{path: path, subcommands: c.Subcommands, flags: c.Flags})
	})
	return nodes
}

// words lists what may follow a node: its subcommands, else its flags with their dashes and --help.
func (n completionNode) words() []string {
	var w []string
	for _, c := range n.subcommands {
		w = append(w, c.Name)
	}
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
		b.WriteString("\tlocal cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" cmd=\"\" w opts\n")
		b.WriteString("\tcase \"$prev\" in --file|-f) COMPREPLY=($(compgen -f -- \"$cur\")); return;; esac\n")
		b.WriteString("\tfor w in \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"; do\n\t\tcase \"$cmd/$w\" in\n\t\t\t")
		b.WriteString(strings.Join(paths, "|"))
		b.WriteString(") cmd=\"$cmd/$w\";;\n\t\tesac\n\tdone\n\tcase \"$cmd\" in\n")
		for _, n := range nodes {
			fmt.Fprintf(&b, "\t\t%q) opts=%q;;\n", n.path, strings.Join(n.words(), " "))
		}
		b.WriteString("\tesac\n\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n}\ncomplete -F _memoree memoree\n")
	case "zsh":
		b.WriteString("#compdef memoree\n# zsh completion for memoree: memoree completion zsh > \"${fpath[1]}/_memoree\"\n_memoree() {\n")
		b.WriteString("\tlocal cmd=\"\" w\n\tlocal -a opts\n")
		b.WriteString("\tcase \"${words[CURRENT-1]}\" in (--file|-f) _files; return;; esac\n")
		b.WriteString("\tfor w in \"${(@)words[2,CURRENT-1]}\"; do\n\t\tcase \"$cmd/$w\" in\n\t\t\t(")
		b.WriteString(strings.Join(paths, "|"))
		b.WriteString(") cmd=\"$cmd/$w\";;\n\t\tesac\n\tdone\n\tcase \"$cmd\" in\n")
		for _, n := range nodes {
			fmt.Fprintf(&b, "\t\t(%q) opts=(%s);;\n", n.path, strings.Join(n.words(), " "))
		}
		// Autoloaded from $fpath, the file is the function's body and runs it; sourced, it registers it.
		b.WriteString("\tesac\n\tcompadd -- \"${opts[@]}\"\n}\nif [[ \"${funcstack[1]}\" == _memoree ]]; then\n\t_memoree \"$@\"\nelse\n\tcompdef _memoree memoree\nfi\n")
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
				if names[0] == "file" {
					line += " -r -F"
				}
				if u, ok := f.(interface{ GetUsage() string }); ok {
					line += " -d " + fishQuote(u.GetUsage())
				}
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
