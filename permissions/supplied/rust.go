package supplied

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// rustup's proxies (rustc, cargo, rustup itself for --version and show) pick a toolchain: `+name` on the
// command line, RUSTUP_TOOLCHAIN, a directory override in RUSTUP_HOME/settings.toml, the nearest
// rust-toolchain or rust-toolchain.toml up the tree, then the default. A toolchain file's `path` runs the
// binaries of that directory; a channel, component or target not installed is downloaded and installed.

// CheckRustToolchain judges rustc, cargo and rustup with the toolchain file that applies where they run.
func CheckRustToolchain(e *shell.Exec, a *shell.Args) string {
	dir := e.Scope().Cwd
	if dir == "" {
		return fmt.Sprintf("`%s` runs in a directory Warden lost track of, whose rust-toolchain file it cannot read", a.Name)
	}
	if v, ok := e.S.LookupEnv("RUSTUP_TOOLCHAIN"); ok && v != "" {
		return "" // the environment's choice wins over any file
	}
	if p := resolveProgram(e, a.Name); p != "" && filepath.Base(p) != "rustup" && filepath.Base(p) != "rustup-init" {
		return "" // not rustup's proxy: toolchain files mean nothing to it
	}
	home := rustupHome(e)
	if rustupOverride(home, dir) {
		return ""
	}
	file := FindUp(dir, "rust-toolchain", "rust-toolchain.toml")
	if file == "" {
		return ""
	}
	text, _, err := ReadSmall(file)
	if err != nil {
		return Supplies(e, fmt.Sprintf("`%s` cannot be read, so what toolchain `%s` runs is unknown", e.S.Shown(file), a.Name), file)
	}
	shown := e.S.Shown(file)
	tc := parseToolchainFile(text)
	switch {
	case tc.unreadable:
		return Supplies(e, fmt.Sprintf("`%s` is not a toolchain file Warden can read, so what `%s` runs is unknown", shown, a.Name), file)
	case tc.path != "":
		return Supplies(e, fmt.Sprintf("`%s` names a toolchain `path` (`%s`), whose binaries `%s` would run", shown, tc.path, a.Name), file)
	case tc.channel == "":
		return ""
	}
	installed := rustupInstalled(home, tc.channel)
	if installed == "" {
		return fmt.Sprintf("`%s` names the toolchain `%s`, which is not installed: `%s` would download and install it", shown, tc.channel, a.Name)
	}
	for _, c := range tc.components {
		if !rustupHasComponent(installed, c) {
			return fmt.Sprintf("`%s` asks for the component `%s`, which is not installed: `%s` would download it", shown, c, a.Name)
		}
	}
	for _, t := range tc.targets {
		if fi, err := os.Stat(filepath.Join(installed, "lib", "rustlib", t)); err != nil || !fi.IsDir() {
			return fmt.Sprintf("`%s` asks for the target `%s`, which is not installed: `%s` would download it", shown, t, a.Name)
		}
	}
	return ""
}

func rustupHome(e *shell.Exec) string {
	if v, ok := e.S.LookupEnv("RUSTUP_HOME"); ok && v != "" {
		return v
	}
	return filepath.Join(e.S.Ctx.Home, ".rustup")
}

var rustupOverrideLine = regexp.MustCompile(`^\s*"((?:[^"\\]|\\.)*)"\s*=`)

// rustupOverride reports whether settings.toml has a directory override for dir or a directory above
// it, which wins over toolchain files.
func rustupOverride(home, dir string) bool {
	text, _, _ := ReadSmall(filepath.Join(home, "settings.toml"))
	in := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			in = t == "[overrides]"
			continue
		}
		if !in {
			continue
		}
		if m := rustupOverrideLine.FindStringSubmatch(t); m != nil {
			p := strings.ReplaceAll(m[1], `\\`, `\`)
			if shell.Within(filepath.Clean(p), dir) {
				return true
			}
		}
	}
	return false
}

// toolchainFile is what a rust-toolchain file asks for.
type toolchainFile struct {
	channel, path       string
	components, targets []string
	unreadable          bool
}

var (
	tomlString = `"((?:[^"\\]|\\.)*)"|'([^']*)'`
	tomlKey    = regexp.MustCompile(`(?m)^\s*"?(channel|path|components|targets|profile)"?\s*=\s*(.*)$`)
	tomlStr    = regexp.MustCompile(tomlString)
)

// parseToolchainFile reads a rust-toolchain file: the legacy form is a toolchain name alone; the TOML
// form has a [toolchain] table with channel, path, components, targets and profile. What it cannot read
// is unreadable, which asks.
func parseToolchainFile(text string) toolchainFile {
	var tc toolchainFile
	t := strings.TrimSpace(text)
	if t != "" && !strings.ContainsAny(t, "=[\n") {
		tc.channel = t
		return tc
	}
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "[") {
			if l != "[toolchain]" {
				tc.unreadable = true
			}
			continue
		}
	}
	// Arrays may span lines: join the file's lines so that a key's value runs to its closing bracket.
	flat := regexp.MustCompile(`\[\s*\n`).ReplaceAllString(text, "[")
	flat = regexp.MustCompile(`,\s*\n\s*`).ReplaceAllString(flat, ", ")
	flat = regexp.MustCompile(`\n\s*\]`).ReplaceAllString(flat, "]")
	for _, m := range tomlKey.FindAllStringSubmatch(flat, -1) {
		key, value := m[1], strings.TrimSpace(m[2])
		if i := strings.Index(value, " #"); i >= 0 && !strings.HasPrefix(value, "[") {
			value = strings.TrimSpace(value[:i])
		}
		var strs []string
		for _, s := range tomlStr.FindAllStringSubmatch(value, -1) {
			strs = append(strs, s[1]+s[2])
		}
		switch key {
		case "channel":
			if len(strs) != 1 {
				tc.unreadable = true
			} else {
				tc.channel = strs[0]
			}
		case "path":
			tc.path = value
			if len(strs) == 1 {
				tc.path = strs[0]
			}
		case "components":
			tc.components = strs
		case "targets":
			tc.targets = strs
		}
	}
	// A key this reading did not see (a dotted or inline-table form) would be missed: look for the
	// words themselves.
	if strings.Contains(text, "path") && tc.path == "" {
		tc.unreadable = true
	}
	return tc
}

// rustupInstalled returns the directory of the installed toolchain a channel names: the directory of
// that name, or of that name followed by a host triple. "" when none is installed.
func rustupInstalled(home, channel string) string {
	dir := filepath.Join(home, "toolchains")
	if fi, err := os.Stat(filepath.Join(dir, channel)); err == nil && fi.IsDir() {
		return filepath.Join(dir, channel)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, en := range entries {
		rest, ok := strings.CutPrefix(en.Name(), channel+"-")
		if ok && strings.Count(rest, "-") >= 2 && !strings.ContainsAny(rest[:1], "0123456789") {
			return filepath.Join(dir, en.Name())
		}
	}
	return ""
}

// rustupHasComponent reports whether the toolchain lists the component as installed
// (lib/rustlib/components holds "NAME-TRIPLE" or "NAME-preview-TRIPLE" lines, or the bare name).
func rustupHasComponent(toolchain, component string) bool {
	text, _, _ := ReadSmall(filepath.Join(toolchain, "lib", "rustlib", "components"))
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == component || strings.HasPrefix(line, component+"-") {
			return true
		}
	}
	return false
}
