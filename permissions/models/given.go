package models

import (
	"fmt"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// Programs told to run a command: in an option (tar --to-command, ssh -o ProxyCommand, rsync -e, less
// +!, man -P), in their arguments (su -c, chroot DIR CMD, parallel, tmux, screen), on their input (at,
// batch) or for later (crontab). Warden does not follow them as it follows the wrappers: the part is
// unseen, and the command, where it is a word known before running, is read as bash for deny and ask
// rules.

// givenCommand says where a program is given a command it runs.
type givenCommand struct {
	// opts are options whose value is a command: the rest of the word after `=` (or, for a short one,
	// after the letters), or the next word.
	opts []string
	// sshOpts are the names of ssh's `-o NAME=VALUE` settings whose value is a command run here.
	sshOpts bool
	// plus says a word starting with `+` holds commands of the program's own, one of which runs the
	// shell (less +!cmd, vim +'!cmd').
	plus bool
	// rest says the words after the options, past skip operands, are the command (chroot DIR CMD...),
	// up to the word until, if given (parallel CMD ::: ARGS).
	rest  bool
	skip  int
	until string
	// each says any of its words past the first may be a command (tmux new 'cmd', parallel cmd ::: x).
	each bool
	// stdin says it reads commands from its input; later that it keeps them to run later.
	stdin, later bool
}

var givenCommands = map[string]givenCommand{
	"tar":       {opts: []string{"--to-command", "--checkpoint-action", "--use-compress-program", "-I", "--rsh-command", "--info-script", "--new-volume-script", "-F"}},
	"gtar":      {opts: []string{"--to-command", "--checkpoint-action", "--use-compress-program", "-I", "--rsh-command", "--info-script", "--new-volume-script", "-F"}},
	"rsync":     {opts: []string{"-e", "--rsh", "--rsync-path"}},
	"ssh":       {sshOpts: true, opts: []string{"-F"}},
	"scp":       {sshOpts: true, opts: []string{"-S", "-F"}},
	"sftp":      {sshOpts: true, opts: []string{"-S", "-F"}},
	"sort":      {opts: []string{"--compress-program"}},
	"zip":       {opts: []string{"-TT", "--unzip-command"}},
	"man":       {opts: []string{"-P", "--pager", "-H", "--html"}},
	"less":      {plus: true, opts: []string{"--lesskey-file", "--lesskey-src"}},
	"more":      {plus: true},
	"wget":      {opts: []string{"--use-askpass"}},
	"npx":       {opts: []string{"-c", "--call"}},
	"npm":       {opts: []string{"-c", "--call"}},
	"su":        {opts: []string{"-c", "--command", "--session-command"}},
	"runuser":   {opts: []string{"-c", "--command", "--session-command"}},
	"pkexec":    {rest: true},
	"chroot":    {rest: true, skip: 1},
	"nsenter":   {rest: true},
	"entr":      {rest: true},
	"parallel":  {rest: true, until: ":::"},
	"tmux":      {each: true},
	"screen":    {each: true},
	"xterm":     {each: true},
	"watchexec": {each: true},
	"at":        {stdin: true},
	"batch":     {stdin: true},
	"crontab":   {later: true},
}

// sshCommandSettings are ssh settings whose value runs a command, or loads code, on this machine.
var sshCommandSettings = []string{"proxycommand", "localcommand", "knownhostscommand", "match", "pkcs11provider",
	"securitykeyprovider"}

// givenCommandIn marks what program n, given words, is told to run. It reports whether it found one.
func givenCommandIn(e *shell.Exec, n string, words []shell.Word) bool {
	g, ok := givenCommands[n]
	if !ok {
		return false
	}
	found := func(what, body string) bool {
		why := fmt.Sprintf("`%s` is told to run %s", n, what)
		e.P.Unsee(shell.UnseenGivenCommand, why)
		if body != "" {
			e.Untrusted(body, why)
		}
		return true
	}
	switch {
	case g.later:
		if !hasShortOpt(words[1:], 'l') {
			return found("commands later, from a table Warden does not read", "")
		}
		return false
	case g.stdin:
		body := ""
		if e.Stdin != nil && e.Stdin.Static {
			body = e.Stdin.Value
		}
		return found("the commands of its input", body)
	}
	args := words[1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		if !w.Static {
			return found(fmt.Sprintf("`%s`, only known at run time", v), "")
		}
		if g.plus && strings.HasPrefix(v, "+") && strings.ContainsAny(v, "!|") {
			return found(fmt.Sprintf("`%s`, which runs the shell", v), strings.TrimLeft(v, "+:!|"))
		}
		if g.sshOpts && (v == "-o" && i+1 < len(args) || strings.HasPrefix(v, "-o") && len(v) > 2) {
			setting := strings.TrimPrefix(v, "-o")
			if setting == "" {
				i++
				setting = args[i].Value
			}
			name, value, _ := strings.Cut(setting, "=")
			if value == "" {
				name, value, _ = strings.Cut(setting, " ")
			}
			if containsStr(sshCommandSettings, strings.ToLower(strings.TrimSpace(name))) {
				return found(fmt.Sprintf("the command of `%s`", strings.TrimSpace(name)), value)
			}
			continue
		}
		for _, o := range g.opts {
			switch {
			case v == o && i+1 < len(args):
				return found(fmt.Sprintf("the command of `%s`", o), args[i+1].Value)
			case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
				return found(fmt.Sprintf("the command of `%s`", o), strings.TrimPrefix(v, o+"="))
			case !strings.HasPrefix(o, "--") && len(o) == 2 && strings.HasPrefix(v, o) && len(v) > 2:
				return found(fmt.Sprintf("the command of `%s`", o), strings.TrimPrefix(v[2:], "="))
			}
		}
	}
	var operands []shell.Word
	for i, w := range args {
		if w.Value == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(w.Value, "-") || len(operands) > 0 {
			operands = append(operands, w)
		}
	}
	switch {
	case g.rest && len(operands) > g.skip:
		cmd := shell.Values(operands[g.skip:])
		if g.until != "" {
			if i := slicesIndex(cmd, g.until); i >= 0 {
				cmd = cmd[:i]
			}
		}
		return found("a command", strings.Join(cmd, " "))
	case g.each && len(operands) > 1:
		why := fmt.Sprintf("`%s` may be told to run one of its words as a command", n)
		e.P.Unsee(shell.UnseenGivenCommand, why)
		for _, w := range operands[1:] {
			e.Untrusted(w.Value, why)
		}
		return true
	}
	return false
}

func slicesIndex(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
