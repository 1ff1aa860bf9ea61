package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

func completionCommand() *command {
	return &command{
		name: "completion", summary: "print a shell completion script (bash, zsh or fish)", args: "SHELL", minArgs: 1, maxArgs: 1,
		about: `Prints a script that completes edgeflow's commands, subcommands and flags in bash, zsh or fish.`,
		examples: []string{
			"source <(edgeflow completion bash)",
			"edgeflow completion zsh > \"${fpath[1]}/_edgeflow\"",
			"edgeflow completion fish > ~/.config/fish/completions/edgeflow.fish",
		},
		run: func(c *call) error {
			words := completionWords(Root(), extraCommands)
			switch c.args[0] {
			case "bash":
				writeBash(c.out(), words)
			case "zsh":
				fmt.Fprintln(c.out(), "#compdef edgeflow")
				fmt.Fprintln(c.out(), "autoload -U +X bashcompinit && bashcompinit")
				writeBash(c.out(), words)
			case "fish":
				writeFish(c.out(), words)
			default:
				return usageError("no completion for shell %q: bash, zsh or fish", c.args[0])
			}
			return nil
		},
	}
}

// extraCommands are the edgeflow binary's commands that are not client
// commands (serve, admin, …); cmd/edgeflow sets them.
var extraCommands []string

// SetServerCommands names the binary's other commands, for completion.
func SetServerCommands(names []string) { extraCommands = names }

// completionWords maps each command path ("" for the top level, "versions"
// for a group) to the words that may follow it.
func completionWords(root *command, extra []string) map[string][]string {
	words := map[string][]string{}
	var walk func(c *command, path string)
	walk = func(c *command, path string) {
		var list []string
		for _, s := range c.subs {
			list = append(list, s.name)
			walk(s, strings.TrimSpace(path+" "+s.name))
		}
		for _, f := range c.flags {
			list = append(list, "--"+f.name)
		}
		list = append(list, "--help")
		if c == root {
			list = append(list, extra...)
		}
		sort.Strings(list)
		words[path] = list
	}
	walk(root, "")
	return words
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func writeBash(w io.Writer, words map[string][]string) {
	fmt.Fprint(w, `# edgeflow completion for bash (and zsh through bashcompinit).
_edgeflow() {
  local cur path i
  cur="${COMP_WORDS[COMP_CWORD]}"
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${COMP_WORDS[i]}" in
      -*) ;;
      *) if _edgeflow_words "${path:+$path }${COMP_WORDS[i]}" >/dev/null; then path="${path:+$path }${COMP_WORDS[i]}"; fi ;;
    esac
  done
  COMPREPLY=($(compgen -W "$(_edgeflow_words "$path")" -- "$cur"))
}
_edgeflow_words() {
  case "$1" in
`)
	for _, k := range sortedKeys(words) {
		fmt.Fprintf(w, "    %q) echo %q ;;\n", k, strings.Join(words[k], " "))
	}
	fmt.Fprint(w, `    *) return 1 ;;
  esac
}
complete -F _edgeflow edgeflow
`)
}

func writeFish(w io.Writer, words map[string][]string) {
	fmt.Fprintln(w, "# edgeflow completion for fish.")
	fmt.Fprintln(w, "complete -c edgeflow -f")
	for _, k := range sortedKeys(words) {
		cond := "__fish_use_subcommand"
		if k != "" {
			var conds []string
			for _, part := range strings.Fields(k) {
				conds = append(conds, "__fish_seen_subcommand_from "+part)
			}
			cond = strings.Join(conds, "; and ")
		}
		var subs, flags []string
		for _, word := range words[k] {
			if strings.HasPrefix(word, "--") {
				flags = append(flags, strings.TrimPrefix(word, "--"))
			} else {
				subs = append(subs, word)
			}
		}
		if len(subs) > 0 {
			fmt.Fprintf(w, "complete -c edgeflow -n '%s' -a '%s'\n", cond, strings.Join(subs, " "))
		}
		for _, f := range flags {
			fmt.Fprintf(w, "complete -c edgeflow -n '%s' -l %s\n", cond, f)
		}
	}
}
