package supplied

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/warden-cli/warden/permissions/shell"
	"github.com/warden-cli/warden/safefile"
)

// trusted is, for one program, what it loads and how a call is judged with it.
type trusted struct {
	// loads says what the program reads from the working tree, its parents and the environment that
	// could change what it runs, writes or reaches, and why that is or is not a risk.
	loads string
	// check returns why this call may run a program, write or reach the network because of those
	// files, or "".
	check func(e *shell.Exec, a *shell.Args) string
}

const (
	loadsNothing = "nothing that runs, writes or connects: its options and operands are all it acts on"
	loadsBuiltin = "a shell builtin: nothing beyond the shell's own state"
	loadsWriter  = "n/a: it writes, so it is never read-only"
)

var trust map[string]trusted

func init() {
	trust = map[string]trusted{
		"echo": {loads: loadsBuiltin}, ":": {loads: loadsBuiltin}, "true": {loads: loadsBuiltin}, "false": {loads: loadsBuiltin},
		"printf": {loads: loadsBuiltin}, "test": {loads: loadsBuiltin}, "[": {loads: loadsBuiltin}, "times": {loads: loadsBuiltin},
		"type": {loads: loadsBuiltin}, "help": {loads: loadsBuiltin}, "dirs": {loads: loadsBuiltin}, "jobs": {loads: loadsBuiltin},
		"wait": {loads: loadsBuiltin}, "exit": {loads: loadsBuiltin}, "return": {loads: loadsBuiltin}, "break": {loads: loadsBuiltin},
		"continue": {loads: loadsBuiltin}, "shift": {loads: loadsBuiltin}, "hash": {loads: loadsBuiltin}, "umask": {loads: loadsBuiltin},
		"set": {loads: loadsBuiltin}, "shopt": {loads: loadsBuiltin}, "unset": {loads: loadsBuiltin}, "read": {loads: loadsBuiltin},
		"alias": {loads: loadsBuiltin}, "cd": {loads: loadsBuiltin + " (CDPATH is never passed to commands)"},
		"pushd": {loads: loadsBuiltin}, "popd": {loads: loadsBuiltin},
		"expr": {loads: loadsNothing}, "sleep": {loads: loadsNothing}, "seq": {loads: loadsNothing}, "yes": {loads: loadsNothing},
		"factor": {loads: loadsNothing}, "basename": {loads: loadsNothing}, "dirname": {loads: loadsNothing}, "pwd": {loads: loadsBuiltin},
		"whoami": {loads: "the name service switch (/etc/nsswitch.conf), the system's"}, "id": {loads: "the name service switch, the system's"},
		"groups": {loads: "the name service switch, the system's"}, "uname": {loads: loadsNothing}, "nproc": {loads: loadsNothing},
		"uptime": {loads: loadsNothing}, "tty": {loads: loadsNothing}, "arch": {loads: loadsNothing},
		"locale": {loads: "locale files (LOCPATH, which a command may not set)"}, "logname": {loads: loadsNothing},
		"users": {loads: loadsNothing}, "who": {loads: loadsNothing}, "w": {loads: loadsNothing}, "printenv": {loads: "the environment, from which Warden removed secrets"},
		"getconf": {loads: loadsNothing}, "which": {loads: "PATH"}, "whereis": {loads: loadsNothing}, "hostname": {loads: loadsNothing},
		"date": {loads: "TZ's zone file; it prints nothing of it"}, "free": {loads: loadsNothing}, "df": {loads: loadsNothing},
		"ps": {loads: "PS_FORMAT (a command may not set it)"}, "pgrep": {loads: loadsNothing}, "lsof": {loads: loadsNothing},
		"vmstat": {loads: loadsNothing}, "ls": {loads: "LS_COLORS, which only colours"}, "dir": {loads: loadsNothing},
		"du": {loads: loadsNothing}, "stat": {loads: loadsNothing}, "realpath": {loads: loadsNothing}, "readlink": {loads: loadsNothing},
		"tree":   {loads: ".gitignore with --gitignore, which only hides names"},
		"file":   {loads: "magic files (~/.magic.mgc, MAGIC), which describe formats and run nothing"},
		"md5sum": {loads: loadsNothing}, "sha1sum": {loads: loadsNothing}, "sha224sum": {loads: loadsNothing},
		"sha256sum": {loads: loadsNothing}, "sha384sum": {loads: loadsNothing}, "sha512sum": {loads: loadsNothing},
		"b2sum": {loads: loadsNothing}, "cksum": {loads: loadsNothing}, "sum": {loads: loadsNothing}, "shasum": {loads: "perl's own modules"},
		"cat": {loads: loadsNothing}, "tac": {loads: loadsNothing}, "nl": {loads: loadsNothing}, "rev": {loads: loadsNothing},
		"strings": {loads: "@FILE arguments, read as a file"}, "od": {loads: loadsNothing}, "hexdump": {loads: loadsNothing},
		"wc": {loads: loadsNothing}, "fold": {loads: loadsNothing}, "fmt": {loads: loadsNothing}, "expand": {loads: loadsNothing},
		"unexpand": {loads: loadsNothing}, "cmp": {loads: loadsNothing}, "comm": {loads: loadsNothing}, "diff": {loads: loadsNothing},
		"head": {loads: loadsNothing}, "tail": {loads: loadsNothing}, "cut": {loads: loadsNothing}, "paste": {loads: loadsNothing},
		"join": {loads: loadsNothing}, "column": {loads: loadsNothing}, "base64": {loads: loadsNothing}, "base32": {loads: loadsNothing},
		"xxd": {loads: loadsNothing}, "tr": {loads: loadsNothing},
		"grep": {loads: "GREP_COLORS; GREP_OPTIONS is ignored by current GNU grep"}, "egrep": {loads: "as grep"}, "fgrep": {loads: "as grep"},
		"sort": {loads: "TMPDIR for its temporary files, which it removes"}, "uniq": {loads: loadsNothing},
		"jq":  {loads: "~/.jq (definitions or a module directory) and JQ_LIBRARY_PATH: jq's language cannot run programs or write files"},
		"yq":  {loads: "nothing that runs: load() and env() only read, and load() asks"},
		"sed": {loads: loadsNothing}, "awk": {loads: "AWKPATH for @include (reads files) and AWKLIBPATH for @load, which asks"},
		"gawk": {loads: "as awk"}, "mawk": {loads: loadsNothing}, "nawk": {loads: loadsNothing},
		"find": {loads: loadsNothing},
		"fd":   {loads: ".fdignore, .ignore, .gitignore and ~/.config/fd/ignore, which only hide names"}, "fdfind": {loads: "as fd"},
		"rg":     {loads: "RIPGREP_CONFIG_PATH's file of extra arguments (--pre runs a program; --hidden and --no-ignore widen what is read); .gitignore, .ignore and .rgignore only hide names"},
		"ag":     {loads: ".gitignore, .ignore, .agignore and ~/.agignore, which only hide names"},
		"git":    {loads: "the configuration chain of the repository it really uses (git.go), hooks, submodules' configuration; checked in checkGit"},
		"go":     {loads: "go.work and go.mod (toolchain and go lines switch toolchains under GOTOOLCHAIN=auto, which downloads and runs another Go), GOENV's file and GOFLAGS (-mod=mod rewrites go.mod, -toolexec runs a program), $GOROOT/go.env; go list and go mod graph may download modules into the module cache; every go command writes telemetry counters to ~/.config/go/telemetry unless GOTELEMETRY=off", check: checkGoToolchain},
		"npm":    {loads: "the .npmrc chain (the project's up to its root, NPM_CONFIG_USERCONFIG or ~/.npmrc, the global and built-in npmrc) and npm_config_* variables: `git` runs for git dependencies, `viewer`/`browser` run on npm help; writes logs to ~/.npm/_logs", check: checkNpmrc},
		"docker": {loads: "~/.docker/config.json and DOCKER_* (the person's: credential helpers, contexts over ssh); docker compose reads the project's compose files and .env, where COMPOSE_*/DOCKER_* settings and remote includes point it at other hosts and fetch code", check: checkCompose},
		"tee":    {loads: loadsWriter}, "touch": {loads: loadsWriter}, "mkdir": {loads: loadsWriter}, "cp": {loads: loadsWriter},
		"mv": {loads: loadsWriter}, "rm": {loads: loadsWriter}, "rmdir": {loads: loadsWriter}, "unlink": {loads: loadsWriter},
		"shred": {loads: loadsWriter}, "truncate": {loads: loadsWriter}, "ln": {loads: loadsWriter}, "chmod": {loads: loadsWriter},
		"chown": {loads: loadsWriter}, "chgrp": {loads: loadsWriter},
		"less":   {loads: "LESSOPEN and LESSCLOSE (an input preprocessor run on every file, also when output is not a terminal) and lesskey files that may set them; only the system's lesspipe is accepted"},
		"more":   {loads: "MORE (options only); with output not a terminal it copies its files"},
		"bat":    {loads: "bat's config file (BAT_CONFIG_PATH or ~/.config/bat/config), whose --pager runs with --paging=always; BAT_PAGER"},
		"batcat": {loads: "as bat"},
		"delta":  {loads: "git's configuration ([delta] sections, read in process); given two files it runs `git diff --no-index`, checked as git's"},
		"gofmt":  {loads: loadsNothing},
		"zcat":   {loads: "GZIP (options only)"}, "gzip": {loads: "GZIP (options only)"}, "gunzip": {loads: "GZIP (options only)"},
		"xz": {loads: "XZ_DEFAULTS, XZ_OPT (options only)"}, "bzip2": {loads: "BZIP2, BZIP (options only)"},
		"xzcat": {loads: "XZ_DEFAULTS, XZ_OPT (options only)"}, "bzcat": {loads: "BZIP2, BZIP (options only)"}, "zstdcat": {loads: loadsNothing},
		"tar":    {loads: "TAR_OPTIONS (a command may not set it); a compressed archive runs the system's decompressor; an archive name with a colon is a remote host (asks)"},
		"numfmt": {loads: loadsNothing}, "lscpu": {loads: loadsNothing}, "top": {loads: "~/.config/procps/toprc, whose inspect entries run only interactively"},
		"ip": {loads: loadsNothing}, "dmesg": {loads: loadsNothing},
		"rustup":   {loads: "rust-toolchain(.toml) files up the tree (a `path` runs that toolchain's binaries; an uninstalled channel, component or target is downloaded), RUSTUP_TOOLCHAIN, directory overrides in RUSTUP_HOME/settings.toml; judged in checkRustup"},
		"ruff":     {loads: "pyproject.toml, ruff.toml: settings only (ruff has no plugins); writes its .ruff_cache unless --no-cache"},
		"mypy":     {loads: "mypy.ini, setup.cfg, pyproject.toml: `plugins` import Python modules, so it runs project code (judged in checkMypy); writes .mypy_cache"},
		"eslint":   {loads: "eslint.config.* (JavaScript) and the plugins it imports: it runs project code (judged in checkESLint)"},
		"prettier": {loads: "prettier.config.*, .prettierrc.js and plugins, which are JavaScript: it runs project code (judged in checkPrettier)"},

		"ss": {loads: loadsNothing}, "netstat": {loads: loadsNothing}, "journalctl": {loads: "SYSTEMD_* (a command may not set them); no pager without a terminal"},
		"systemctl": {loads: "SYSTEMD_* (a command may not set them); no pager without a terminal"},
		"kubectl":   {loads: "the person's kubeconfig (KUBECONFIG, ~/.kube/config), whose exec credential plugins run, and the cluster over the network: the person's own setup, nothing from the working tree"},
		"gh":        {loads: "~/.config/gh (the person's) and the repository's git configuration, since gh runs git there; checked as git's", check: checkGhRepo},
		"pip":       {loads: "pip.conf (/etc, ~/.config/pip, ~/.pip, $VIRTUAL_ENV, PIP_CONFIG_FILE) and the Python it runs in, whose site-packages .pth files run at start-up: a pip on PATH inside the workspace (a project venv) asks", check: checkPipConfig},
		"pip3":      {loads: "as pip", check: checkPipConfig},
	}
	for _, n := range Interpreters {
		trust[n] = interpreterTrust[n]
	}
}

// Loads says what the program name loads (see trust), and whether the survey has it.
func Loads(name string) (string, bool) {
	t, ok := trust[name]
	return t.loads, ok
}

// Surveyed returns the programs the survey has, in no order.
func Surveyed() []string {
	names := make([]string, 0, len(trust))
	for n := range trust {
		names = append(names, n)
	}
	return names
}

// interpreterTrust is what the interpreters, compilers and build tools load before their version is
// printed, the only thing the table lets them do.
var interpreterTrust = map[string]trusted{
	"python":  {loads: "PYTHON* variables (a command may not set them); --version exits before site-packages load"},
	"python2": {loads: "as python"}, "python3": {loads: "as python"},
	"node": {loads: "NODE_OPTIONS (a command may not set it); --version exits first; a version-manager shim (volta, mise) on PATH may download the version package.json names", check: checkShim},
	"deno": {loads: loadsNothing}, "bun": {loads: "bunfig.toml is not read for --version"},
	"ruby": {loads: "RUBYOPT (a command may not set it)"}, "perl": {loads: "PERL5OPT (a command may not set it)"},
	"php":   {loads: "PHPRC and the system's php.ini; the CLI does not read one from the directory"},
	"lua":   {loads: "LUA_INIT, Lua code run even for -v, from the environment", check: envRuns("LUA_INIT", "LUA_INIT_5_4", "LUA_INIT_5_3")},
	"java":  {loads: "JDK_JAVA_OPTIONS and JAVA_TOOL_OPTIONS (-javaagent runs code), from the environment", check: envRuns("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS")},
	"javac": {loads: "as java", check: envRuns("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS")},
	"rustc": {loads: "rustup's toolchain files (see rustup)", check: CheckRustToolchain},
	"cargo": {loads: "rustup's toolchain files (see rustup); .cargo/config.toml up the tree and in CARGO_HOME for tree and metadata, which run rustc (build.rustc and its wrappers) and may fetch (git-fetch-with-cli, credential providers); judged in checkCargo", check: CheckRustToolchain},
	"gcc":   {loads: loadsNothing}, "g++": {loads: loadsNothing}, "clang": {loads: "clang's configuration files next to it or in ~/.config/clang: options only"},
	"clang++": {loads: "as clang"}, "make": {loads: "MAKEFLAGS; --version reads no makefile"}, "cmake": {loads: loadsNothing},
	"tsc": {loads: "nothing for --version (tsconfig.json is not read)"},
	"pip": {loads: "see pip"}, "pip3": {loads: "see pip"},
	"yarn":   {loads: ".yarnrc (yarn-path) and .yarnrc.yml (yarnPath) up the tree, which make the global yarn run the project's copy; package.json's packageManager, which corepack downloads", check: checkPackageManager("yarn")},
	"pnpm":   {loads: "package.json's packageManager, which pnpm and corepack download and run; .npmrc", check: checkPackageManager("pnpm")},
	"npx":    {loads: "as npm, for --version"},
	"uv":     {loads: "uv.toml and pyproject.toml are settings only; --version reads neither"},
	"poetry": {loads: "its own plugins (installed, not the project's) for --version"},
	"gradle": {loads: "GRADLE_OPTS and JAVA_OPTS (the environment); --version evaluates no build script"},
	"mvn":    {loads: ".mvn/jvm.config, .mvn/maven.config and .mvn/extensions.xml up the tree (JVM options such as -javaagent and core extensions run code even for -v); ~/.mavenrc and /etc/mavenrc (the person's)", check: checkMavenDir},
	"dotnet": {loads: "global.json up the tree: sdk.paths may point at an SDK inside the project, whose code runs", check: checkGlobalJSON},
	"swift":  {loads: loadsNothing}, "kotlin": {loads: loadsNothing}, "scala": {loads: "scala-cli may fetch its launcher over the network (the jail cuts it off)"},
	"elixir": {loads: loadsNothing}, "erl": {loads: "n/a: `erl -version` starts a shell that reads ~/.erlang, so it is not allowed", check: func(*shell.Exec, *shell.Args) string { return "`erl` starts an Erlang shell, which runs ~/.erlang" }},
	"ghc": {loads: loadsNothing}, "zig": {loads: loadsNothing},
	"terraform": {loads: "~/.terraformrc (the person's); `terraform version` checks for updates over the network (the jail cuts it off)"},
	"kubectl":   {loads: "see kubectl"}, "helm": {loads: "helm's own configuration (the person's)"}, "gh": {loads: "see gh"},
	"rake":     {loads: "nothing for --version (the Rakefile is not loaded)"},
	"bundle":   {loads: "Gemfile.lock's BUNDLED WITH, which makes bundler install and run that version", check: checkBundler},
	"composer": {loads: "composer.json and the project's Composer plugins, which load on start-up", check: projectFile("composer", "composer.json", "loads the project's Composer plugins")},
	"pytest":   {loads: "conftest.py and plugins, loaded before --version prints: project code", check: ProjectCode("pytest", "the project's conftest.py and plugins")},
	"tox":      {loads: "tox.ini, tox.toml and toxfile.py (an in-project plugin), loaded before --version prints", check: ProjectCode("tox", "the project's toxfile.py and plugins")},
}

// Check judges a call of a table program with the files it loads (see trust).
func Check(e *shell.Exec, name string, a *shell.Args) {
	if t := trust[name]; t.check != nil {
		if r := t.check(e, a); r != "" {
			e.P.NotRO(r)
			return
		}
	}
	if _, ok := interpreterTrust[name]; ok {
		if r := checkShim(e, a); r != "" {
			e.P.NotRO(r)
		}
	}
}

// Supplies records a finding of a program the working tree supplies: its origin is a file in the
// workspace or in one of roots (a repository's directories), or unknown (file ""). The person's own
// files and environment supply nothing: what they configured is what a rule of theirs allows. It
// returns reason.
func Supplies(e *shell.Exec, reason, file string, roots ...string) string {
	inside := file == ""
	if !inside {
		file = shell.ResolvePath("/", file, e.S.Ctx.Home)
		for _, r := range append(slices.Clone(e.S.Roots()), roots...) {
			inside = inside || r != "" && shell.Within(shell.ResolvePath("/", r, e.S.Ctx.Home), file)
		}
	}
	if inside && e.P.Supplied == "" {
		e.P.Supplied = reason
	}
	return reason
}

// ProjectCode judges a tool that runs project code (configuration written in the language, plugins):
// such a call is never read-only.
func ProjectCode(name, what string) func(*shell.Exec, *shell.Args) string {
	return func(e *shell.Exec, _ *shell.Args) string {
		if e.S.Ctx.ReadOnlyJail {
			// The jail keeps that code from writing, connecting or reading secrets.
			return ""
		}
		return fmt.Sprintf("`%s` runs %s, which only the read-only jail would keep from writing", name, what)
	}
}

// projectFile judges a tool that runs project code when the named file is in the directory or above.
func projectFile(name, file, what string) func(*shell.Exec, *shell.Args) string {
	return func(e *shell.Exec, a *shell.Args) string {
		if p := FindUp(e.Scope().Cwd, file); p != "" {
			return fmt.Sprintf("`%s` %s (`%s`)", name, what, e.S.Shown(p))
		}
		return ""
	}
}

// envRuns judges a program that runs what one of the variables holds.
func envRuns(names ...string) func(*shell.Exec, *shell.Args) string {
	return func(e *shell.Exec, a *shell.Args) string {
		for _, n := range names {
			if v, ok := e.S.LookupEnv(n); ok && v != "" {
				return fmt.Sprintf("%s in the environment makes `%s` run more code", n, a.Name)
			}
		}
		return ""
	}
}

// FindUp returns the first of names found in dir or a directory above it (the nearest wins; in one
// directory the first name listed), or "".
func FindUp(dir string, names ...string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		return ""
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		for _, n := range names {
			p := filepath.Join(d, n)
			if _, err := os.Lstat(p); err == nil {
				return p
			}
		}
		if d == "/" {
			return ""
		}
	}
}

// AllUp returns every one of names found in dir and the directories above it, nearest first.
func AllUp(dir string, names ...string) []string {
	if dir == "" || !filepath.IsAbs(dir) {
		return nil
	}
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		for _, n := range names {
			p := filepath.Join(d, n)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				out = append(out, p)
			}
		}
		if d == "/" {
			return out
		}
	}
}

// ReadSmall reads a configuration file of at most 1 MB; ok is false when it does not exist or is
// bigger. A file that exists but cannot be read is returned as an error.
func ReadSmall(path string) (string, bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", false, nil
	}
	if fi.Size() > 1<<20 {
		return "", true, fmt.Errorf("`%s` is too big to read", path)
	}
	b, err := safefile.ReadRegular(path) // a FIFO put there would stall the judgement for ever
	if err != nil {
		return "", true, err
	}
	return string(b), true, nil
}

// resolveProgram returns the file PATH finds for name, symlinks followed, or "".
func resolveProgram(e *shell.Exec, name string) string {
	path, _ := e.S.LookupEnv("PATH")
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				return r
			}
			return p
		}
	}
	return ""
}

// Interpreters run arbitrary code; only asking them for their version is read-only.
var Interpreters = []string{
	"python", "python2", "python3", "node", "deno", "bun", "ruby", "perl", "php", "lua", "java", "javac",
	"rustc", "cargo", "gcc", "g++", "clang", "clang++", "make", "cmake", "tsc", "pip", "pip3", "yarn",
	"pnpm", "npx", "uv", "poetry", "gradle", "mvn", "dotnet", "swift", "kotlin", "scala", "elixir", "erl",
	"ghc", "zig", "terraform", "kubectl", "helm", "gh", "rake", "bundle", "composer", "pytest", "tox",
}
