package permissions

// Deny and ask rules match the command, not its spelling: `Bash(rm -rf:*)` stops `rm -fr x`,
// `rm -r -f x`, `rm --recursive --force -- x` and `rm -Rfv x`; `Bash(git push:*)` stops `git -C . push`,
// `git -c k=v push` and `git-push`. A rule and a command are both read as a program, its options (short
// ones unclustered, long ones mapped to their short twins for the programs Warden models) and its other
// words in order; the rule matches when the programs are the same, every option of the rule is among the
// command's, and its other words begin the command's (all of them, for an exact rule). This reading is
// used only to deny or ask, never to allow: an allow rule still needs the words as written.

import (
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/permissions/programs"
)

// shape is a command or a rule read for matching.
type shape struct {
	prog  string
	flags map[string]bool
	words []string
	// ok is false when the rule cannot be read this way (a wildcard in its program).
	ok bool
}

// clusteringPrograms take short options the getopt way, so that `-rf` is `-r -f`. Elsewhere a word
// like `-name` is one option.
var clusteringPrograms = map[string]bool{
	"rm": true, "cp": true, "mv": true, "ln": true, "chmod": true, "chown": true, "chgrp": true, "mkdir": true,
	"rmdir": true, "git": true, "curl": true, "wget": true, "tar": true, "sed": true, "grep": true, "ls": true,
	"kill": true, "pkill": true, "killall": true, "shred": true, "truncate": true, "dd": false, "npm": true,
	"docker": true, "ssh": true, "scp": true, "rsync": true, "touch": true, "tee": true, "xargs": true,
	"unlink": true, "install": true, "cargo": true, "pip": true, "pip3": true, "apt": true, "apt-get": true,
	"systemctl": true, "kubectl": true, "gh": true, "brew": true, "chattr": true, "crontab": true,
}

// longTwins map long options to the short option they stand for, per program (and per git subcommand,
// as "git push"). "R" is rm's and cp's other spelling of -r.
var longTwins = map[string]map[string]string{
	"rm":           {"recursive": "r", "force": "f", "dir": "d", "verbose": "v", "interactive": "i", "R": "r"},
	"cp":           {"recursive": "r", "force": "f", "archive": "a", "verbose": "v", "R": "r"},
	"mv":           {"force": "f", "verbose": "v", "interactive": "i"},
	"ln":           {"force": "f", "symbolic": "s"},
	"chmod":        {"recursive": "R"},
	"chown":        {"recursive": "R"},
	"chgrp":        {"recursive": "R"},
	"mkdir":        {"parents": "p"},
	"shred":        {"force": "f", "remove": "u", "zero": "z"},
	"curl":         {"output": "o", "request": "X", "data": "d", "insecure": "k", "location": "L", "silent": "s", "upload-file": "T", "remote-name": "O"},
	"wget":         {"output-document": "O", "quiet": "q"},
	"sed":          {"in-place": "i", "expression": "e"},
	"tar":          {"extract": "x", "create": "c", "file": "f", "gzip": "z", "verbose": "v"},
	"npm":          {"global": "g", "force": "f", "save-dev": "D"},
	"kill":         {"signal": "s"},
	"git push":     {"force": "f", "delete": "d", "set-upstream": "u", "verbose": "v", "quiet": "q", "dry-run": "n"},
	"git clean":    {"force": "f", "dry-run": "n", "quiet": "q"},
	"git commit":   {"all": "a", "message": "m", "no-verify": "n", "quiet": "q"},
	"git add":      {"all": "A", "force": "f", "update": "u"},
	"git checkout": {"force": "f", "quiet": "q"},
	"git branch":   {"delete": "d", "force": "f", "move": "m", "copy": "c"},
	"git reset":    {"quiet": "q"},
	"git stash":    {"quiet": "q"},
	"head":         {"bytes": "c", "lines": "n", "quiet": "q", "silent": "q", "verbose": "v"},
	"tail":         {"bytes": "c", "lines": "n", "follow": "f", "quiet": "q", "silent": "q", "verbose": "v"},
	"grep": {"recursive": "r", "dereference-recursive": "R", "ignore-case": "i", "files-with-matches": "l",
		"files-without-match": "L", "count": "c", "invert-match": "v", "word-regexp": "w", "line-number": "n",
		"extended-regexp": "E", "fixed-strings": "F", "regexp": "e", "file": "f", "only-matching": "o",
		"no-filename": "h", "with-filename": "H", "text": "a"},
	"ls":         {"all": "a", "almost-all": "A", "recursive": "R", "human-readable": "h", "directory": "d"},
	"cat":        {"show-all": "A", "number": "n", "show-ends": "E", "show-tabs": "T", "show-nonprinting": "v"},
	"wc":         {"lines": "l", "words": "w", "bytes": "c", "chars": "m"},
	"du":         {"summarize": "s", "human-readable": "h", "all": "a", "max-depth": "d"},
	"sort":       {"reverse": "r", "numeric-sort": "n", "unique": "u", "key": "k", "output": "o"},
	"cut":        {"fields": "f", "delimiter": "d", "bytes": "b", "characters": "c"},
	"diff":       {"recursive": "r", "unified": "u", "brief": "q", "new-file": "N"},
	"docker rm":  {"force": "f", "volumes": "v"},
	"docker rmi": {"force": "f"},
}

// shortImplies are short options that stand for several: git branch -D is -d --force, -M is -m --force.
var shortImplies = map[string]map[string][]string{
	"git branch": {"D": {"d", "f"}, "M": {"m", "f"}, "C": {"c", "f"}},
	"rm":         {"R": {"r"}},
	"cp":         {"R": {"r"}},
}

// gitGlobalValues are git's global options that take the next word.
var gitGlobalValues = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true,
	"--exec-path": false, "--config-env": true, "--super-prefix": true, "--list-cmds": true, "--attr-source": true}

// readShape reads args for matching. The program is its base name; `git-push` is `git push`, and so are
// git's other spellings of a push (gitPushSpelling); git's global options before the subcommand are
// left out.
func readShape(args []string) shape {
	s := shape{flags: map[string]bool{}, ok: true}
	if len(args) == 0 {
		s.ok = false
		return s
	}
	prog := filepath.Base(args[0])
	rest := args[1:]
	if sub, ok := strings.CutPrefix(prog, "git-"); ok && sub != "" && !strings.Contains(sub, "*") {
		prog, rest = "git", append([]string{sub}, rest...)
	}
	if strings.Contains(prog, "*") {
		s.ok = false
		return s
	}
	s.prog = prog
	if prog == "git" {
		i := 0
		for i < len(rest) && strings.HasPrefix(rest[i], "-") {
			name, _, hasValue := strings.Cut(rest[i], "=")
			if takes := gitGlobalValues[name]; takes && !hasValue {
				i++ // its value
			}
			i++
		}
		rest = rest[min(i, len(rest)):]
	}
	if prog == "git" && len(rest) > 0 {
		rest = append([]string{gitPushSpelling(rest[0])}, rest[1:]...)
	}
	key := prog
	if len(rest) > 0 && (prog == "git" || prog == "docker") && !strings.HasPrefix(rest[0], "-") {
		key = prog + " " + rest[0]
	}
	twins := longTwins[key]
	implies := shortImplies[key]
	cluster := clusteringPrograms[prog]
	// A program of the read-only table is read as Warden reads it to judge it: short options cluster,
	// and one that takes a value takes the rest of its word or the next word (`head -c5`, `-c 5`).
	var sp *programs.Spec
	if t := programs.Lookup(prog); t != nil && t.Plain() {
		sp, cluster = t, true
	}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			s.words = append(s.words, rest[i+1:]...)
			return s
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, value, hasValue := strings.Cut(a[2:], "=")
			if !hasValue && sp != nil && longTakesValue(sp, twins, name) && i+1 < len(rest) {
				i++
				value, hasValue = rest[i], true
			}
			for _, n := range longNames(twins, name) {
				if hasValue {
					s.flags[n+"="+value] = true
				}
				s.flags[n] = true
			}
		case strings.HasPrefix(a, "-") && len(a) > 1 && !isNumber(a[1:]):
			if !cluster || strings.ContainsAny(a, "=*") && sp == nil {
				s.flags[a[1:]] = true
				continue
			}
			for j, ch := range a[1:] {
				f := string(ch)
				if more, ok := implies[f]; ok {
					for _, m := range more {
						s.flags[m] = true
					}
				}
				if t, ok := twins[f]; ok {
					f = t
				}
				s.flags[f] = true
				if sp != nil && sp.ShortTakesValue(ch) {
					value := a[2+j:]
					if value == "" && i+1 < len(rest) {
						i++
						value = rest[i]
					}
					if value != "" {
						s.flags[f+"="+value] = true
					}
					break
				}
			}
		default:
			s.words = append(s.words, a)
		}
	}
	return s
}

// longTakesValue reports whether a long option, as typed, takes the next word as its value: the table
// says so, or its short twin takes one.
func longTakesValue(sp *programs.Spec, twins map[string]string, name string) bool {
	if sp.LongTakesValue(name) {
		return true
	}
	for _, n := range longNames(twins, name) {
		if len(n) == 1 && sp.ShortTakesValue(rune(n[0])) {
			return true
		}
	}
	return false
}

// longNames are the names a long option stands for when matching: its short twin, or, typed
// abbreviated, the twin of every long name it may abbreviate, as GNU getopt and git accept.
func longNames(twins map[string]string, name string) []string {
	if t, ok := twins[name]; ok {
		return []string{t}
	}
	out := []string{name}
	for long, t := range twins {
		if len(name) > 1 && strings.HasPrefix(long, name) {
			out = append(out, t)
		}
	}
	return out
}

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// matchShape reports whether the rule, read as a shape, matches the command's: same program, every
// option of the rule among the command's, the rule's words beginning the command's (all of them for an
// exact rule), a word with `*` matching any run of characters.
func (r *Rule) matchShape(args []string) bool {
	if r.shape == nil || !r.shape.ok {
		return false
	}
	c := readShape(args)
	if !c.ok || c.prog != r.shape.prog {
		return false
	}
	for f := range r.shape.flags {
		if !c.flags[f] {
			return false
		}
	}
	if len(c.words) < len(r.shape.words) || !r.prefix && len(c.words) != len(r.shape.words) {
		return false
	}
	for i, w := range r.shape.words {
		if !wildcard(w, c.words[i]) {
			return false
		}
	}
	return true
}

// gitPushSpelling returns push for git's other commands that push: send-pack, which git push runs, and
// http-push. A rule for either is read as one for git push, and the other way round.
func gitPushSpelling(sub string) string {
	switch sub {
	case "send-pack", "http-push":
		return "push"
	}
	return sub
}
