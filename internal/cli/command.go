package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// flagDef is one flag of a command. A flag with a value placeholder takes a
// value (--name VALUE or --name=VALUE); one without is a switch.
type flagDef struct {
	name  string // without dashes
	short string // a one-letter alias, or ""
	value string // the placeholder of its value ("URL"), "" for a switch
	usage string
}

// command is a node of the command tree: a group (with subs) or a leaf
// (with run).
type command struct {
	name     string
	summary  string // one line, for the parent's list
	args     string // the arguments' synopsis, e.g. "WORKFLOW [VERSION]"
	about    string // what the command does, shown by --help
	examples []string
	flags    []flagDef
	subs     []*command
	parent   *command
	// minArgs and maxArgs bound the positional arguments (maxArgs -1: any
	// number).
	minArgs, maxArgs int
	run              func(c *call) error
}

// call is one invocation of a leaf command: its parsed arguments and
// flags, and the environment.
type call struct {
	ctx   context.Context
	env   Env
	cmd   *command
	args  []string
	flags map[string]string
	set   map[string]bool
}

// flag returns the value of a flag ("" when not given).
func (c *call) flag(name string) string { return c.flags[name] }

// has reports whether a flag was given.
func (c *call) has(name string) bool { return c.set[name] }

// out is standard output.
func (c *call) out() io.Writer { return c.env.Stdout }

// helpFlag is understood by every command.
var helpFlag = flagDef{name: "help", short: "h", usage: "show this help"}

// jsonFlag is the flag of every listing.
var jsonFlag = flagDef{name: "json", usage: "print JSON instead of a table"}

// link sets the parent of every command of the tree.
func (c *command) link() *command {
	for _, s := range c.subs {
		s.parent = c
		s.link()
	}
	return c
}

// path is the command's words after "edgeflow", e.g. "versions ls".
func (c *command) path() string {
	if c.parent == nil || c.parent.name == "" {
		return c.name
	}
	return c.parent.path() + " " + c.name
}

func (c *command) usageLine() string {
	s := c.path()
	if len(c.subs) > 0 {
		return s + " <command> [flags]"
	}
	if c.args != "" {
		s += " " + c.args
	}
	return s + " [flags]"
}

// find walks args down the tree: the first words that name subcommands
// select the command; the rest (flags anywhere, arguments) is returned for
// the command to parse. Flags before a subcommand's name are kept.
func (c *command) find(args []string) (*command, []string) {
	cur := c
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			rest = append(rest, a)
			if name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "="); !hasValue && cur.valueFlagBelow(name) && i+1 < len(args) {
				i++
				rest = append(rest, args[i])
			}
			continue
		}
		if sub := cur.sub(a); sub != nil && len(cur.subs) > 0 {
			cur = sub
			continue
		}
		rest = append(rest, args[i:]...)
		break
	}
	return cur, rest
}

func (c *command) sub(name string) *command {
	for _, s := range c.subs {
		if s.name == name {
			return s
		}
	}
	return nil
}

// valueFlagBelow reports whether name is a flag taking a value of c or of
// a command below it.
func (c *command) valueFlagBelow(name string) bool {
	if f := c.lookup(name); f != nil && f.value != "" {
		return true
	}
	for _, s := range c.subs {
		if s.valueFlagBelow(name) {
			return true
		}
	}
	return false
}

func (c *command) lookup(name string) *flagDef {
	if name == helpFlag.name || name == helpFlag.short {
		return &helpFlag
	}
	for i := range c.flags {
		if c.flags[i].name == name || (c.flags[i].short != "" && c.flags[i].short == name) {
			return &c.flags[i]
		}
	}
	return nil
}

// parse splits args into flags and positional arguments; flags may come
// before, between or after the arguments, and "--" ends the flags.
func (c *command) parse(args []string) (positional []string, values map[string]string, set map[string]bool, err error) {
	values, set = map[string]string{}, map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := c.lookup(name)
		if f == nil {
			return nil, nil, nil, usageError("unknown flag %s", a)
		}
		switch {
		case f.value == "" && hasValue:
			return nil, nil, nil, usageError("flag --%s takes no value", f.name)
		case f.value != "" && !hasValue:
			if i+1 >= len(args) {
				return nil, nil, nil, usageError("flag --%s needs a value (%s)", f.name, f.value)
			}
			i++
			value = args[i]
		}
		if set[f.name] && f.value != "" {
			return nil, nil, nil, usageError("flag --%s given twice", f.name)
		}
		set[f.name] = true
		values[f.name] = value
	}
	return positional, values, set, nil
}

// execute parses args for c and runs it, returning the exit status.
func (c *command) execute(ctx context.Context, env Env, args []string) int {
	positional, values, set, err := c.parse(args)
	if err != nil {
		return statusOf(err, c, env)
	}
	if set["help"] {
		c.help(env.Stdout)
		return ExitOK
	}
	if len(c.subs) > 0 {
		if len(positional) == 0 {
			fmt.Fprintf(env.Stderr, "edgeflow %s: a command is required\n\n", c.path())
		} else {
			fmt.Fprintf(env.Stderr, "edgeflow %s: unknown command %q\n\n", c.path(), positional[0])
		}
		c.help(env.Stderr)
		return ExitUsage
	}
	switch {
	case len(positional) < c.minArgs:
		return statusOf(usageError("missing arguments: %s", c.args), c, env)
	case c.maxArgs >= 0 && len(positional) > c.maxArgs:
		return statusOf(usageError("unexpected argument %q", positional[c.maxArgs]), c, env)
	}
	return statusOf(c.run(&call{ctx: ctx, env: env, cmd: c, args: positional, flags: values, set: set}), c, env)
}

// help writes the command's help: usage, description, subcommands or
// flags, and examples.
func (c *command) help(w io.Writer) {
	fmt.Fprintf(w, "Usage: edgeflow %s\n", c.usageLine())
	if c.about != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.about))
	} else if c.summary != "" {
		fmt.Fprintf(w, "\n%s.\n", c.summary)
	}
	if len(c.subs) > 0 {
		fmt.Fprintln(w, "\nCommands:")
		for _, s := range c.subs {
			fmt.Fprintf(w, "  %-10s %s\n", s.name, s.summary)
		}
	}
	flags := append(append([]flagDef{}, c.flags...), helpFlag)
	fmt.Fprintln(w, "\nFlags:")
	for _, f := range flags {
		name := "--" + f.name
		if f.short != "" {
			name = "-" + f.short + ", " + name
		}
		if f.value != "" {
			name += " " + f.value
		}
		fmt.Fprintf(w, "  %-28s %s\n", name, f.usage)
	}
	examples := c.examples
	if len(examples) == 0 {
		for _, s := range c.subs {
			if len(s.examples) > 0 {
				examples = append(examples, s.examples[0])
			}
		}
	}
	if len(examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, e := range examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}
