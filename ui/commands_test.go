package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func TestParseSlash(t *testing.T) {
	for _, tc := range []struct {
		in         string
		kind       slashKind
		name, args string
		text       string
	}{
		{in: "/help", kind: slashCommand, name: "help"},
		{in: "/compact keep the tests", kind: slashCommand, name: "compact", args: "keep the tests"},
		{in: "/model  gpt-4o ", kind: slashCommand, name: "model", args: "gpt-4o"},
		{in: "/review\nthe diff", kind: slashCommand, name: "review", args: "the diff"},
		{in: "//etc is odd", kind: literalSlash, text: "/etc is odd"},
		{in: "/usr/bin/env is broken", kind: notSlash, text: "/usr/bin/env is broken"},
		{in: "fix /tmp", kind: notSlash, text: "fix /tmp"},
		{in: "/", kind: slashCommand},
	} {
		got := parseSlash(tc.in)
		if got.kind != tc.kind || got.name != tc.name || got.args != tc.args || (tc.text != "" && got.text != tc.text) {
			t.Errorf("parseSlash(%q) = %+v", tc.in, got)
		}
	}
}

func TestBuiltinNamesAreValidAndUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range builtins {
		if err := checkCommand(c); err != nil {
			t.Error(err)
		}
		if seen[c.Name] {
			t.Errorf("/%s twice", c.Name)
		}
		seen[c.Name] = true
		if c.Desc == "" {
			t.Errorf("/%s has no description", c.Name)
		}
	}
}

func TestRegisteringABuiltinTwicePanics(t *testing.T) {
	saved := builtins
	defer func() { builtins = saved }()
	defer func() {
		if recover() == nil {
			t.Error("registering /help again did not panic")
		}
	}()
	registerBuiltin(Command{Name: "help", Desc: "again", Run: func(*Model, string) tea.Cmd { return nil }})
}

func TestMatchOrdersPrefixThenInsideThenScattered(t *testing.T) {
	s := newCommandSet()
	s.set("test", []Command{
		{Name: "review", Desc: "r", Run: func(*Model, string) tea.Cmd { return nil }},
		{Name: "preview", Desc: "p", Run: func(*Model, string) tea.Cmd { return nil }},
		{Name: "rev", Desc: "short", Run: func(*Model, string) tea.Cmd { return nil }},
		{Name: "rxexvx", Desc: "scattered", Run: func(*Model, string) tea.Cmd { return nil }},
		{Name: "reva", Desc: "longer", Run: func(*Model, string) tea.Cmd { return nil }},
	})
	var names []string
	for _, c := range s.match("rev") {
		names = append(names, c.Name)
	}
	got := strings.Join(names, " ")
	if got != "rev reva review preview rxexvx" {
		t.Errorf("match(rev) = %s", got)
	}
}

// The menu opens on a slash, narrows as the name is typed, and shows each command's argument hint and
// description.
func TestSlashOpensAFilteredMenu(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	typeText(m, "/")
	s := plain(m)
	for _, want := range []string{"/help", "/compact", "/history", "[focus]", "tab complete"} {
		if !strings.Contains(s, want) {
			t.Errorf("the menu lacks %q:\n%s", want, s)
		}
	}
	typeText(m, "hi")
	s = plain(m)
	if !strings.Contains(s, "/history") || strings.Contains(s, "/compact") {
		t.Errorf("the menu did not narrow to /history:\n%s", s)
	}
	typeText(m, "zz")
	if s := plain(m); !strings.Contains(s, "no command matches /hizz") {
		t.Errorf("no match is not said:\n%s", s)
	}
}

func TestTabCompletesAndEnterRuns(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	typeText(m, "/his")
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if v := m.input.Value(); v != "/history" {
		t.Fatalf("tab gave %q", v)
	}
	typeText(m, "/mo")
	m.input.SetValue("/mo")
	m.refreshMenu()
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if v := m.input.Value(); v != "/mode " {
		t.Fatalf("tab on a command with arguments gave %q, want a space after it", v)
	}
	m.input.Reset()
	typeText(m, "/hel")
	press(m, "enter")
	if _, ok := m.top().(*helpOverlay); !ok {
		t.Fatalf("enter on /hel did not run /help; top is %T", m.top())
	}
	if m.input.Value() != "" {
		t.Errorf("the prompt kept %q after the command ran", m.input.Value())
	}
}

func TestMenuArrowsChooseAndEscCloses(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m.prompts = []string{"an earlier prompt"}
	m.promptIdx = 1
	typeText(m, "/")
	first, _ := m.menu.current()
	press(m, "down")
	second, _ := m.menu.current()
	if first.value == second.value {
		t.Fatalf("down did not move the selection (%s)", first.value)
	}
	if m.input.Value() != "/" {
		t.Errorf("down recalled a prompt instead of moving in the menu: %q", m.input.Value())
	}
	press(m, "up")
	if it, _ := m.menu.current(); it.value != first.value {
		t.Errorf("up went to %s, want %s", it.value, first.value)
	}
	press(m, "esc")
	if m.menu.open() {
		t.Fatal("esc did not close the menu")
	}
	if m.input.Value() != "/" {
		t.Errorf("esc on the menu changed the prompt to %q", m.input.Value())
	}
	typeText(m, "m")
	if !m.menu.open() {
		t.Error("typing after esc did not open the menu again")
	}
}

// The help screen lists the same commands as the menu, from the same set, with their source.
func TestHelpListsEveryCommand(t *testing.T) {
	m, _ := newTestModel(t, 120, 80)
	m.Update(commandsMsg{Source: "project", Commands: []Command{{Name: "deploy", Args: "ENV", Desc: "ship it",
		Run: func(*Model, string) tea.Cmd { return nil }}}})
	typeText(m, "?")
	s := plain(m)
	for _, c := range m.commands.all() {
		if !strings.Contains(s, "/"+c.Name) {
			t.Errorf("? does not list /%s:\n%s", c.Name, s)
		}
	}
	if !strings.Contains(s, "ship it (project)") {
		t.Errorf("the source of /deploy is not shown:\n%s", s)
	}
	press(m, "esc")
	typeText(m, "/help")
	press(m, "enter")
	if got := plain(m); got != s {
		t.Errorf("/help and ? differ:\n%s\n---\n%s", got, s)
	}
}

// Commands found at run time (an MCP server's prompts) join the menu and replace the earlier commands of
// their source; a name already taken is refused with a note.
func TestCommandsAddedAtRunTime(t *testing.T) {
	m, _ := newTestModel(t, 120, 30)
	ran := ""
	mk := func(name string) Command {
		return Command{Name: name, Desc: "prompt " + name, Run: func(_ *Model, args string) tea.Cmd {
			ran = name + ":" + args
			return nil
		}}
	}
	m.Update(commandsMsg{Source: "mcp: files", Commands: []Command{mk("mcp__files__summarise"), mk("help")}})
	if s := plain(m); !strings.Contains(s, "/help is one of Warden's own commands") {
		t.Errorf("the clash with /help is not reported:\n%s", s)
	}
	clash := Command{Name: "mcp__files__summarise", File: "/home/me/.config/warden/commands/mcp__files__summarise.md",
		Run: func(*Model, string) tea.Cmd { return nil }}
	m.Update(commandsMsg{Source: "user", Commands: []Command{clash}})
	if s := strings.Join(strings.Fields(plain(m)), " "); !strings.Contains(s, "the mcp: files commands have /mcp__files__summarise already; rename /home/me/.config/warden/commands/mcp__files__summarise.md") {
		t.Errorf("the clash between two sources does not say which holds the name and which file to rename:\n%s", s)
	}
	typeText(m, "/mcp__f")
	s := plain(m)
	if !strings.Contains(s, "/mcp__files__summarise") || !strings.Contains(s, "(mcp: files)") {
		t.Errorf("the menu lacks the added command:\n%s", s)
	}
	m.input.SetValue("/mcp__files__summarise the README")
	m.refreshMenu()
	press(m, "enter")
	if ran != "mcp__files__summarise:the README" {
		t.Errorf("ran = %q", ran)
	}
	m.Update(commandsMsg{Source: "mcp: files", Commands: []Command{mk("mcp__files__list")}})
	if _, ok := m.commands.lookup("mcp__files__summarise"); ok {
		t.Error("the source's earlier command stayed")
	}
	if _, ok := m.commands.lookup("mcp__files__list"); !ok {
		t.Error("the source's new command is missing")
	}
	if c, _ := m.commands.lookup("help"); c.Source != "" {
		t.Error("the built-in /help was replaced")
	}
}

func TestIdleCommandWaitsForTheRequest(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	ran := false
	m.Update(commandsMsg{Source: "test", Commands: []Command{{Name: "swap", Desc: "d", Idle: true,
		Run: func(*Model, string) tea.Cmd { ran = true; return nil }}}})
	m.run = &run{cancel: func() {}, done: make(chan struct{}), started: time.Now()}
	m.input.SetValue("/swap")
	m.menu.dismissed = "/swap"
	press(m, "enter")
	if ran {
		t.Fatal("an idle command ran during a request")
	}
	if s := plain(m); !strings.Contains(s, "/swap waits until the request in progress ends") {
		t.Errorf("no word of why:\n%s", s)
	}
}

// An unknown command is refused, stays in the prompt to be fixed, and reaches no model; // sends a
// literal slash, and a path at the start is an ordinary prompt.
func TestAppUnknownCommandSendsNothing(t *testing.T) {
	a := startApp(t)
	a.prompt("/frobnicate the code")
	a.waitFor("Unknown command /frobnicate")
	if s := a.screen(); !strings.Contains(s, "❯ /frobnicate the code") {
		t.Errorf("the prompt was not kept:\n%s", s)
	}
	a.key(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
	a.prompt("//etc/hosts: list files there")
	a.waitFor("Finished:")
	a.prompt("/usr/bin: list files there")
	reqs, err := a.srv.WaitRequests(4, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, r := range reqs {
		for _, msg := range r.Messages {
			if msg.Role == "user" && !contains(users, msg.Content) {
				users = append(users, msg.Content)
			}
		}
	}
	want := []string{"/etc/hosts: list files there", "/usr/bin: list files there"}
	if strings.Join(users, "|") != strings.Join(want, "|") {
		t.Errorf("the server received the prompts %q, want %q", users, want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A command's slow work reports back through a commandResult, applied in Update.
func TestCommandResultIsAppliedInUpdate(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m.Update(commandsMsg{Source: "test", Commands: []Command{{Name: "slow", Desc: "d",
		Run: func(*Model, string) tea.Cmd {
			return func() tea.Msg {
				return commandResult(func(m *Model) tea.Cmd {
					m.conv.add(&item{kind: itemInfo, text: "slow work done"})
					return nil
				})
			}
		}}}})
	m.input.SetValue("/slow")
	m.menu.dismissed = "/slow"
	_, cmd := m.Update(keyMsg("enter"))
	if cmd == nil {
		t.Fatal("no work returned")
	}
	m.Update(cmd())
	if s := plain(m); !strings.Contains(s, "slow work done") {
		t.Errorf("the result was not applied:\n%s", s)
	}
}

// Esc with nothing running clears the prompt into the history that ↑ recalls.
func TestEscClearsThePromptIntoHistory(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	typeText(m, "half a thought")
	press(m, "esc")
	if v := m.input.Value(); v != "" {
		t.Fatalf("esc left %q", v)
	}
	press(m, "up")
	if v := m.input.Value(); v != "half a thought" {
		t.Errorf("↑ recalled %q", v)
	}
}

// A name typed in full is the first entry even when a built-in extends it, so that Enter runs it.
func TestExactNameComesFirst(t *testing.T) {
	s := newCommandSet()
	s.set("user", []Command{{Name: "hel", Desc: "mine", Run: func(*Model, string) tea.Cmd { return nil }}})
	got := s.match("hel")
	if len(got) < 2 || got[0].Name != "hel" || got[1].Name != "help" {
		t.Errorf("match(hel) = %v", got)
	}
}

// Enter on a command whose arguments are required completes it and waits for them; optional ones run.
func TestEnterWaitsForRequiredArguments(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	ran := ""
	m.Update(commandsMsg{Source: "user", Commands: []Command{
		{Name: "deploy", Args: "ENV", Desc: "d", Run: func(_ *Model, a string) tea.Cmd { ran = "deploy:" + a; return nil }},
		{Name: "lint", Args: "[path]", Desc: "d", Run: func(_ *Model, a string) tea.Cmd { ran = "lint:" + a; return nil }},
	}})
	typeText(m, "/depl")
	press(m, "enter")
	if ran != "" || m.input.Value() != "/deploy " {
		t.Fatalf("ran %q, prompt %q", ran, m.input.Value())
	}
	typeText(m, "staging")
	press(m, "enter")
	if ran != "deploy:staging" {
		t.Errorf("ran %q", ran)
	}
	typeText(m, "/lin")
	press(m, "enter")
	if ran != "lint:" {
		t.Errorf("an optional argument held the command back: ran %q", ran)
	}
}

// The menu's name column is as wide as the names it shows: an MCP prompt's long name further down the
// list does not cut the descriptions of the built-ins at the top.
func TestMenuNameColumnFitsTheShownEntries(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m.Update(commandsMsg{Source: "mcp: everything", Commands: []Command{{Name: "mcp__everything__completable-prompt",
		Args: "DEPARTMENT NAME", Desc: "First argument choice narrows values for second argument",
		Run: func(*Model, string) tea.Cmd { return nil }}}})
	typeText(m, "/")
	s := plain(m)
	if !strings.Contains(s, "/clear  ") || !strings.Contains(s, "start a new conversation (this one stays for /resume)") {
		t.Errorf("the built-ins' descriptions are cut:\n%s", s)
	}
	typeText(m, "mcp__")
	if s := plain(m); !strings.Contains(s, "/mcp__everything__completable-prompt") {
		t.Errorf("the MCP prompt's name is cut:\n%s", s)
	}
}
