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
		"nice":       peelGram("-n= --adjustment= --help --version", nil, 0, ""),
		"ionice":     peelGram("-c= --class= -n= --classdata= -t --ignore -p= --pid= -P= --pgid= -u= --uid= -h --help -V --version", nil, 0, "", "-p", "--pid", "-P", "--pgid", "-u", "--uid", "-h", "--help", "-V", "--version"),
		"nohup":      peelGram("--help --version", nil, 0, ""),
		"time":       peelGram("-f= --format= -p --portability -o= --output= -a --append -v --verbose -q --quiet -V --version --help", map[string]role{"-o": rWrite, "--output": rWrite}, 0, ""),
		"stdbuf":     peelGram("-i= --input= -o= --output= -e= --error= --help --version", nil, 0, ""),
		"setsid":     peelGram("-c --ctty -f --fork -w --wait -h --help -V --version", nil, 0, ""),
		"builtin":    peelGram("", nil, 0, ""),
		"exec":       peelGram("-a= -c -l", nil, 0, ""),
		"command":    peelCommand,
		"flock":      peelFlock,
		"watch":      peelWatch,
		"xargs":      peelXargs,
		"sudo":       peelSudo,
		"doas":       peelSudo,
		"nocache":    peelGram("-n=", nil, 0, ""),
		"chronic":    peelGram("-e -v", nil, 0, ""),
		"unbuffer":   peelGram("-p", nil, 0, ""),
		"caffeinate": peelGram("-d -i -m -s -u -t= -w=", nil, 0, ""),
		// Programs that run another program but do more than wait for it: the part is never read-only,
		// but peeling them lets deny rules see the inner command.
		"strace":   peelStrace,
		"ltrace":   peelOpts("eoOpsSuUaAnDlxLF", nil, "", nil, true),
		"valgrind": peelOpts("", nil, "", nil, true),
		"taskset":  peelTaskset,
		"chrt":     peelChrt,
		"prlimit":  peelOpts("p", nil, "", nil, true),
		"unshare": peelGram(`-m? --mount? -u? --uts? -i? --ipc? -n? --net? -p? --pid? -U? --user? -C? --cgroup? -T? --time? -f --fork
			--map-user= --map-group= -r --map-root-user -c --map-current-user --map-auto --map-users= --map-groups=
			--kill-child? --mount-proc? --propagation= --setgroups= --keep-caps -R= --root= -w= --wd= -S= --setuid= -G=
			--setgid= --monotonic= --boottime= -h --help -V --version`,
			map[string]role{"-w": rDir, "--wd": rDir, "-R": rUnseen, "--root": rUnseen}, 0, "runs a program in namespaces of its own"),
		"firejail":     peelOpts("", nil, "", nil, true),
		"systemd-run":  peelOpts("pEu", nil, "", nil, true),
		"torsocks":     peelOpts("", nil, "", nil, true),
		"proxychains":  peelOpts("f", nil, "", nil, true),
		"proxychains4": peelOpts("f", nil, "", nil, true),
		// Multi-call binaries run the applet named by their first argument: `busybox rm -rf x` is rm.
		"busybox": peelOpts("", nil, "", nil, true),
		"toybox":  peelOpts("", nil, "", nil, true),
		"script":  peelScript,
		"npx":     peelNpx,
		"ld.so":   peelLoader,
	}
}

// peelNpx: `npx [options] CMD ARGS` runs the project's node_modules/.bin/CMD, or a package of that name it
// downloads first, with ARGS: the command is judged as CMD, and rules for CMD alone do not allow it.
// -c runs a shell command.
func peelNpx(e *exec, words []word) []word {
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		v := w.Value
		if !w.Static {
			e.p.notRO("`npx` with an argument only known at run time")
			return nil
		}
		switch {
		case v == "--":
			i++
		case v == "--version" || v == "-v" || v == "--help" || v == "-h":
			return nil
		case v == "-y" || v == "--yes" || v == "--no" || v == "--no-install" || v == "-q" || v == "--quiet" ||
			v == "--ignore-existing" || v == "--prefer-offline" || v == "--prefer-online" || v == "--offline" ||
			v == "--workspaces" || v == "--include-workspace-root" || strings.HasPrefix(v, "--package=") ||
			strings.HasPrefix(v, "--registry=") || strings.HasPrefix(v, "--workspace="):
			continue
		case v == "-p" || v == "--package" || v == "-w" || v == "--workspace" || v == "--registry":
			i++
			continue
		case v == "-c" || v == "--call" || strings.HasPrefix(v, "--call="):
			why := "`npx -c` runs a shell command"
			e.p.notRO(why)
			e.p.unsee(unseenGivenCommand, why)
			body, has := strings.CutPrefix(v, "--call=")
			if !has && i+1 < len(words) && words[i+1].Static {
				body = words[i+1].Value
			}
			if body != "" {
				e.untrustedBody(body, why)
			}
			return nil
		case strings.HasPrefix(v, "-"):
			e.p.notRO(fmt.Sprintf("`npx %s` is an option Warden does not know", v))
			return nil
		}
		break
	}
	if i >= len(words) {
		return nil
	}
	e.p.effect("`npx` runs a package's program, which it may download first")
	e.p.actsItself = true
	return words[i:]
}

// peelOpts builds a wrapper with GNU-style options: value options take the next word (or the rest of the
// word), bad options make the part not read-only, and the first operand starts the inner command.
// notRO marks wrappers that always change something themselves.
func peelOpts(valueShort string, valueLong []string, badShort string, badLong []string, notRO bool) wrapper {
	return func(e *exec, words []word) []word {
		name := words[0].Value
		if notRO {
			e.p.notRO(fmt.Sprintf("`%s` runs a program under its control", name))
			e.p.actsItself = true
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
		case v == "-S" || v == "--split-string" || strings.HasPrefix(v, "--split-string=") || strings.HasPrefix(v, "-S"):
			e.splitString(words, i)
			return nil
		case strings.HasPrefix(v, "-"):
			// -P searches another PATH, and new options may do anything.
			e.p.unsee(unseenUnread, fmt.Sprintf("`env %s` is not checked", v))
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
			e.p.actsItself = true
			e.p.sensitiveAssign(name, reason)
		}
		if _, value, _ := strings.Cut(words[i].Value, "="); !words[i].Static || strings.ContainsRune(value, '[') {
			e.c.taint(fmt.Sprintf("`env` gives `%s` a value only known at run time", name))
		} else {
			// bash expands a tilde after the `=` of a word shaped like an assignment, argument or not.
			if h := e.c.ctx.Home; h != "" && (value == "~" || strings.HasPrefix(value, "~/")) {
				value = h + value[1:]
			}
			e.setEnv(name, value)
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
	e.dir = e.c.resolvedFrom(base, dir)
}

// peelTimeout skips timeout's options and its duration.
var peelTimeout = peelGram("--preserve-status --foreground -k= --kill-after= -s= --signal= -v --verbose --help --version",
	nil, 1, "")

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
				e.nested(words[i+1].Value, true)
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
				e.nested(rest[1].Value, true)
			}
			return nil
		}
		return rest
	}
	return nil
}

// watchLong are procps watch's long options; the value says whether one must follow.
var watchLong = map[string]bool{
	"beep": false, "color": false, "no-color": false, "differences": false, "errexit": false, "chgexit": false,
	"equexit": true, "exec": false, "help": false, "interval": true, "precise": false, "no-rerun": false,
	"no-title": false, "no-wrap": false, "shotsdir": true, "version": false,
}

// peelWatch: watch joins its arguments and runs them with `sh -c`, unless -x is given. Its options follow
// the getopt string "+bcCd::eghn:pq:rs:tvwx": -d takes an optional value glued to it, so -dx is -d with
// "x", not -x.
func peelWatch(e *exec, words []word) []word {
	i := 1
	direct := false
loop:
	for ; i < len(words); i++ {
		v := words[i].Value
		if !words[i].Static {
			e.p.notRO("`watch` with an argument only known at run time")
			return nil
		}
		switch {
		case v == "--":
			i++
			break loop
		case strings.HasPrefix(v, "--"):
			typed, _, hasValue := strings.Cut(v[2:], "=")
			name, ok := longOption(typed, watchLong)
			if !ok {
				e.p.notRO(fmt.Sprintf("`watch %s` is not checked", v))
				return nil
			}
			direct = direct || name == "exec"
			if watchLong[name] && !hasValue {
				i++
			}
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				switch ch := v[j]; {
				case ch == 'x':
					direct = true
				case ch == 'd':
					j = len(v)
				case ch == 'n' || ch == 'q' || ch == 's':
					if j == len(v)-1 {
						i++
					}
					j = len(v)
				case !strings.ContainsRune("bcCeghprtvw", rune(ch)):
					e.p.notRO(fmt.Sprintf("`watch -%c` is not checked", ch))
					return nil
				}
			}
		default:
			break loop
		}
	}
	if i >= len(words) {
		return nil
	}
	if direct {
		return words[i:]
	}
	for _, w := range words[i:] {
		if !w.Static {
			// The value joins the shell command: `watch echo "$x"` runs whatever x holds.
			e.p.notRO("`watch` runs a command only known at run time")
			return nil
		}
	}
	e.nested(strings.Join(values(words[i:]), " "), true)
	return nil
}

// xargsLong are GNU xargs's long options, mapped to the short option each stands for ("" when none).
var xargsLong = map[string]string{
	"null": "0", "arg-file": "a", "delimiter": "d", "eof": "e", "replace": "i", "max-lines": "l", "max-args": "n",
	"open-tty": "o", "interactive": "p", "no-run-if-empty": "r", "max-chars": "s", "verbose": "t", "exit": "x",
	"max-procs": "P", "process-slot-var": "", "show-limits": "", "version": "", "help": "",
}

// peelXargs: the inner command gets more arguments from stdin, which Warden cannot see; with -I they
// may land anywhere in its arguments. Options follow GNU xargs's getopt string "+0a:E:e::i::I:l::L:n:prs:txP:d:":
// letters cluster, and one that takes a value takes the rest of the word (or, if required, the next).
func peelXargs(e *exec, words []word) []word {
	i := 1
	replace := ""
	// opt applies one option; it returns false when the part cannot be read-only.
	opt := func(letter, value string) bool {
		switch letter {
		case "a":
			// The names come from the file, not from the pipe pipedNames looks at.
			e.c.read(e.p, value, e.scope())
			e.xargsFile = true
		case "0", "d":
			e.p.xargsRaw = true
		case "i", "I":
			replace = value
			if replace == "" {
				replace = "{}"
			}
		case "o", "p":
			e.p.notRO(fmt.Sprintf("`xargs -%s` reads from the terminal", letter))
			return false
		}
		return true
	}
	for ; i < len(words); i++ {
		w := words[i]
		v := w.Value
		if !w.Static {
			e.p.notRO("`xargs` with an argument only known at run time")
			return nil
		}
		if v == "--" {
			i++
			break
		}
		if strings.HasPrefix(v, "--") {
			typed, value, hasValue := strings.Cut(v[2:], "=")
			name, ok := longOption(typed, xargsLong)
			if !ok {
				e.p.notRO(fmt.Sprintf("`xargs %s` is not checked", v))
				return nil
			}
			needs := name == "arg-file" || name == "delimiter" || name == "max-args" || name == "max-chars" ||
				name == "max-procs" || name == "process-slot-var"
			if needs && !hasValue {
				i++
				if i >= len(words) {
					return nil
				}
				value = words[i].Value
			}
			if name == "process-slot-var" {
				// The variable is set to a number in each command's environment: LD_PRELOAD=0 loads ./0.
				if r := sensitiveVar(value); r != "" {
					e.p.notRO(r)
				}
				continue
			}
			if letter := xargsLong[name]; letter != "" && !opt(letter, value) {
				return nil
			}
			continue
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		for j := 1; j < len(v); j++ {
			letter := v[j : j+1]
			switch {
			case strings.Contains("0prtxo", letter):
				if !opt(letter, "") {
					return nil
				}
				continue
			case strings.Contains("eil", letter):
				// An optional value is only ever glued to the letter.
			case strings.Contains("aEILnsPd", letter):
				if j == len(v)-1 {
					i++
					if i >= len(words) {
						return nil
					}
					if !opt(letter, words[i].Value) {
						return nil
					}
					j = len(v)
					continue
				}
			default:
				e.p.notRO(fmt.Sprintf("`xargs -%s` is not checked", letter))
				return nil
			}
			if !opt(letter, v[j+1:]) {
				return nil
			}
			break
		}
	}
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

// longOption resolves a long option as typed to the one of names it stands for: the exact name, or the
// only name it abbreviates. ok is false for an unknown or ambiguous option.
func longOption[V any](typed string, names map[string]V) (string, bool) {
	if _, ok := names[typed]; ok {
		return typed, true
	}
	found := ""
	for n := range names {
		if typed != "" && strings.HasPrefix(n, typed) {
			if found != "" {
				return "", false
			}
			found = n
		}
	}
	return found, found != ""
}

// peelSudo: the inner command runs as another user. It is never read-only and never allowed by a rule
// for the inner command, but deny rules and the dangerous check see the inner command.
func peelSudo(e *exec, words []word) []word {
	name := words[0].Value
	e.p.Privileged = true
	e.p.actsItself = true
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
var peelTaskset = peelGram("-a --all-tasks -p --pid -c --cpu-list -h --help -V --version", nil, 1,
	"changes CPU affinity", "-p", "--pid", "-h", "--help", "-V", "--version")

// peelScript: `script -c CMD [FILE]` runs CMD with the shell and records the session in FILE
// (typescript by default). It always writes; the command is read for deny and ask rules.
func peelScript(e *exec, words []word) []word {
	e.p.notRO("`script` records the session to a file")
	e.p.actsItself = true
	g := gram(`-a --append -c= --command= -E= --echo= -e --return -f --flush -B= --log-io= -I= --log-in= -O= --log-out=
		-T= --log-timing= -m= --logging-format= -o= --output-limit= -q --quiet -t? --timing? -V --version -h --help`,
		map[string]role{"-c": rCommand, "--command": rCommand, "-B": rWrite, "--log-io": rWrite, "-I": rWrite,
			"--log-in": rWrite, "-O": rWrite, "--log-out": rWrite, "-T": rWrite, "--log-timing": rWrite})
	a, why := e.parseModel(g, words)
	if why != "" {
		e.p.notRO(why)
		return nil
	}
	if !a.has("-c", "--command") {
		// The shell it starts reads its commands from the input.
		why := "`script` starts a shell that runs the commands of its input"
		e.p.unsee(unseenStreamCode, why)
		if e.stdin != nil && e.stdin.Static {
			e.untrustedBody(e.stdin.Value, why)
		}
	}
	_ = e.each(rWrite, a.operands, "`script`")
	return nil
}
