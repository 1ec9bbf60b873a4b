package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// completionCommand prints a shell completion script built from the
// commands and flags themselves, so it never goes stale. --name completes
// the sessions of the repository (from git, no rgit process).
func completionCommand(io *IO) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print shell completion: source <(rgit completion bash), or zsh, or fish",
		ArgsUsage: "bash|zsh|fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("Run 'rgit completion --help'", "completion takes one shell: bash, zsh or fish")
			}
			cmds := visible(c.App.Commands)
			switch sh := c.Args().First(); sh {
			case "bash":
				bashCompletion(io.Out, cmds)
			case "zsh":
				zshCompletion(io.Out, cmds)
			case "fish":
				fishCompletion(io.Out, cmds)
			default:
				msg := fmt.Sprintf("unknown shell %q", sh)
				if s := suggest(sh, []string{"bash", "zsh", "fish"}); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				return usagef("Run 'rgit completion --help'", "%s", msg)
			}
			return nil
		},
	}
}

func visible(cmds []*cli.Command) []*cli.Command {
	var out []*cli.Command
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			out = append(out, c)
		}
	}
	return out
}

// flagWords are a command's flags as typed: --name, -y.
func flagWords(c *cli.Command) []string {
	out := []string{}
	for _, f := range c.Flags {
		for _, n := range f.Names() {
			if !slices.Contains(out, dashed(n)) {
				out = append(out, dashed(n))
			}
		}
	}
	if !slices.Contains(out, "--help") {
		out = append(out, "--help")
	}
	return out
}

func takesValue(f cli.Flag) bool {
	_, isBool := f.(*cli.BoolFlag)
	return !isBool
}

const sessionsCmd = `git for-each-ref --format='%(refname:strip=3)' refs/heads/research/ 2>/dev/null`

func bashCompletion(w io.Writer, cmds []*cli.Command) {
	names := make([]string, 0, len(cmds))
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	fmt.Fprintf(w, "# bash completion for rgit: source <(rgit completion bash)\n_rgit() {\n")
	fmt.Fprintf(w, "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	fmt.Fprintf(w, "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", strings.Join(names, " "))
	fmt.Fprintf(w, "  if [ \"$prev\" = \"--name\" ]; then\n    COMPREPLY=($(compgen -W \"$(%s)\" -- \"$cur\"))\n    return\n  fi\n", sessionsCmd)
	fmt.Fprintf(w, "  case \"${COMP_WORDS[1]}\" in\n")
	for _, c := range cmds {
		words := flagWords(c)
		if c.Name == "completion" {
			words = append(words, "bash", "zsh", "fish")
		}
		fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", c.Name, strings.Join(words, " "))
	}
	fmt.Fprintf(w, "  esac\n}\ncomplete -F _rgit rgit\n")
}

// zshEscape makes a description safe inside an _arguments spec.
func zshEscape(s string) string {
	return strings.NewReplacer("[", "(", "]", ")", ":", " -", "'", "", "\\", "").Replace(s)
}

func zshCompletion(w io.Writer, cmds []*cli.Command) {
	fmt.Fprintf(w, "#compdef rgit\n# zsh completion for rgit: source <(rgit completion zsh)\n")
	fmt.Fprintf(w, "_rgit_sessions() {\n  local -a s\n  s=(${(f)\"$(%s)\"})\n  _describe session s\n}\n", sessionsCmd)
	fmt.Fprintf(w, "_rgit() {\n  local -a cmds\n  cmds=(\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "    '%s:%s'\n", c.Name, zshEscape(c.Usage))
	}
	fmt.Fprintf(w, "  )\n  if (( CURRENT == 2 )); then\n    _describe command cmds\n    return\n  fi\n  case $words[2] in\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s) _arguments", c.Name)
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				spec := fmt.Sprintf("%s[%s]", dashed(n), zshEscape(usageOf(f)))
				if takesValue(f) {
					value := ":value:"
					if n == "name" {
						value = ":session:_rgit_sessions"
					}
					spec += value
				}
				fmt.Fprintf(w, " '%s'", spec)
			}
		}
		if c.Name == "completion" {
			fmt.Fprintf(w, " '1:shell:(bash zsh fish)'")
		}
		fmt.Fprintf(w, " ;;\n")
	}
	fmt.Fprintf(w, "  esac\n}\nif [ \"$funcstack[1]\" = \"_rgit\" ]; then\n  _rgit \"$@\"\nelse\n  compdef _rgit rgit\nfi\n")
}

func fishCompletion(w io.Writer, cmds []*cli.Command) {
	fmt.Fprintf(w, "# fish completion for rgit: rgit completion fish | source\ncomplete -c rgit -f\n")
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c rgit -n __fish_use_subcommand -a %s -d %s\n", c.Name, fishQuote(c.Usage))
	}
	for _, c := range cmds {
		cond := "__fish_seen_subcommand_from " + c.Name
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				opt := "-l " + n
				if len(n) == 1 {
					opt = "-s " + n
				}
				extra := ""
				if takesValue(f) {
					extra = " -r"
				}
				if n == "name" {
					extra += fmt.Sprintf(" -a '(%s)'", strings.ReplaceAll(sessionsCmd, "'", "\\'"))
				}
				fmt.Fprintf(w, "complete -c rgit -n '%s' %s%s -d %s\n", cond, opt, extra, fishQuote(usageOf(f)))
			}
		}
		if c.Name == "completion" {
			fmt.Fprintf(w, "complete -c rgit -n '%s' -a 'bash zsh fish'\n", cond)
		}
	}
}

func fishQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }

func usageOf(f cli.Flag) string {
	if d, ok := f.(cli.DocGenerationFlag); ok {
		return d.GetUsage()
	}
	return ""
}
