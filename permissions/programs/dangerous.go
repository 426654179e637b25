package programs

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// The dangerous list is short on purpose: it is for commands whose mistake cannot be undone and would
// take the machine or the person's home with it. Everything else is the ordinary ask/allow business.

// systemRoots are directories whose recursive removal or permission change breaks the machine.
var systemRoots = map[string]bool{
	"/": true, "/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true,
	"/lib64": true, "/opt": true, "/proc": true, "/root": true, "/sbin": true, "/sys": true, "/usr": true,
	"/var": true, "/Users": true, "/System": true, "/Library": true, "/Applications": true, "/srv": true,
	"/usr/bin": true, "/usr/lib": true, "/usr/local": true, "/var/lib": true,
}

// catastrophicTarget reports whether removing or re-permissioning w recursively is catastrophic: /, a
// system root, the home directory, the workspace root or one of their ancestors, or a path built from a
// variable that may be empty ("$DIR/" becomes "/").
func catastrophicTarget(e *shell.Exec, w shell.Word) bool {
	if !w.Static {
		if w.Param != "" && (w.ParamTail == "/" || w.ParamTail == "/*" || w.ParamTail == "") &&
			(w.Param == "HOME" || w.ParamTail != "") {
			return true
		}
		return w.Param == "HOME"
	}
	v := w.Value
	if v == "" {
		return false
	}
	home := e.S.Ctx.Home
	if v == "~" || v == "~/" || v == "~/*" {
		return true
	}
	if w.Glob && strings.HasSuffix(v, "*") {
		// rm -rf /* or * empties the directory the pattern is in.
		v = strings.TrimSuffix(v, "*")
		if v == "" {
			v = "."
		}
	}
	abs := e.S.Abs(v, e.Scope())
	if !filepath.IsAbs(abs) {
		return false
	}
	if systemRoots[abs] || home != "" && (abs == filepath.Clean(home) || shell.Within(abs, filepath.Clean(home))) {
		return true
	}
	if ws := e.S.Ctx.Workspace; ws != "" && shell.Within(abs, filepath.Clean(ws)) {
		return true
	}
	return false
}

// Dangerous flags the catastrophic commands. It looks at every wrapper layer, so `sudo rm -rf /` counts.
func Dangerous(e *shell.Exec, name string, words []shell.Word) {
	flag := func(what string) {
		e.P.Dangerous = true
		if e.P.ReadOnly || !strings.Contains(e.P.Reason, "catastroph") {
			e.P.NotRO(fmt.Sprintf("`%s` %s", shell.Display(words), what))
		}
	}
	args := words[1:]
	hasShort := func(letters string) bool {
		for _, w := range args {
			v := w.Value
			if v == "--" {
				return false
			}
			if len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[1:], letters) {
				return true
			}
		}
		return false
	}
	hasLong := func(names ...string) bool {
		for _, w := range args {
			for _, n := range names {
				if w.Value == n {
					return true
				}
			}
		}
		return false
	}
	switch name {
	case "rm":
		recursive := hasShort("rR") || hasLong("--recursive")
		if hasLong("--no-preserve-root") {
			flag("removes everything from the root (catastrophic)")
			return
		}
		if !recursive {
			return
		}
		for _, w := range args {
			if strings.HasPrefix(w.Value, "-") && w.Static {
				continue
			}
			if catastrophicTarget(e, w) {
				flag(fmt.Sprintf("removes `%s` recursively (catastrophic)", shownWord(w)))
				return
			}
		}
	case "chmod", "chown", "chgrp":
		if !hasShort("R") && !hasLong("--recursive") {
			return
		}
		for _, w := range args {
			if !strings.HasPrefix(w.Value, "-") && catastrophicTarget(e, w) {
				flag(fmt.Sprintf("changes `%s` recursively (catastrophic)", w.Value))
				return
			}
		}
	case "dd":
		for _, w := range args {
			if strings.HasPrefix(w.Value, "of=") && shell.IsBlockDevice(strings.TrimPrefix(w.Value, "of=")) {
				flag("writes a disk device (catastrophic)")
				return
			}
		}
	case "shred", "wipefs", "fdisk", "sfdisk", "cfdisk", "parted", "sgdisk", "gdisk", "blkdiscard", "badblocks", "cryptsetup":
		for _, w := range args {
			if shell.IsBlockDevice(w.Value) {
				flag("rewrites a disk device (catastrophic)")
				return
			}
		}
	case "mv":
		for _, w := range args[:max(0, len(args)-1)] {
			if !strings.HasPrefix(w.Value, "-") && catastrophicTarget(e, w) {
				flag(fmt.Sprintf("moves `%s` away (catastrophic)", w.Value))
				return
			}
		}
	case "find":
		// Only -delete as an action, not as the value of a test (`-name -delete`), and only when no test
		// narrows what it deletes, wipes a tree.
		i := 0
		for i < len(args) && (args[i].Value == "-H" || args[i].Value == "-L" || args[i].Value == "-P") {
			i++
		}
		var roots []shell.Word
		for ; i < len(args); i++ {
			if strings.HasPrefix(args[i].Value, "-") || args[i].Value == "(" || args[i].Value == "!" {
				break
			}
			roots = append(roots, args[i])
		}
		expr := args[i:]
		deletes := false
		for j := 0; j < len(expr); j++ {
			v := expr[j].Value
			if n := findValues[v]; n > 0 {
				j += n
				continue
			}
			deletes = deletes || v == "-delete"
		}
		if !deletes || findNarrowed(expr) {
			return
		}
		for _, w := range roots {
			if catastrophicTarget(e, w) {
				flag(fmt.Sprintf("deletes everything under `%s` (catastrophic)", w.Value))
				return
			}
		}
	default:
		if strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "mkswap" || name == "newfs" {
			flag("creates a file system, erasing what was there (catastrophic)")
		}
	}
}

// shownWord is a word as the person typed it, as far as that is known: `~` stays `~`.
func shownWord(w shell.Word) string {
	if w.Raw != "" {
		return w.Raw
	}
	return w.Value
}
