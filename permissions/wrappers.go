package permissions

import (
	"fmt"
	"strings"
)

// A wrapper runs another program given in its arguments. It returns the inner command's words, or nil
// when there is none (the wrapper alone, like `env` or `nice`, is then judged on its own). A wrapper that
// cannot be seen through marks the part not read-only and returns nil.
type wrapper func(e *exec, words []word) []word

var wrappers map[string]wrapper

func init() {
	wrappers = map[string]wrapper{
		"env":        peelEnv,
		"timeout":    peelTimeout,
		"nice":       peelOpts("n", []string{"adjustment"}, "", nil, false),
		"ionice":     peelOpts("cnt", []string{"class", "classdata"}, "pPu", []string{"pid", "pgid", "uid"}, false),
		"nohup":      peelOpts("", nil, "", nil, false),
		"time":       peelOpts("fo", []string{"format", "output"}, "oa", []string{"output", "append"}, false),
		"stdbuf":     peelOpts("ioe", []string{"input", "output", "error"}, "", nil, false),
		"setsid":     peelOpts("", nil, "", nil, false),
		"builtin":    peelOpts("", nil, "", nil, false),
		"exec":       peelOpts("a", nil, "c", nil, false),
		"command":    peelCommand,
		"flock":      peelFlock,
		"watch":      peelWatch,
		"xargs":      peelXargs,
		"sudo":       peelSudo,
		"doas":       peelSudo,
		"nocache":    peelOpts("", nil, "", nil, false),
		"chronic":    peelOpts("", nil, "", nil, false),
		"unbuffer":   peelOpts("", nil, "", nil, false),
		"caffeinate": peelOpts("t", nil, "", nil, false),
		// Programs that run another program but do more than wait for it: the part is never read-only,
		// but peeling them lets deny rules see the inner command.
		"strace":       peelOpts("eoOpsSuUPEIXb", nil, "", nil, true),
		"ltrace":       peelOpts("eoOpsSuUaAnDlxLF", nil, "", nil, true),
		"valgrind":     peelOpts("", nil, "", nil, true),
		"taskset":      peelTaskset,
		"chrt":         peelOpts("", nil, "", nil, true),
		"prlimit":      peelOpts("p", nil, "", nil, true),
		"unshare":      peelOpts("S", nil, "", nil, true),
		"firejail":     peelOpts("", nil, "", nil, true),
		"systemd-run":  peelOpts("pEu", nil, "", nil, true),
		"torsocks":     peelOpts("", nil, "", nil, true),
		"proxychains":  peelOpts("f", nil, "", nil, true),
		"proxychains4": peelOpts("f", nil, "", nil, true),
	}
}

// peelOpts builds a wrapper with GNU-style options: value options take the next word (or the rest of the
// word), bad options make the part not read-only, and the first operand starts the inner command.
// notRO marks wrappers that always change something themselves.
func peelOpts(valueShort string, valueLong []string, badShort string, badLong []string, notRO bool) wrapper {
	return func(e *exec, words []word) []word {
		name := words[0].Value
		if notRO {
			e.p.notRO(fmt.Sprintf("`%s` runs a program under its control", name))
			e.p.opaque = true
		}
		i := 1
		for ; i < len(words); i++ {
			w := words[i]
			v := w.Value
			if !w.Static {
				e.p.notRO(fmt.Sprintf("`%s` with an argument only known at run time", name))
				return nil
			}
			if v == "--" {
				i++
				break
			}
			if name == "nice" && len(v) > 1 && v[0] == '-' && (v[1] >= '0' && v[1] <= '9' || v[1] == '-') {
				continue // nice -10 cmd
			}
			if strings.HasPrefix(v, "--") {
				long, _, hasValue := strings.Cut(v[2:], "=")
				if matchesLong(long, badLong) {
					e.p.notRO(fmt.Sprintf("`%s %s` is not read-only", name, v))
				}
				if !hasValue && matchesLong(long, valueLong) {
					i++
				}
				continue
			}
			if len(v) > 1 && v[0] == '-' {
				for j := 1; j < len(v); j++ {
					if strings.IndexByte(badShort, v[j]) >= 0 {
						e.p.notRO(fmt.Sprintf("`%s -%c` is not read-only", name, v[j]))
					}
					if strings.IndexByte(valueShort, v[j]) >= 0 {
						if j == len(v)-1 {
							i++
						}
						break
					}
				}
				continue
			}
			break
		}
		if i >= len(words) {
			if name == "nohup" || name == "builtin" || name == "setsid" || name == "time" {
				return nil
			}
			return words[:0]
		}
		return words[i:]
	}
}

// matchesLong reports whether a long option, as typed, is one of names: GNU getopt accepts any
// unambiguous prefix, so `--out` is `--output`.
func matchesLong(typed string, names []string) bool {
	if typed == "" {
		return false
	}
	for _, n := range names {
		if strings.HasPrefix(n, typed) {
			return true
		}
	}
	return false
}

// peelEnv handles env's options and NAME=VALUE assignments. `env` alone prints the environment.
func peelEnv(e *exec, words []word) []word {
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		v := w.Value
		if !w.Static {
			e.p.notRO("`env` with an argument only known at run time")
			return nil
		}
		switch {
		case v == "--":
			i++
			return envAssigns(e, words, i)
		case v == "-i" || v == "--ignore-environment" || v == "-0" || v == "--null" || v == "-v" || v == "--debug":
		case v == "-u" || v == "--unset":
			i++
		case strings.HasPrefix(v, "--unset=") || strings.HasPrefix(v, "-u") && len(v) > 2:
		case v == "-C" || v == "--chdir":
			i++
			if i >= len(words) || !words[i].Static {
				e.p.notRO("`env -C` with a directory only known at run time")
				return nil
			}
			e.chdir(words[i].Value)
		case strings.HasPrefix(v, "--chdir="):
			e.chdir(strings.TrimPrefix(v, "--chdir="))
		case strings.HasPrefix(v, "-"):
			// -S splits a string into more arguments, -P searches another PATH, and new options may do
			// anything.
			e.p.notRO(fmt.Sprintf("`env %s` is not checked", v))
			return nil
		default:
			return envAssigns(e, words, i)
		}
	}
	return nil
}

func envAssigns(e *exec, words []word, i int) []word {
	for ; i < len(words); i++ {
		name, _, ok := strings.Cut(words[i].Value, "=")
		if !ok || name == "" || strings.ContainsAny(name, "/ ") {
			break
		}
		if reason := sensitiveVar(name); reason != "" {
			e.p.notRO(reason)
			e.p.opaque = true
		}
		if _, value, _ := strings.Cut(words[i].Value, "="); !words[i].Static || strings.ContainsRune(value, '[') {
			e.c.taint(fmt.Sprintf("`env` gives `%s` a value only known at run time", name))
		}
	}
	if i >= len(words) {
		return nil
	}
	return words[i:]
}

// chdir records a directory change made by a wrapper (env -C, git -C) for the paths of the inner command.
func (e *exec) chdir(dir string) {
	base := e.scope().cwd
	if base == "" && !strings.HasPrefix(dir, "/") {
		e.dir = ""
		e.p.notRO(fmt.Sprintf("changes to `%s` from a directory Warden lost track of", dir))
		return
	}
	e.dir = ResolvePath(base, dir, e.c.ctx.Home)
}

// peelTimeout skips timeout's options and its duration.
func peelTimeout(e *exec, words []word) []word {
	i := 1
	for ; i < len(words); i++ {
		v := words[i].Value
		if !words[i].Static {
			e.p.notRO("`timeout` with an argument only known at run time")
			return nil
		}
		switch {
		case v == "-s" || v == "-k" || v == "--signal" || v == "--kill-after":
			i++
			continue
		case strings.HasPrefix(v, "-") && len(v) > 1:
			continue
		}
		break
	}
	// words[i] is the duration.
	i++
	if i >= len(words) {
		return nil
	}
	return words[i:]
}

// peelCommand: `command -v x` only looks a name up; `command x` runs x bypassing functions.
func peelCommand(e *exec, words []word) []word {
	i := 1
	for ; i < len(words); i++ {
		v := words[i].Value
		if v == "-v" || v == "-V" {
			return nil
		}
		if v == "-p" || v == "--" {
			continue
		}
		break
	}
	if i >= len(words) {
		return nil
	}
	return words[i:]
}

// peelFlock: `flock FILE CMD` creates FILE if missing, so it is a write; `flock -c STRING` runs a shell.
func peelFlock(e *exec, words []word) []word {
	i := 1
	for ; i < len(words); i++ {
		v := words[i].Value
		if v == "-c" || v == "--command" {
			if i+2 < len(words) || i+1 >= len(words) {
				break
			}
			e.p.notRO("`flock` takes a lock file")
			if words[i+1].Static {
				e.nested(words[i+1].Value)
			}
			return nil
		}
		if v == "-w" || v == "--timeout" || v == "-E" || v == "--conflict-exit-code" {
			i++
			continue
		}
		if strings.HasPrefix(v, "-") {
			continue
		}
		break
	}
	e.p.notRO("`flock` takes a lock file")
	if i+1 < len(words) {
		rest := words[i+1:]
		if len(rest) >= 2 && (rest[0].Value == "-c" || rest[0].Value == "--command") {
			if rest[1].Static {
				e.nested(rest[1].Value)
			}
			return nil
		}
		return rest
	}
	return nil
}

// peelWatch: watch joins its arguments and runs them with `sh -c`, unless -x is given.
func peelWatch(e *exec, words []word) []word {
	i := 1
	direct := false
	for ; i < len(words); i++ {
		v := words[i].Value
		if v == "-n" || v == "--interval" || v == "-q" || v == "--equexit" {
			i++
			continue
		}
		if v == "-x" || v == "--exec" {
			direct = true
			continue
		}
		if strings.HasPrefix(v, "-") {
			if strings.ContainsRune(v, 'x') && !strings.HasPrefix(v, "--") {
				direct = true
			}
			continue
		}
		break
	}
	if i >= len(words) {
		return nil
	}
	if direct {
		return words[i:]
	}
	for _, w := range words[i:] {
		if !w.Static {
			e.p.notRO("`watch` runs a command only known at run time")
			return nil
		}
	}
	e.nested(strings.Join(values(words[i:]), " "))
	return nil
}

// peelXargs: the inner command gets more arguments from stdin, which Warden cannot see; with -I they
// may land anywhere in its arguments.
func peelXargs(e *exec, words []word) []word {
	i := 1
	replace := ""
	for ; i < len(words); i++ {
		w := words[i]
		v := w.Value
		if !w.Static {
			e.p.notRO("`xargs` with an argument only known at run time")
			return nil
		}
		switch {
		case v == "--":
			i++
			goto done
		case v == "-I" || v == "--replace":
			if i+1 < len(words) {
				replace = words[i+1].Value
			}
			i++
		case strings.HasPrefix(v, "-I"):
			replace = v[2:]
		case v == "-i" || strings.HasPrefix(v, "--replace="):
			replace = "{}"
			if strings.HasPrefix(v, "--replace=") {
				replace = strings.TrimPrefix(v, "--replace=")
			}
		case strings.HasPrefix(v, "-i"):
			replace = v[2:]
		case v == "-a" || v == "--arg-file":
			i++
			if i < len(words) {
				e.c.read(e.p, words[i].Value, e.scope())
			}
		case strings.HasPrefix(v, "--arg-file="):
			e.c.read(e.p, strings.TrimPrefix(v, "--arg-file="), e.scope())
		case strings.HasPrefix(v, "-a"):
			e.c.read(e.p, v[2:], e.scope())
		case strings.HasPrefix(v, "--") && matchesLong(strings.SplitN(v[2:], "=", 2)[0], []string{"process-slot-var"}):
			// The variable is set to a number in each command's environment: LD_PRELOAD=0 loads ./0.
			name, ok := strings.CutPrefix(v[strings.IndexByte(v+"=", '='):], "=")
			if !ok {
				i++
				if i < len(words) {
					name = words[i].Value
				}
			}
			if r := sensitiveVar(name); r != "" {
				e.p.notRO(r)
			}
		case v == "-d" || v == "-E" || v == "-L" || v == "-n" || v == "-P" || v == "-s" || v == "--delimiter" ||
			v == "--max-args" || v == "--max-procs" || v == "--max-chars" || v == "--max-lines":
			i++
		case v == "-p" || v == "--interactive" || v == "-o" || v == "--open-tty":
			e.p.notRO(fmt.Sprintf("`xargs %s` reads from the terminal", v))
		case strings.HasPrefix(v, "-"):
		default:
			goto done
		}
	}
done:
	if i >= len(words) {
		return nil // xargs alone runs echo.
	}
	inner := append([]word(nil), words[i:]...)
	e.unknownTail = true
	if replace != "" {
		for j := range inner {
			if strings.Contains(inner[j].Value, replace) {
				inner[j].Static = false
			}
		}
	}
	return inner
}

// peelSudo: the inner command runs as another user. It is never read-only and never allowed by a rule
// for the inner command, but deny rules and the dangerous check see the inner command.
func peelSudo(e *exec, words []word) []word {
	name := words[0].Value
	e.p.Privileged = true
	e.p.opaque = true
	e.p.notRO(fmt.Sprintf("`%s` runs a command as another user", name))
	i := 1
	for ; i < len(words); i++ {
		v := words[i].Value
		if v == "--" {
			i++
			break
		}
		if strings.HasPrefix(v, "--") {
			if !strings.Contains(v, "=") && matchesLong(strings.TrimPrefix(v, "--"), []string{"user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "other-user", "command-timeout", "chroot", "login-class"}) {
				i++
			}
			continue
		}
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			last := v[len(v)-1]
			if strings.IndexByte("ugCDhprtTUc", last) >= 0 && !(name == "doas" && last == 'n') {
				i++
			}
			continue
		}
		if strings.Contains(v, "=") && !strings.HasPrefix(v, "=") {
			continue // sudo VAR=value cmd
		}
		break
	}
	if i >= len(words) {
		return nil
	}
	return words[i:]
}

// peelTaskset: `taskset MASK cmd` or `taskset -c LIST cmd`; `-p` changes another process.
func peelTaskset(e *exec, words []word) []word {
	e.p.notRO("`taskset` changes CPU affinity")
	e.p.opaque = true
	i := 1
	for ; i < len(words) && strings.HasPrefix(words[i].Value, "-"); i++ {
		if strings.Contains(words[i].Value, "p") {
			return nil
		}
	}
	i++ // the mask or CPU list
	if i >= len(words) {
		return nil
	}
	return words[i:]
}
