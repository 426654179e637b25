package ui

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
)

// Command is one slash command: typed as "/name args" at the start of the prompt, listed in the menu that
// "/" opens and in the help screen.
type Command struct {
	// Name is what follows the slash: letters, digits, and - _ : . (an MCP prompt is mcp__server__prompt).
	Name string
	// Args is the argument hint shown after the name ("[focus]", "[NAME]"); "" when it takes none.
	Args string
	// Desc says in one line what it does.
	Desc string
	// Source says where a command that is not built in comes from ("user", "project", "mcp: github");
	// the menu and the help screen show it.
	Source string
	// Idle commands need the agent to be free (they replace the conversation, or send a request): typed
	// while a request runs, they say so and do nothing.
	Idle bool
	// Run does the command, from Update; args is what follows the name, trimmed.
	Run func(m *Model, args string) tea.Cmd
	// File is the file a custom command was read from, named when the command cannot be added.
	File string
}

// builtins are the commands every session has, registered by the cmd_*.go files as the package starts.
var builtins []Command

// registerBuiltin adds a built-in command; call it from an init function. A name registered twice
// panics: two files claiming one name is a bug to find at once, not a command to shadow silently.
func registerBuiltin(c Command) {
	if err := checkCommand(c); err != nil {
		panic("ui: " + err.Error())
	}
	for _, b := range builtins {
		if b.Name == c.Name {
			panic(fmt.Sprintf("ui: the built-in command /%s is registered twice", c.Name))
		}
	}
	builtins = append(builtins, c)
}

func checkCommand(c Command) error {
	if !validCommandName(c.Name) {
		return fmt.Errorf("%q is not a command name (letters, digits, - _ : . only)", c.Name)
	}
	if c.Run == nil {
		return fmt.Errorf("the command /%s has no Run", c.Name)
	}
	return nil
}

func validCommandName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		ok := r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || (i > 0 && strings.ContainsRune("-_:.", r)))
		if !ok {
			return false
		}
	}
	return true
}

// commandSet is one session's commands: the built-ins and those added at run time, by source (custom
// command files, an MCP server's prompts). It is changed only in Update.
type commandSet struct {
	byName map[string]Command
}

func newCommandSet() *commandSet {
	s := &commandSet{byName: map[string]Command{}}
	for _, c := range builtins {
		s.byName[c.Name] = c
	}
	return s
}

// set replaces every command of source with cmds. A name already taken by a built-in or by another
// source is not replaced: the first comer keeps it, and the names left out are returned so that the
// person can be told.
func (s *commandSet) set(source string, cmds []Command) (refused []string) {
	for name, c := range s.byName {
		if c.Source == source && source != "" {
			delete(s.byName, name)
		}
	}
	for _, c := range cmds {
		c.Source = source
		why := ""
		if err := checkCommand(c); err != nil {
			why = err.Error()
		} else if had, taken := s.byName[c.Name]; taken && had.Source == "" {
			why = "/" + c.Name + " is one of Warden's own commands, which always win"
		} else if taken {
			why = "the " + had.Source + " commands have /" + c.Name + " already"
		}
		if why == "" {
			s.byName[c.Name] = c
			continue
		}
		if c.File != "" {
			why += "; rename " + c.File
		}
		refused = append(refused, why)
	}
	return refused
}

func (s *commandSet) lookup(name string) (Command, bool) {
	c, ok := s.byName[name]
	return c, ok
}

// all is every command: built-ins first, then by source, each group by name.
func (s *commandSet) all() []Command {
	out := make([]Command, 0, len(s.byName))
	for _, c := range s.byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Source == "") != (b.Source == "") {
			return a.Source == ""
		}
		if a.Source != b.Source {
			return a.Source < b.Source
		}
		return a.Name < b.Name
	})
	return out
}

// match lists the commands whose name fits what was typed after the slash: names that start with it
// first, then names that contain it, then names that hold its letters in order.
func (s *commandSet) match(typed string) []Command {
	typed = strings.ToLower(typed)
	var prefix, inside, scattered []Command
	for _, c := range s.all() {
		name := strings.ToLower(c.Name)
		switch {
		case strings.HasPrefix(name, typed):
			prefix = append(prefix, c)
		case strings.Contains(name, typed):
			inside = append(inside, c)
		case subsequence(name, typed):
			scattered = append(scattered, c)
		}
	}
	// The exact name first, so that Enter on a complete name runs that command.
	slices.SortStableFunc(prefix, func(a, b Command) int {
		return cmpBool(strings.EqualFold(b.Name, typed), strings.EqualFold(a.Name, typed))
	})
	return append(append(prefix, inside...), scattered...)
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// subsequence reports whether every rune of sub appears in s, in order.
func subsequence(s, sub string) bool {
	for _, r := range sub {
		i := strings.IndexRune(s, r)
		if i < 0 {
			return false
		}
		s = s[i+len(string(r)):]
	}
	return true
}

// slashInput is what a prompt starting with a slash means.
type slashInput struct {
	kind slashKind
	// name and args of a command; text of a literal prompt.
	name, args, text string
}

type slashKind int

const (
	notSlash     slashKind = iota // an ordinary prompt (a path such as /usr/bin/x counts as one)
	literalSlash                  // "//x": the prompt "/x"
	slashCommand                  // "/name args"
)

// parseSlash reads a prompt: "/name args" is a command, "//text" the prompt "/text", and a first word
// with another slash in it (/usr/bin/env is broken) a prompt that happens to start with a path.
func parseSlash(text string) slashInput {
	if !strings.HasPrefix(text, "/") {
		return slashInput{kind: notSlash, text: text}
	}
	if strings.HasPrefix(text, "//") {
		return slashInput{kind: literalSlash, text: text[1:]}
	}
	word, rest, _ := strings.Cut(text[1:], " ")
	if w, r, ok := strings.Cut(word, "\n"); ok {
		word, rest = w, r+" "+rest
	}
	if strings.Contains(word, "/") {
		return slashInput{kind: notSlash, text: text}
	}
	return slashInput{kind: slashCommand, name: word, args: strings.TrimSpace(rest)}
}

// runCommand runs the command a prompt names, or says why it cannot. Nothing reaches the model from
// here unless the command itself sends a request.
func (m *Model) runCommand(in slashInput) tea.Cmd {
	if in.name == "" {
		return m.setFlash("Type a command after the slash; /help lists them")
	}
	c, ok := m.commands.lookup(in.name)
	if !ok {
		if offer := m.offerTrust(in.name); offer != nil {
			return offer
		}
		guess := ""
		if near := m.commands.didYouMean(in.name); near != "" {
			guess = fmt.Sprintf(" (did you mean /%s?)", near)
		}
		return m.setFlash(fmt.Sprintf("Unknown command /%s%s: nothing was sent. /help lists the commands; // sends a message that begins with /", in.name, guess))
	}
	if c.Idle && m.run != nil {
		return m.setFlash(fmt.Sprintf("/%s waits until the request in progress ends (%s interrupts it)", c.Name, hintKeys(m.keys.Interrupt)))
	}
	return c.Run(m, in.args)
}

// commandsMsg adds commands found while Warden runs (an MCP server's prompts, say), replacing every
// command of the same Source. Send it from any goroutine with the model's sender.
type commandsMsg struct {
	Source   string
	Commands []Command
}

// addCommands applies a commandsMsg.
func (m *Model) addCommands(msg commandsMsg) tea.Cmd {
	refused := m.commands.set(msg.Source, msg.Commands)
	m.refreshMenu()
	for _, why := range refused {
		m.conv.add(&item{kind: itemNotice, text: fmt.Sprintf("%s: a command is not added: %s", msg.Source, why)})
	}
	return nil
}

// promptMsg sends Text as a prompt, as if typed: what a command returns once it has built a prompt in
// the background (an MCP prompt fetched from its server).
type promptMsg struct{ Text string }

// commandResult is what a command's slow work (a tea.Cmd) returns to finish in Update: it is called
// there with the model, so that the work itself changes nothing the program reads.
type commandResult func(m *Model) tea.Cmd

// startHooks run from Init, in the order registered: a file that adds commands found at run time starts
// its search here (registerOnStart from an init function), and reports with a commandsMsg.
var startHooks []func(m *Model) tea.Cmd

func registerOnStart(f func(m *Model) tea.Cmd) { startHooks = append(startHooks, f) }

// firstFrameDelay is how long work that need not be ready at once (indexing files, reading command files)
// waits, so that the first frame does not share the machine with it.
const firstFrameDelay = 200 * time.Millisecond

// afterFirstFrame runs f in Update once the first frame is surely on the screen.
func afterFirstFrame(f func(m *Model) tea.Cmd) tea.Cmd {
	return tea.Tick(firstFrameDelay, func(time.Time) tea.Msg { return commandResult(f) })
}
