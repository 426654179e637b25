package supplied

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// The go command picks its toolchain before anything else: GOTOOLCHAIN (the environment, then GOENV's
// file, then $GOROOT/go.env) set to `local` keeps the installed one; `auto` (the default of an official
// download) switches to the newer of go.work's or go.mod's `go` and `toolchain` lines, downloading it
// from the module proxy and running it. GOFLAGS, from the same places, adds flags to every command that
// takes them: -mod=mod lets go list rewrite go.mod and go.sum, -modfile reads another, -toolexec runs a
// program, -overlay replaces files.

// goSettings are the go command's settings from its files and the environment: each value with where it
// came from.
type goSettings struct {
	toolchain, toolchainFrom string
	flags, flagsFrom         string
	goroot                   string
}

func readGoSettings(e *shell.Exec) goSettings {
	var s goSettings
	set := func(key, value, from string) {
		switch key {
		case "GOTOOLCHAIN":
			if s.toolchainFrom == "" {
				s.toolchain, s.toolchainFrom = value, from
			}
		case "GOFLAGS":
			if s.flagsFrom == "" && value != "" {
				s.flags, s.flagsFrom = value, from
			}
		}
	}
	for _, k := range []string{"GOTOOLCHAIN", "GOFLAGS"} {
		if v, ok := e.S.LookupEnv(k); ok {
			set(k, v, k+" in the environment")
		}
	}
	envFile := ""
	if v, ok := e.S.LookupEnv("GOENV"); ok {
		if v != "off" {
			envFile = v
		}
	} else if x, ok := e.S.LookupEnv("XDG_CONFIG_HOME"); ok && x != "" {
		envFile = filepath.Join(x, "go", "env")
	} else if e.S.Ctx.Home != "" {
		envFile = filepath.Join(e.S.Ctx.Home, ".config", "go", "env")
	}
	goroot, _ := e.S.LookupEnv("GOROOT")
	if goroot == "" {
		if p := resolveProgram(e, "go"); p != "" {
			goroot = filepath.Dir(filepath.Dir(p))
		}
	}
	s.goroot = goroot
	for _, f := range []string{envFile, filepath.Join(goroot, "go.env")} {
		if f == "" || goroot == "" && f == "go.env" {
			continue
		}
		text, _, _ := ReadSmall(f)
		for _, line := range strings.Split(text, "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
				set(k, strings.Trim(v, `"'`), "`"+e.S.Shown(f)+"`")
			}
		}
	}
	return s
}

// goRiskyFlags are GOFLAGS entries that make a read-only go command write, run or read elsewhere.
var goRiskyFlags = []string{"-mod=mod", "-modfile", "-toolexec", "-overlay", "-exec", "-pgo", "-C"}

// checkGoToolchain judges a go command with the toolchain it would switch to and the flags GOFLAGS adds.
func checkGoToolchain(e *shell.Exec, a *shell.Args) string {
	if len(a.Words) < 2 {
		return ""
	}
	sub := a.Words[1].Value
	s := readGoSettings(e)
	if sub != "version" && sub != "env" && sub != "help" {
		for _, f := range strings.Fields(s.flags) {
			name, _, _ := strings.Cut(strings.TrimPrefix(f, "-"), "=")
			for _, r := range goRiskyFlags {
				rn, rv, _ := strings.Cut(strings.TrimPrefix(r, "-"), "=")
				if name == rn && (rv == "" || strings.HasSuffix(f, "="+rv)) {
					return fmt.Sprintf("GOFLAGS from %s adds `%s` to `go %s`", s.flagsFrom, f, sub)
				}
			}
		}
	}
	mode := s.toolchain
	if mode == "" {
		mode = "auto" // what go assumes without a go.env
	}
	if mode == "local" || !strings.Contains(mode, "auto") && !strings.Contains(mode, "path") {
		return ""
	}
	dir := e.Scope().Cwd
	if dir == "" {
		return fmt.Sprintf("`go %s` runs in a directory Warden lost track of, whose go.mod may switch toolchains", sub)
	}
	file := ""
	if v, ok := e.S.LookupEnv("GOWORK"); ok && v != "" {
		if v != "off" {
			file = v
		}
	} else {
		file = FindUp(dir, "go.work")
	}
	if file == "" {
		file = FindUp(dir, "go.mod")
	}
	if file == "" {
		return ""
	}
	text, _, err := ReadSmall(file)
	if err != nil {
		return fmt.Sprintf("`%s` cannot be read, so which Go toolchain `go %s` runs is unknown", e.S.Shown(file), sub)
	}
	local := ""
	if v, _, _ := ReadSmall(filepath.Join(s.goroot, "VERSION")); v != "" {
		local = strings.TrimPrefix(strings.TrimSpace(strings.SplitN(v, "\n", 2)[0]), "go")
	}
	for _, line := range strings.Split(text, "\n") {
		fields := strings.Fields(strings.TrimSpace(strings.SplitN(line, "//", 2)[0]))
		if len(fields) != 2 || fields[0] != "go" && fields[0] != "toolchain" {
			continue
		}
		want := strings.TrimPrefix(fields[1], "go")
		if fields[0] == "toolchain" && (want == "default" || want == "local") {
			continue
		}
		if local == "" || goVersionLess(local, want) {
			return fmt.Sprintf("`%s` asks for Go %s (`%s`), newer than the installed toolchain: with GOTOOLCHAIN=%s, `go %s` downloads and runs it",
				e.S.Shown(file), want, strings.Join(fields, " "), mode, sub)
		}
	}
	return ""
}

// goVersionLess orders Go versions as the go command does: a language version (1.21) comes before its
// release candidates (1.21rc1), which come before its releases (1.21.0, 1.21.1).
func goVersionLess(a, b string) bool {
	pa, pb := parseGoVersion(a), parseGoVersion(b)
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return false
}

// parseGoVersion returns major, minor, kind (0 language version, 1 beta, 2 rc, 3 release) and the
// number that goes with the kind.
func parseGoVersion(v string) [4]int {
	var out [4]int
	major, rest, _ := strings.Cut(v, ".")
	out[0], _ = strconv.Atoi(major)
	minor := rest
	for i, c := range rest {
		if c < '0' || c > '9' {
			minor = rest[:i]
			rest = rest[i:]
			break
		}
		if i == len(rest)-1 {
			rest = ""
		}
	}
	out[1], _ = strconv.Atoi(minor)
	switch {
	case rest == "":
		out[2] = 0
	case strings.HasPrefix(rest, "beta"):
		out[2] = 1
		out[3], _ = strconv.Atoi(strings.TrimPrefix(rest, "beta"))
	case strings.HasPrefix(rest, "rc"):
		out[2] = 2
		out[3], _ = strconv.Atoi(strings.TrimPrefix(rest, "rc"))
	case strings.HasPrefix(rest, "."):
		out[2] = 3
		out[3], _ = strconv.Atoi(strings.TrimPrefix(rest, "."))
	}
	return out
}
