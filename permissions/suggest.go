package permissions

import (
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/permissions/supplied"
)

// neverBare are programs for which a word-prefix rule on the program alone would allow anything: shells,
// interpreters, wrappers and privilege tools. For them only the exact command (or a subcommand prefix)
// is suggested.
var neverBare = map[string]bool{
	"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "env": true, "sudo": true,
	"doas": true, "xargs": true, "eval": true, "exec": true, "command": true, "builtin": true, "nohup": true,
	"timeout": true, "nice": true, "ionice": true, "time": true, "stdbuf": true, "setsid": true, "flock": true,
	"watch": true, "strace": true, "ltrace": true, "valgrind": true, "source": true, ".": true, "find": true,
	"awk": true, "gawk": true, "sed": true, "perl": true, "ssh": true, "su": true, "script": true,
}

// exactOnly are programs whose every use deserves its own approval: a prefix rule on them is too broad to
// be "narrowest useful".
var exactOnly = map[string]bool{
	"rm": true, "rmdir": true, "mv": true, "cp": true, "chmod": true, "chown": true, "chgrp": true, "dd": true,
	"kill": true, "pkill": true, "killall": true, "curl": true, "wget": true, "scp": true, "rsync": true,
	"ln": true, "shred": true, "truncate": true, "tee": true, "crontab": true, "systemctl": true,
}

func init() {
	for _, n := range supplied.Interpreters {
		if !shell.HasSubcommands[n] {
			neverBare[n] = true
		}
	}
}

// runScripts are package managers whose `run NAME` names a script: the rule keeps the script name.
var runScripts = map[string]bool{"npm": true, "yarn": true, "pnpm": true, "bun": true}

// SuggestRule returns the narrowest useful rule that "always allow" would save for command: a word prefix
// such as `Bash(git push:*)` or `Bash(npm run test:*)`, the exact command for interpreters and wrappers,
// or a Read/Write rule for a file. It returns "" when nothing needs approval, when the parts that do would
// need different rules, or when no rule could safely express them (commands only known at run time,
// sudo, dangerous commands).
func SuggestRule(command string, ctx shell.Context) string {
	if ctx.Memory == nil {
		ctx.Memory = shell.NewMemory()
	}
	return suggestFor(Classify(command, ctx), ctx)
}

// suggestFor is SuggestRule for a command already classified.
func suggestFor(cls Classification, ctx shell.Context) string {
	if cls.Dangerous {
		return ""
	}
	suggestion := ""
	for i := range cls.Parts {
		p := &cls.Parts[i]
		if p.ReadOnly && !p.Secret {
			continue
		}
		r := suggestForPart(p, ctx)
		if p.OpenTail && !strings.HasSuffix(r, ":*)") {
			// Under xargs more arguments come at run time: an exact rule would never match again, and
			// would read as allowing far less than the command does.
			r = ""
		}
		if r == "" || suggestion != "" && r != suggestion {
			return ""
		}
		suggestion = r
	}
	return suggestion
}

func suggestForPart(p *shell.Part, ctx shell.Context) string {
	if p.ReadOnly && p.Secret {
		for _, path := range p.Reads {
			if ctx.Memory.IsSecret(path, ctx.Home) && filepath.IsAbs(path) {
				return suggestPathRule(Read, path, ctx.Workspace, ctx.Home)
			}
		}
		return ""
	}
	if p.EditOnly && len(p.RedirWrites) == len(p.Writes) && len(p.Writes) == 1 && filepath.IsAbs(p.Writes[0]) {
		// A read-only program writing one file through a redirection: allow that file.
		return suggestPathRule(Write, p.Writes[0], ctx.Workspace, ctx.Home)
	}
	if !p.Static || p.ActsItself || p.FromFind || p.Privileged || p.Secret || len(p.Args) == 0 || len(p.RedirWrites) > 0 ||
		p.RunsAs != "" {
		return ""
	}
	args := p.Args
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, "*()\n\t") {
			return ""
		}
	}
	name := filepath.Base(args[0])
	prefix := []string{args[0]}
	switch {
	case runScripts[name] && len(args) >= 3 && args[1] == "run" && !strings.HasPrefix(args[2], "-"):
		prefix = args[:3]
	case shell.HasSubcommands[name] || runScripts[name] || name == "make":
		if len(args) < 2 || strings.HasPrefix(args[1], "-") {
			return exactRule(args)
		}
		prefix = args[:2]
	case neverBare[name] || exactOnly[name] || strings.Contains(args[0], "/"):
		return exactRule(args)
	}
	for _, w := range prefix {
		if strings.ContainsAny(w, " :") {
			return exactRule(args)
		}
	}
	rule := "Bash(" + strings.Join(prefix, " ") + ":*)"
	r, err := ParseRule(rule)
	if err != nil {
		return ""
	}
	if _, ok := bashMatch([]Rule{r}, p, true); !ok {
		return ""
	}
	return rule
}

func exactRule(args []string) string {
	for _, a := range args {
		if strings.ContainsAny(a, " *()") || a == "" {
			return ""
		}
	}
	return "Bash(" + strings.Join(args, " ") + ")"
}

// suggestPathRule names one file in the rule syntax: `./x` in the workspace, `~/x` in home, `//x` elsewhere.
func suggestPathRule(k Kind, abs, workspace, home string) string {
	tool := map[Kind]string{Read: "Read", Edit: "Edit", Write: "Write"}[k]
	if tool == "" || strings.ContainsAny(abs, "*?[]{}()\\") {
		return ""
	}
	ws := ""
	if workspace != "" {
		ws = shell.ResolvePath("/", workspace, home)
	}
	switch {
	case ws != "" && shell.Within(ws, abs) && abs != ws:
		rel, _ := filepath.Rel(ws, abs)
		return tool + "(./" + filepath.ToSlash(rel) + ")"
	case home != "" && shell.Within(filepath.Clean(home), abs) && abs != filepath.Clean(home):
		rel, _ := filepath.Rel(filepath.Clean(home), abs)
		return tool + "(~/" + filepath.ToSlash(rel) + ")"
	}
	return tool + "(/" + abs + ")"
}
