package supplied

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/permissions/gitargs"
	"github.com/warden-cli/warden/permissions/shell"
)

// npm reads its configuration from the project's .npmrc (and, here, every .npmrc above it), the user's
// (NPM_CONFIG_USERCONFIG or ~/.npmrc), the global one ($PREFIX/etc/npmrc) and the one built into npm,
// then npm_config_* variables. The keys that name programs the read-only subcommands run: `git` (for a
// git dependency or spec: view, info, outdated, ls, explain, why), `viewer` and `browser` (help).
// userconfig and globalconfig point at more files, which are read too.

// npmRunKeys are the keys naming programs, with the subcommands that run them ("" for any).
var npmRunKeys = map[string][]string{
	"git":     {"view", "info", "show", "v", "outdated", "ls", "list", "ll", "la", "explain", "why"},
	"viewer":  {"help"},
	"browser": {"help"},
	// Removed from current npm, but older ones run it on every command.
	"onload-script": {""},
}

// checkNpmrc judges an npm call with the configuration files npm reads where it runs.
func checkNpmrc(e *shell.Exec, a *shell.Args) string {
	if len(a.Words) < 2 {
		return ""
	}
	sub := a.Words[1].Value
	dir := e.Scope().Cwd
	if dir == "" {
		return "`npm` runs in a directory Warden lost track of, whose .npmrc it cannot read"
	}
	runs := func(key string) bool {
		for _, s := range npmRunKeys[key] {
			if s == "" || s == sub {
				return true
			}
		}
		return false
	}
	for _, env := range []string{"npm_config_", "NPM_CONFIG_"} {
		for key := range npmRunKeys {
			name := env + strings.ReplaceAll(key, "-", "_")
			if env == "NPM_CONFIG_" {
				name = strings.ToUpper(name)
			}
			if v, ok := e.S.LookupEnv(name); ok && v != "" && runs(key) {
				return fmt.Sprintf("%s in the environment sets npm's `%s`, which runs a program on `npm %s`", name, key, sub)
			}
		}
	}
	files := AllUp(dir, ".npmrc")
	user := filepath.Join(e.S.Ctx.Home, ".npmrc")
	if v, ok := e.S.LookupEnv("NPM_CONFIG_USERCONFIG"); ok && v != "" {
		user = v
	} else if v, ok := e.S.LookupEnv("npm_config_userconfig"); ok && v != "" {
		user = v
	}
	files = append(files, user, "/usr/etc/npmrc", "/usr/local/etc/npmrc", "/etc/npmrc",
		"/usr/lib/node_modules/npm/npmrc", "/usr/local/lib/node_modules/npm/npmrc", "/usr/share/nodejs/npm/npmrc")
	seen := map[string]bool{}
	for i := 0; i < len(files) && i < 64; i++ {
		f := files[i]
		if seen[f] {
			continue
		}
		seen[f] = true
		text, ok, err := ReadSmall(f)
		if !ok {
			continue
		}
		if err != nil {
			return Supplies(e, fmt.Sprintf("`%s` cannot be read, so what `npm %s` runs is unknown", e.S.Shown(f), sub), f)
		}
		for _, line := range strings.Split(text, "\n") {
			key, value, ok := strings.Cut(strings.TrimSpace(line), "=")
			if !ok || strings.HasPrefix(key, ";") || strings.HasPrefix(key, "#") {
				continue
			}
			key = strings.TrimSpace(strings.Trim(strings.TrimSpace(key), `"'`))
			value = strings.TrimSpace(strings.Trim(strings.TrimSpace(value), `"'`))
			switch {
			case runs(key) && value != "":
				return Supplies(e, fmt.Sprintf("`%s` sets npm's `%s`, which runs a program on `npm %s`", e.S.Shown(f), key, sub), f)
			case (key == "userconfig" || key == "globalconfig") && value != "":
				if !filepath.IsAbs(value) {
					value = filepath.Join(filepath.Dir(f), value)
				}
				files = append(files, shell.ResolvePath("/", value, e.S.Ctx.Home))
			}
		}
	}
	return ""
}

// packageJSON is the nearest package.json's fields a package manager acts on by itself.
type packageJSON struct {
	PackageManager string          `json:"packageManager"`
	Volta          json.RawMessage `json:"volta"`
}

func nearestPackageJSON(dir string) (string, packageJSON, bool) {
	var pj packageJSON
	p := FindUp(dir, "package.json")
	if p == "" {
		return "", pj, false
	}
	text, _, err := ReadSmall(p)
	if err != nil || json.Unmarshal([]byte(text), &pj) != nil {
		return p, pj, false
	}
	return p, pj, true
}

// checkPackageManager judges `yarn --version` and `pnpm --version`: the global yarn runs the project's
// own copy named by .yarnrc's yarn-path or .yarnrc.yml's yarnPath, and corepack (and pnpm itself)
// download and run the version package.json's packageManager names.
func checkPackageManager(name string) func(*shell.Exec, *shell.Args) string {
	return func(e *shell.Exec, a *shell.Args) string {
		dir := e.Scope().Cwd
		if dir == "" {
			return fmt.Sprintf("`%s` runs in a directory Warden lost track of", name)
		}
		if name == "yarn" {
			for _, f := range AllUp(dir, ".yarnrc", ".yarnrc.yml") {
				text, _, err := ReadSmall(f)
				if err != nil || strings.Contains(text, "yarn-path") || strings.Contains(text, "yarnPath") {
					return Supplies(e, fmt.Sprintf("`%s` names the project's own yarn (yarnPath), which `yarn` would run", e.S.Shown(f)), f)
				}
			}
		}
		p, pj, ok := nearestPackageJSON(dir)
		if p != "" && !ok {
			return fmt.Sprintf("`%s` cannot be read, so what `%s` runs is unknown", e.S.Shown(p), name)
		}
		if pj.PackageManager != "" {
			return fmt.Sprintf("`%s` names the package manager `%s`, which `%s` may download and run", e.S.Shown(p), pj.PackageManager, name)
		}
		return ""
	}
}

// checkShim judges a program PATH resolves to a version manager's shim that installs what the project
// names: volta (package.json's volta field) and mise or asdf (.tool-versions, .mise.toml, mise.toml).
func checkShim(e *shell.Exec, a *shell.Args) string {
	prog := resolveProgram(e, a.Name)
	if prog == "" {
		return ""
	}
	dir := e.Scope().Cwd
	switch {
	case strings.Contains(prog, "/.volta/"):
		if p, pj, ok := nearestPackageJSON(dir); p != "" && (!ok || len(pj.Volta) > 0) {
			return fmt.Sprintf("`%s` is volta's shim, which downloads the version `%s` names", a.Name, e.S.Shown(p))
		}
	case strings.Contains(prog, "/mise/") || strings.Contains(prog, "/.asdf/") || strings.Contains(prog, "/asdf/"):
		if f := FindUp(dir, ".tool-versions", ".mise.toml", "mise.toml", ".mise/config.toml"); f != "" {
			return fmt.Sprintf("`%s` is a version manager's shim, which may install what `%s` names", a.Name, e.S.Shown(f))
		}
	}
	return ""
}

// checkGhRepo judges gh with the repository's git configuration: gh runs git there (rev-parse, remote,
// config, status for some views).
func checkGhRepo(e *shell.Exec, a *shell.Args) string {
	name := "gh " + strings.Join(shell.Values(a.Operands[:min(2, len(a.Operands))]), " ")
	return GitRuns(e, gitargs.Facets{Name: name, Sub: "rev-parse", Index: true}, e.Scope().Cwd)
}
