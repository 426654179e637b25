package jail

import (
	"path/filepath"
	"strings"
)

// Place is a path in a home directory that jailed commands may read although the homes are dark: a
// toolchain's (Toolchains) or one the person's settings name (sandbox.jail_readable).
type Place struct {
	Path string
	// Why says what needs it, for the reader of this list; "" for the person's own.
	Why string
	// Scan says the place is searched for secrets, as the workspace is, and what the search does not reach
	// is hidden. The toolchains' places that hold only what was downloaded or installed (public code,
	// compiled objects, programs) are not: none of the person's keys is there, and they are too large to
	// walk at every rescan. The person's own places are always searched.
	Scan bool
	// Configs are where, below Path, the toolchain keeps configuration a person may have written a
	// credential into (glob patterns: a node version's global npmrc, a conda installation's .condarc, a
	// Python version's pip.conf). A place that is not searched is looked into there alone, and what the
	// secrets catalogue names is masked: knowing where such files live costs a few directory reads where
	// a walk of the place would cost thousands.
	Configs []string
}

// Where the toolchains keep configuration that may hold a credential, below their places.
var (
	// npm's global configuration ($PREFIX/etc/npmrc, where `npm config set --global` writes, and the
	// built-in one inside npm) for a node installed under prefix.
	npmrcs = func(prefix string) []string {
		return []string{prefix + "/etc/npmrc", prefix + "/lib/node_modules/npm/npmrc"}
	}
	// conda's configuration of an installation or environment, and pip's site configuration of a Python
	// prefix (pip reads sys.prefix/pip.conf), and what the environments inside keep. The environments
	// tools make for themselves (pipx's, pre-commit's) are not looked into: nobody writes a credential
	// there.
	condaConfigs = []string{".condarc", "condarc", "condarc.d", "pip.conf", "envs/*/.condarc", "envs/*/pip.conf"}
	venvConfigs  = []string{"*/pip.conf"}
)

// Toolchains are the places in the person's home that read-only tools need: the programs that version
// managers and installers put there (on PATH, often before /usr/bin) and the caches that builds, linters
// and language servers read dependencies from. Each is where the toolchain's own variable says, or its
// default. What is beside them stays dark: configuration files (~/.npmrc, ~/.m2/settings.xml,
// ~/.cargo/credentials.toml, ~/.gradle/gradle.properties, ~/.gitconfig) hold tokens and passwords, so a
// toolchain reads its defaults in the jail.
func Toolchains(home string, getenv func(string) string) []Place {
	if home == "" || !filepath.IsAbs(home) {
		return nil
	}
	h := func(rel ...string) string { return filepath.Join(append([]string{home}, rel...)...) }
	// env is the variable's value when it names an absolute path, else def.
	env := func(name, def string) string {
		if v := getenv(name); v != "" && filepath.IsAbs(v) {
			return v
		}
		return def
	}
	cache := env("XDG_CACHE_HOME", h(".cache"))
	data := env("XDG_DATA_HOME", h(".local", "share"))
	in := func(dir string, rel ...string) string { return filepath.Join(append([]string{dir}, rel...)...) }
	gopath := h("go")
	if v, _, _ := strings.Cut(getenv("GOPATH"), string(filepath.ListSeparator)); v != "" && filepath.IsAbs(v) {
		gopath = v
	}
	cargo, rustup := env("CARGO_HOME", h(".cargo")), env("RUSTUP_HOME", h(".rustup"))
	gradle := env("GRADLE_USER_HOME", h(".gradle"))
	places := []Place{
		// Go.
		{env("GOMODCACHE", in(gopath, "pkg", "mod")), "Go's module cache: the source of every dependency go build, go vet and go list read, and the toolchains GOTOOLCHAIN downloads", false, nil},
		{env("GOCACHE", in(cache, "go-build")), "Go's build cache: go vet, go list and go test read compiled packages from it", false, nil},
		{env("GOBIN", in(gopath, "bin")), "programs go install put there", false, nil},
		{h("sdk"), "Go versions installed with golang.org/dl (go1.N.M download)", false, nil},
		{getenv("GOROOT"), "the Go toolchain itself, when it is installed in the home", false, nil},
		// Rust.
		{in(cargo, "bin"), "cargo install's programs and rustup's proxies (cargo, rustc, rustfmt)", false, nil},
		{in(cargo, "registry"), "the crate registry's index and the crates' sources cargo builds from", false, nil},
		{in(cargo, "git"), "the checkouts of git dependencies", false, nil},
		{rustup, "rustup's toolchains and its settings (the default toolchain), which the proxies read", false, nil},
		// JavaScript.
		{env("npm_config_cache", h(".npm")), "npm's cache and the packages npx runs", false, nil},
		{env("NVM_DIR", h(".nvm")), "node versions installed by nvm", false,
			append(npmrcs("versions/node/*"), npmrcs("versions/io.js/*")...)},
		{env("VOLTA_HOME", h(".volta")), "node versions and tools installed by Volta", false, npmrcs("tools/image/node/*")},
		{env("FNM_DIR", in(data, "fnm")), "node versions installed by fnm", false, npmrcs("node-versions/*/installation")},
		{env("BUN_INSTALL", h(".bun")), "Bun and its package cache", false, nil},
		{env("PNPM_HOME", in(data, "pnpm")), "pnpm and its content-addressed store, which node_modules link into", false, nil},
		{in(cache, "pnpm"), "pnpm's metadata cache", false, nil},
		{in(cache, "yarn"), "Yarn 1's package cache", false, nil},
		{h(".yarn", "berry", "cache"), "Yarn's global package cache", false, nil},
		{in(cache, "node-gyp"), "node's headers, for building native modules", false, nil},
		{env("DENO_DIR", in(cache, "deno")), "Deno's module cache", false, nil},
		// Python.
		{env("PYENV_ROOT", h(".pyenv")), "Python versions installed by pyenv, and its shims", false,
			[]string{"versions/*/pip.conf", "versions/*/.condarc"}},
		{h(".local", "lib"), "Python packages installed with pip install --user", false, nil},
		{h(".local", "bin"), "programs installers put there (pip --user, pipx, uv tool, many install scripts)", true, nil},
		{env("PIPX_HOME", in(data, "pipx")), "pipx's environments, which the programs in ~/.local/bin run from", false, nil},
		{in(data, "uv"), "Python versions and tools installed by uv", false, nil},
		{env("UV_CACHE_DIR", in(cache, "uv")), "uv's package cache, which its environments link into", false, nil},
		{env("PIP_CACHE_DIR", in(cache, "pip")), "pip's download cache", false, nil},
		{env("POETRY_CACHE_DIR", in(cache, "pypoetry")), "Poetry's cache and the virtual environments it makes there", false,
			[]string{"virtualenvs/*/pip.conf"}},
		{env("WORKON_HOME", in(data, "virtualenvs")), "pipenv's virtual environments", false, venvConfigs},
		{h(".virtualenvs"), "virtualenvwrapper's environments", false, venvConfigs},
		{in(cache, "pre-commit"), "pre-commit's hook environments", false, nil},
		{h("miniconda3"), "conda's installation and environments", false, condaConfigs},
		{h("anaconda3"), "conda's installation and environments", false, condaConfigs},
		{h("miniforge3"), "conda's installation and environments", false, condaConfigs},
		{h(".conda", "envs"), "conda's environments", false, []string{"*/.condarc", "*/pip.conf"}},
		{h(".conda", "pkgs"), "conda's package cache", false, nil},
		// Version managers for any language.
		{env("ASDF_DATA_DIR", h(".asdf")), "versions installed by asdf, and its shims", false,
			append(append(npmrcs("installs/nodejs/*"), npmrcs("installs/nodejs/*/.npm")...), "installs/python/*/pip.conf")},
		{env("MISE_DATA_DIR", in(data, "mise")), "versions installed by mise, and its shims", false,
			append(npmrcs("installs/node/*"), "installs/python/*/pip.conf")},
		{h(".tool-versions"), "the versions asdf's and mise's shims pick when a project names none", false, nil},
		{h(".nix-profile"), "programs installed with nix profile or nix-env (a link into /nix/store)", false, nil},
		// JVM.
		{h(".m2", "repository"), "Maven's local repository of dependencies", false, nil},
		{in(gradle, "caches"), "Gradle's dependency cache", false, nil},
		{in(gradle, "wrapper", "dists"), "the Gradle versions the wrapper downloaded, which ./gradlew runs", false, nil},
		{filepath.Join(env("SDKMAN_DIR", h(".sdkman")), "candidates"), "JDKs and tools installed by SDKMAN!", false, nil},
		{h(".jdks"), "JDKs an IDE downloaded", false, nil},
		{in(cache, "coursier"), "Coursier's cache (sbt, Scala)", false, nil},
		{h(".ivy2", "cache"), "Ivy's cache (sbt, Ant)", false, nil},
		// Ruby.
		{env("RBENV_ROOT", h(".rbenv")), "Ruby versions installed by rbenv, and its shims", false, []string{"versions/*/etc/gemrc"}},
		{h(".gem", "ruby"), "gems installed with gem install --user-install", false, nil},
		{in(data, "gem"), "gems installed with gem install --user-install", false, nil},
		// Others.
		{h(".ghcup"), "Haskell toolchains installed by ghcup", false, nil},
		{h(".cabal", "store"), "Cabal's built packages", false, nil},
		{h(".cabal", "packages"), "Cabal's downloaded packages", false, nil},
		{env("DOTNET_ROOT", h(".dotnet")), "the .NET SDK installed by dotnet-install", false, nil},
		{h(".nuget", "packages"), "NuGet's package cache", false, nil},
		{env("PUB_CACHE", h(".pub-cache")), "Dart's and Flutter's package cache", false, []string{"credentials.json", "pub-tokens.json"}},
		{h(".terraform.d", "plugin-cache"), "Terraform's provider cache", false, nil},
		{in(cache, "bazel"), "Bazel's output base, which bazel query reads", false, nil},
		{in(cache, "golangci-lint"), "golangci-lint's cache of results", false, nil},
		// Homebrew on Linux lives in a home of its own, on everyone's PATH who uses it.
		{"/home/linuxbrew/.linuxbrew", "Homebrew's programs on Linux", false, append(npmrcs("."), "etc/gemrc")},
	}
	// The directories of PATH in the home (~/bin, a version manager's shims): commands run programs from
	// them by name. They may be the person's own, so they are searched.
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if filepath.IsAbs(d) && filepath.Clean(d) != filepath.Clean(home) && within(home, filepath.Clean(d)) {
			places = append(places, Place{d, "a directory of PATH, whose programs commands run by name", true, nil})
		}
	}
	out := places[:0]
	for _, p := range places {
		if p.Path != "" && filepath.IsAbs(p.Path) {
			p.Path = filepath.Clean(p.Path)
			out = append(out, p)
		}
	}
	return out
}
