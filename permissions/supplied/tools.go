package supplied

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// The checks of the survey (survey.go) for programs with one configuration file or two.

// RgConfigArgs returns the arguments of ripgrep's configuration file (RIPGREP_CONFIG_PATH: one argument
// per line, `#` comments), which rg puts before its own unless --no-config is given.
func RgConfigArgs(e *shell.Exec, words []shell.Word) ([]string, string) {
	path, ok := e.S.LookupEnv("RIPGREP_CONFIG_PATH")
	if !ok || path == "" {
		return nil, ""
	}
	for _, w := range words[1:] {
		if w.Value == "--no-config" {
			return nil, ""
		}
		if w.Value == "--" {
			break
		}
	}
	text, found, err := ReadSmall(path)
	if !found {
		return nil, ""
	}
	if err != nil {
		return []string{"--pre=?"}, path
	}
	var args []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		args = append(args, line)
	}
	return args, path
}

// CheckRgConfig judges the arguments ripgrep's configuration file adds: --pre and --hostname-bin run
// programs. The ones that widen what is read (--hidden, --no-ignore...) are joined to the command's
// own words before they are read (exec.check).
func CheckRgConfig(e *shell.Exec, words []shell.Word) string {
	args, path := RgConfigArgs(e, words)
	for _, arg := range args {
		name, _, _ := strings.Cut(arg, "=")
		if name == "--pre" || name == "--hostname-bin" {
			return fmt.Sprintf("RIPGREP_CONFIG_PATH's `%s` gives `rg` `%s`, which runs a program", e.S.Shown(path), name)
		}
	}
	return ""
}

// checkCompose judges docker compose's listing subcommands with the project files compose reads: the
// .env beside the compose file may set DOCKER_HOST, DOCKER_CONTEXT or COMPOSE_* (another daemon, over
// ssh with the person's keys; other compose files), and compose files may include remote ones, which
// compose fetches with git.
func checkCompose(e *shell.Exec, a *shell.Args) string {
	if len(a.Words) < 2 || a.Words[1].Value != "compose" {
		return ""
	}
	dir := e.Scope().Cwd
	if dir == "" {
		return "`docker compose` runs in a directory Warden lost track of"
	}
	if env := FindUp(dir, ".env"); env != "" && filepath.Dir(env) == dir {
		text, _, err := ReadSmall(env)
		if err != nil {
			return fmt.Sprintf("`%s` cannot be read, and `docker compose` takes settings from it", e.S.Shown(env))
		}
		for _, line := range strings.Split(text, "\n") {
			k, _, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "export ")), "=")
			if ok && (strings.HasPrefix(k, "DOCKER_") || strings.HasPrefix(k, "COMPOSE_")) {
				return fmt.Sprintf("`%s` sets `%s`, which points `docker compose` at other files or another daemon", e.S.Shown(env), k)
			}
		}
	}
	for _, name := range []string{"compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"} {
		f := filepath.Join(dir, name)
		text, found, err := ReadSmall(f)
		if !found {
			continue
		}
		if err != nil {
			return fmt.Sprintf("`%s` cannot be read", e.S.Shown(f))
		}
		if composeRemote.MatchString(text) {
			return fmt.Sprintf("`%s` includes a remote file, which `docker compose` fetches", e.S.Shown(f))
		}
	}
	return ""
}

var composeRemote = regexp.MustCompile(`(?m)(git@|https?://|oci://|ssh://)`)

// checkPipConfig judges pip: one found on PATH inside the workspace is asked about by PathProgram; here
// `pip config list` and `debug` print configuration, which may hold an index URL with credentials.
func checkPipConfig(e *shell.Exec, a *shell.Args) string {
	if len(a.Operands) == 0 || a.Operands[0].Value != "config" && a.Operands[0].Value != "debug" {
		return ""
	}
	files := []string{"/etc/pip.conf", "/etc/xdg/pip/pip.conf", filepath.Join(e.S.Ctx.Home, ".config", "pip", "pip.conf"),
		filepath.Join(e.S.Ctx.Home, ".pip", "pip.conf")}
	for _, v := range []string{"PIP_CONFIG_FILE", "VIRTUAL_ENV"} {
		if p, ok := e.S.LookupEnv(v); ok && p != "" {
			if v == "VIRTUAL_ENV" {
				p = filepath.Join(p, "pip.conf")
			}
			files = append(files, p)
		}
	}
	for _, f := range files {
		text, _, _ := ReadSmall(f)
		if urlWithCredentials.MatchString(text) {
			e.S.Read(e.P, f, e.Scope())
			if e.P.Secret {
				e.P.Reason = fmt.Sprintf("`%s` prints `%s`, which holds a URL with credentials", shell.Display(a.Words), e.S.Shown(f))
			}
		}
	}
	return ""
}

var urlWithCredentials = regexp.MustCompile(`(?i)://[^/@\s:]*:[^/@\s]+@|https?://[^/@\s:]+@`)

// checkMavenDir judges mvn: the nearest .mvn directory above gives the JVM its options (jvm.config),
// Maven its own (maven.config) and core extensions (extensions.xml), all applied before -v prints.
func checkMavenDir(e *shell.Exec, a *shell.Args) string {
	dir := e.Scope().Cwd
	if dir == "" {
		return "`mvn` runs in a directory Warden lost track of"
	}
	mvn := FindUp(dir, ".mvn")
	if mvn == "" {
		return ""
	}
	for _, f := range []string{"jvm.config", "maven.config", "extensions.xml"} {
		p := filepath.Join(mvn, f)
		if text, found, _ := ReadSmall(p); found && strings.TrimSpace(text) != "" {
			return Supplies(e, fmt.Sprintf("`%s` configures the Maven that `mvn` starts, which may load code from the project", e.S.Shown(p)), p)
		}
	}
	return ""
}

// checkGlobalJSON judges dotnet: global.json's sdk.paths may point at an SDK inside the project.
func checkGlobalJSON(e *shell.Exec, a *shell.Args) string {
	f := FindUp(e.Scope().Cwd, "global.json")
	if f == "" {
		return ""
	}
	text, _, err := ReadSmall(f)
	if err != nil || strings.Contains(text, `"paths"`) {
		return Supplies(e, fmt.Sprintf("`%s` may point `dotnet` at an SDK inside the project (sdk.paths)", e.S.Shown(f)), f)
	}
	return ""
}

// checkBundler judges bundle: Gemfile.lock's BUNDLED WITH makes bundler install and run that version.
func checkBundler(e *shell.Exec, a *shell.Args) string {
	f := FindUp(e.Scope().Cwd, "Gemfile.lock")
	if f == "" {
		return ""
	}
	if text, _, err := ReadSmall(f); err != nil || strings.Contains(text, "BUNDLED WITH") {
		return fmt.Sprintf("`%s` names a Bundler version, which `bundle` may install and run", e.S.Shown(f))
	}
	return ""
}
