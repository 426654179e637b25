package permissions

import (
	"fmt"
	"strings"
)

// Wrappers read by their whole option grammar (model.go): an option a wrapper does not have, or one
// Warden does not know, leaves what it runs unknown, so the part is not modelled and asks while deny
// or ask rules are in force. A wrapper that acts on its own (strace, chrt, unshare) is never read-only,
// and never modelled, but what it runs is what deny rules see.

// peelGram builds a wrapper from the grammar of its options (gram's spec, with roles for their values):
// the options come first; skip operands follow (timeout's duration); then the command. acts names what
// the wrapper does itself, for one that acts; others lists options that make it act on something other
// than a command (ionice -p), which leaves no command to peel.
func peelGram(spec string, roles map[string]role, skip int, acts string, others ...string) wrapper {
	g := gram(spec, roles).with(func(g *grammar) { g.permute = false })
	return func(e *exec, words []word) []word {
		name := words[0].Value
		if acts != "" {
			e.p.notRO(fmt.Sprintf("`%s` %s", name, acts))
			e.p.actsItself = true
		}
		a, why := e.parseModel(g, words)
		if why != "" {
			e.p.notRO(why)
			return nil
		}
		if a.has(others...) {
			e.p.notRO(fmt.Sprintf("`%s` acts on something else than a command it runs", name))
			return nil
		}
		if len(a.operands) <= skip {
			return nil
		}
		return words[a.at[skip]:]
	}
}

// peelChrt: `chrt [options] [PRIORITY] COMMAND`: the priority, a number, may be left out for the
// policies that have none; -p changes another process, -m only prints.
func peelChrt(e *exec, words []word) []word {
	g := gram(`-b --batch -d --deadline -f --fifo -i --idle -o --other -r --rr -R --reset-on-fork -T= --sched-runtime=
		-P= --sched-period= -D= --sched-deadline= -a --all-tasks -m --max -p --pid -v --verbose -h --help -V --version`, nil).
		with(func(g *grammar) { g.permute = false })
	e.p.notRO("`chrt` runs a program under a scheduling policy")
	e.p.actsItself = true
	a, why := e.parseModel(g, words)
	if why != "" {
		e.p.notRO(why)
		return nil
	}
	if a.has("-p", "--pid", "-m", "--max", "-h", "--help", "-V", "--version") || len(a.operands) == 0 {
		return nil
	}
	i := 0
	if w := a.operands[0]; w.Static && strings.Trim(w.Value, "0123456789") == "" {
		i = 1
	} else if !w.Static {
		e.p.unsee(unseenProgram, "`chrt` is given a word only known at run time, so what it runs is unknown")
		return nil
	}
	if i >= len(a.operands) {
		return nil
	}
	return words[a.at[i]:]
}

// peelStrace: strace runs its command under trace and writes the trace where -o says, which may be a
// command it pipes to (`-o '|cmd'`); -p attaches to other processes; -E sets the command's environment.
func peelStrace(e *exec, words []word) []word {
	inner := peelGram(`-A -C -c -d -D -f -F -h -i -k -n -q -r -t -T -v -V -w -x -y -Y -z -Z -a= -b= -e= -E= -I= -o= -O=
		-p= -P= -s= -S= -U= -u= -X= --output= --output-append-mode --output-separately --summary-only --summary
		--summary-wall-clock --summary-columns= --summary-sort-by= --follow-forks --absolute-timestamps?
		--relative-timestamps? --syscall-times? --instruction-pointer --stack-trace? --string-limit= --attach= --user=
		--env= --trace= --trace-path= --signal= --status= --quiet? --decode-fds? --decode-pids? --seccomp-bpf --kill-on-exit
		--daemonize? --columns= --no-abbrev --verbose= --raw= --read= --write= --inject= --fault= --successful-only
		--failed-only --const-print-style= --timestamps? --tips? --help --version`,
		map[string]role{"-o": rWrite, "--output": rWrite, "-E": rUnseen, "--env": rUnseen, "-u": rUnseen, "--user": rUnseen},
		0, "runs a program under its control", "-p", "--attach")(e, words)
	for i, w := range words[1:] {
		v := w.Value
		out := ""
		switch {
		case v == "-o" || v == "--output":
			if i+2 < len(words) {
				out = words[i+2].Value
			}
		case strings.HasPrefix(v, "-o"):
			out = v[2:]
		case strings.HasPrefix(v, "--output="):
			out = strings.TrimPrefix(v, "--output=")
		}
		if strings.HasPrefix(out, "|") || strings.HasPrefix(out, "!") {
			why := "`strace -o` pipes the trace to a command"
			e.p.unsee(unseenGivenCommand, why)
			e.untrustedBody(out[1:], why)
		}
		if len(inner) > 0 && &words[i+1] == &inner[0] {
			break
		}
	}
	return inner
}

// peelLoader: the dynamic loader (ld.so, /lib64/ld-linux-x86-64.so.2) runs the program it is given, with
// libraries it may preload or audit: code Warden does not follow.
var peelLoader = peelGram(`--list --verify --inhibit-cache --library-path= --glibc-hwcaps-prepend= --glibc-hwcaps-mask=
	--inhibit-rpath= --audit= --preload= --argv0= --list-tunables --list-diagnostics --help --version`,
	map[string]role{"--audit": rUnseen, "--preload": rUnseen, "--library-path": rUnseen}, 0,
	"loads and runs a program itself", "--list-tunables", "--list-diagnostics", "--help", "--version")

// isLoader reports whether a program's name is the dynamic loader's.
func isLoader(name string) bool {
	return name == "ld.so" || strings.HasPrefix(name, "ld-linux") && strings.Contains(name, ".so")
}
