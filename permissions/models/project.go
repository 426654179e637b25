package models

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// The models of the programs that run the project's own code: make, npm (and yarn, pnpm, npx), node, python,
// pip, pytest, go, cargo, and the linters and formatters run through them. Code on disk before the command
// runs is the project's own: a Makefile, package.json's scripts, a test suite, a build script. What such a
// program reads as code by itself is recorded (Part.Inputs, Part.RunsBelow), so that the same command writing
// it first is code written and run in one call (the engine's unseen_fresh.go). What the command line gives it
// to run (make --eval, a variable of make's, python -c, node --import of a URL, go -toolexec) is unseen. What
// a package manager downloads and runs for the names the project or the command gives it is the registry's,
// which no rule names: the README says so.

func init() {
	makeG := gram(`-b -m -B --always-make -C= --directory= -d --debug? -e --environment-overrides -E= --eval= -f= --file=
		--makefile= -h --help -i --ignore-errors -I= --include-dir= -j? --jobs? -k --keep-going -l? --load-average?
		--max-load? -L --check-symlink-times -n --just-print --dry-run --recon -o= --old-file= --assume-old= -O?
		--output-sync? -p --print-data-base -q --question -r --no-builtin-rules -R --no-builtin-variables --shuffle? -s
		--silent --quiet --no-silent -S --no-keep-going --stop -t --touch --trace -v --version -w --print-directory
		--no-print-directory -W= --what-if= --new-file= --assume-new= --warn-undefined-variables`,
		map[string]role{"-C": rDir, "--directory": rDir, "-E": rCode, "--eval": rCode, "-f": rScript, "--file": rScript,
			"--makefile": rScript})
	makeG.judge = makes
	models["make"], models["gmake"] = makeG, makeG

	npmOpts := `-g --global -D --save-dev -S --save -P --save-prod -O --save-optional -E --save-exact -B --save-bundle
		--no-save --save-peer -f --force -y --yes -q --quiet -s --silent --loglevel= -d --verbose --prefix= -C= -w=
		--workspace= --workspaces --include-workspace-root --if-present --ignore-scripts --legacy-peer-deps
		--strict-peer-deps --no-audit --no-fund --audit --fund --omit= --include= --production --dry-run
		--package-lock-only --no-package-lock --prefer-offline --prefer-online --offline --registry= --cache=
		--userconfig= --color= --no-color --progress --no-progress --json --parseable --long --depth= --all -a
		--install-links --install-strategy= --foreground-scripts --no-bin-links --no-optional --save-prefix= --tag=
		--no-update-notifier --engine-strict --script-shell= --node-options= -c= --call= -h --help -v --version
		--timing --no-fix --no-workspaces`
	npmRoles := map[string]role{"--prefix": rDir, "-C": rDir, "--cache": rInto, "--userconfig": rScript,
		"--script-shell": rUnseen, "--node-options": rCode, "-c": rCommand, "--call": rCommand}
	npmParse = gram(npmOpts, npmRoles).with(func(g *grammar) { g.abbrev = false })
	models["npm"] = &grammar{custom: npms}
	for _, n := range []string{"yarn", "pnpm"} {
		models[n] = &grammar{custom: packageScripts}
	}

	nodeG := gram(`-v --version -h --help -e= --eval= -p= --print= -c --check -i --interactive -r= --require= --import=
		--loader= --experimental-loader= --input-type= --env-file= --env-file-if-exists= --inspect? --inspect-brk?
		--inspect-port= --inspect-wait? --enable-source-maps --no-warnings --trace-warnings --trace-deprecation
		--throw-deprecation --pending-deprecation --no-deprecation --trace-uncaught --max-old-space-size=
		--max-semi-space-size= --stack-size= --stack-trace-limit= -C= --conditions= --title= --unhandled-rejections=
		--preserve-symlinks --preserve-symlinks-main --experimental-vm-modules --experimental-strip-types
		--experimental-transform-types --no-experimental-strip-types --experimental-specifier-resolution=
		--experimental-json-modules --experimental-wasm-modules --experimental-require-module
		--no-experimental-require-module --experimental-detect-module --experimental-default-type= --test --test-only
		--test-name-pattern= --test-skip-pattern= --test-reporter= --test-reporter-destination= --test-concurrency=
		--test-timeout= --experimental-test-coverage --watch --watch-path= --watch-preserve-output --no-addons
		--disallow-code-generation-from-strings --frozen-intrinsics --abort-on-uncaught-exception
		--openssl-legacy-provider --use-openssl-ca --use-bundled-ca --dns-result-order= --expose-gc --jitless
		--cpu-prof --cpu-prof-dir= --heap-prof --heap-prof-dir= --diagnostic-dir= --run=`,
		map[string]role{"-e": rCode, "--eval": rCode, "-p": rCode, "--print": rCode, "--env-file": rScript,
			"--env-file-if-exists": rScript, "--test-reporter-destination": rWrite, "--cpu-prof-dir": rInto,
			"--heap-prof-dir": rInto, "--diagnostic-dir": rInto, "-i": rUnseen, "--interactive": rUnseen,
			"--watch-path": rData})
	nodeG.permute, nodeG.abbrev = false, false
	nodeG.judge = nodes
	models["node"], models["nodejs"] = nodeG, nodeG

	python := &grammar{custom: pythons}
	for _, n := range []string{"python", "python2", "python3", "pypy", "pypy3", "python3.8", "python3.9", "python3.10",
		"python3.11", "python3.12", "python3.13", "python3.14"} {
		models[n] = python
	}

	pipGlobal := `-h --help --debug --isolated --require-virtualenv --python= -v --verbose -V --version -q --quiet --log=
		--no-input --keyring-provider= --proxy= --retries= --timeout= --exists-action= --trusted-host= --cert=
		--client-cert= --cache-dir= --no-cache-dir --disable-pip-version-check --no-color --no-python-version-warning
		--use-feature= --use-deprecated= --root-user-action=`
	pipRoles := map[string]role{"--log": rWrite, "--cache-dir": rInto, "--python": rUnseen, "-r": rScript,
		"--requirement": rScript, "-c": rScript, "--constraint": rScript, "-e": rHanded, "--editable": rHanded,
		"-t": rInto, "--target": rInto, "--root": rInto, "--prefix": rInto, "--src": rInto, "--report": rWrite,
		"--global-option": rUnseen, "-d": rInto, "--dest": rInto, "--path": rRead}
	pipIndex := `-i= --index-url= --extra-index-url= --no-index -f= --find-links= --pre --no-binary= --only-binary=
		--prefer-binary --platform= --python-version= --implementation= --abi=`
	pipG := gram(pipGlobal, pipRoles)
	pipG.needsSub = true
	pipG.subs = map[string]*grammar{
		"install": gram(pipGlobal+" "+pipIndex+` -r= --requirement= -c= --constraint= --no-deps -e= --editable= -t=
			--target= --user --root= --prefix= --src= -U --upgrade --upgrade-strategy= --force-reinstall -I
			--ignore-installed --ignore-requires-python --no-build-isolation --use-pep517 --no-use-pep517
			--check-build-dependencies --break-system-packages -C= --config-settings= --global-option= --compile
			--no-compile --no-warn-script-location --no-warn-conflicts --require-hashes --progress-bar= --report=
			--no-clean --dry-run`, pipRoles).judging(pipInstalls),
		"uninstall": gram(pipGlobal+" -r= --requirement= -y --yes --break-system-packages", pipRoles),
		"download": gram(pipGlobal+" "+pipIndex+` -r= --requirement= -c= --constraint= --no-deps -d= --dest= --no-build-isolation
			--require-hashes --progress-bar= --no-clean`, pipRoles).judging(pipInstalls),
		"freeze": gram(pipGlobal+" -r= --requirement= -l --local --user --path= --all --exclude-editable --exclude=", pipRoles),
		"list": gram(pipGlobal+` -o --outdated -u --uptodate -e --editable -l --local --user --path= --pre --format=
			--not-required --exclude-editable --include-editable --exclude=`, pipRoles),
		"show":  gram(pipGlobal+" -f --files", pipRoles),
		"check": gram(pipGlobal, pipRoles),
	}
	models["pip"], models["pip3"] = pipG, pipG

	models["pytest"] = gram(`-h --help --version -V -q --quiet -v --verbose -x --exitfirst -s --capture= -k= -m= -p= --tb= -r=
		-l --showlocals --lf --last-failed --ff --failed-first --nf --new-first --sw --stepwise --sw-skip --co
		--collect-only --maxfail= --durations= --durations-min= --junitxml= --junit-xml= --basetemp= -c=
		--config-file= --rootdir= --confcutdir= -o= --override-ini= --import-mode= --cache-clear --disable-warnings
		-W= --pythonwarnings= --log-level= --log-cli-level= --log-file= --ignore= --ignore-glob= --deselect=
		--doctest-modules --runxfail --strict-markers --strict-config --color= --no-header --no-summary --fixtures
		--markers --setup-show --full-trace --showlocals --no-cov --cov? --cov-report= --cov-fail-under= -n= --numprocesses=
		--dist= --timeout= --pdb --trace`,
		map[string]role{"--junitxml": rWrite, "--junit-xml": rWrite, "--basetemp": rInto, "-c": rScript,
			"--config-file": rScript, "--log-file": rWrite, "-o": rUnseen, "--override-ini": rUnseen}).
		with(func(g *grammar) { g.abbrev = false; g.judge = pytests })

	for n, g := range goModels() {
		models[n] = g
	}
	models["cargo"] = cargoModel()

	ruffCommon := `-h --help -V --version -q --quiet -v --verbose -s --silent --config= --isolated --no-cache --cache-dir=
		--preview --no-preview --target-version= --line-length= --exclude= --extend-exclude= --respect-gitignore
		--no-respect-gitignore --force-exclude --no-force-exclude --stdin-filename= --output-format= -o= --output-file=
		--show-files --show-settings --exit-zero -e --exit-non-zero-on-fix`
	ruffRoles := map[string]role{"--cache-dir": rInto, "-o": rWrite, "--output-file": rWrite, "--config": rData}
	ruffG := gram("-h --help -V --version", nil)
	ruffG.needsSub = true
	ruffG.subs = map[string]*grammar{
		"check": gram(ruffCommon+` --fix --no-fix --unsafe-fixes --no-unsafe-fixes --show-fixes --no-show-fixes --diff -w
			--watch --fix-only --no-fix-only --statistics --add-noqa --select= --ignore= --extend-select= --extend-ignore=
			--per-file-ignores= --extend-per-file-ignores= --fixable= --unfixable= --extend-fixable= --dummy-variable-rgx=`,
			ruffRoles).with(func(g *grammar) { g.abbrev, g.operand = false, rHanded }),
		"format": gram(ruffCommon+" --check --diff --range=", ruffRoles).with(func(g *grammar) { g.abbrev, g.operand = false, rHanded }),
	}
	models["ruff"] = ruffG

	models["mypy"] = gram(`-h --help -V --version -v --verbose --config-file= --cache-dir= --no-incremental --strict
		--ignore-missing-imports --follow-imports= --python-version= --platform= --show-error-codes --hide-error-codes
		--pretty --no-error-summary --show-column-numbers --show-error-context --exclude= --namespace-packages
		--explicit-package-bases --check-untyped-defs --disallow-untyped-defs --disallow-incomplete-defs
		--warn-unused-ignores --warn-redundant-casts --warn-return-any --no-implicit-optional --install-types
		--non-interactive -p= --package= -m= --module= -c= --command= --html-report= --junit-xml= --txt-report=
		--sqlite-cache --no-site-packages --python-executable=`,
		map[string]role{"--config-file": rScript, "--cache-dir": rInto, "--install-types": rUnseen, "--html-report": rInto,
			"--junit-xml": rWrite, "--txt-report": rInto, "--python-executable": rUnseen}).
		with(func(g *grammar) { g.abbrev, g.operand = false, rRead })

	models["prettier"] = gram(`-h --help -v --version -w --write -c --check -l --list-different --config= --no-config
		--ignore-path= --plugin= --parser= --stdin-filepath= --cache --cache-location= --cache-strategy= --log-level=
		--no-editorconfig --with-node-modules -u --ignore-unknown --no-error-on-unmatched-pattern --print-width=
		--tab-width= --use-tabs --semi --no-semi --single-quote --jsx-single-quote --quote-props= --trailing-comma=
		--bracket-spacing --no-bracket-spacing --bracket-same-line --arrow-parens= --end-of-line= --prose-wrap=
		--html-whitespace-sensitivity= --embedded-language-formatting= --single-attribute-per-line --object-wrap=
		--experimental-ternaries --range-start= --range-end= --insert-pragma --require-pragma --color --no-color`,
		map[string]role{"--config": rScript, "--ignore-path": rRead, "--cache-location": rWrite, "--plugin": rUnseen}).
		with(func(g *grammar) { g.abbrev, g.operand = false, rHanded; g.judge = prettiers })

	models["eslint"] = gram(`-h --help -v --version --fix --fix-dry-run --fix-type= -c= --config= --no-config-lookup
		--no-eslintrc --env= --ext= --global= --parser= --parser-options= --resolve-plugins-relative-to= --rulesdir=
		--plugin= --rule= --ignore-path= --no-ignore --ignore-pattern= --stdin --stdin-filename= --quiet --max-warnings=
		-o= --output-file= -f= --format= --color --no-color --no-inline-config --report-unused-disable-directives
		--cache --cache-file= --cache-location= --cache-strategy= --debug --exit-on-fatal-error
		--no-error-on-unmatched-pattern --flag=`,
		map[string]role{"-c": rScript, "--config": rScript, "--rulesdir": rUnseen, "--ignore-path": rRead,
			"-o": rWrite, "--output-file": rWrite, "--cache-file": rWrite, "--cache-location": rWrite, "--plugin": rUnseen,
			"--resolve-plugins-relative-to": rUnseen}).
		with(func(g *grammar) { g.abbrev, g.operand = false, rHanded; g.judge = eslints })
}

// needCwd returns why a program whose inputs are found from the directory it runs in cannot be judged,
// or "".
func needCwd(e *shell.Exec, what string) string {
	if e.Scope().Cwd == "" {
		return fmt.Sprintf("%s runs in a directory Warden lost track of", what)
	}
	return ""
}

// input records a file the program reads as code by itself when it is there.
func input(e *shell.Exec, path string) {
	e.P.Inputs = append(e.P.Inputs, e.S.Abs(path, e.Scope()))
}

// makeInclude matches the lines of a makefile that read another.
var makeInclude = regexp.MustCompile(`^\s*(-include|sinclude|include)\s+(.*)$`)

// makes judges make: its operands are targets, or variables whose values the recipes may run (unseen);
// its makefile (-f, or GNUmakefile, makefile and Makefile where it runs) and the makefiles those
// include are inputs. The variables make takes options and makefiles from, given on the command line,
// are unseen.
func makes(e *shell.Exec, a *modelArgs) string {
	if why := needCwd(e, "`make`"); why != "" {
		return why
	}
	if a.has("-t", "--touch") {
		return "`make -t` marks targets as made by touching them, which Warden does not follow"
	}
	for _, w := range a.operands {
		if !w.Static {
			return fmt.Sprintf("`make` is given `%s`, only known at run time, which may set a variable", w.Raw)
		}
		if name, _, ok := strings.Cut(w.Value, "="); ok && !strings.Contains(name, "/") {
			return fmt.Sprintf("`make %s` sets a variable the makefile's recipes may run", name)
		}
	}
	// make takes its environment as variables too, which a recipe may run ($(CC), $(PYTEST)).
	for name := range e.Env {
		if !shell.QuietVars[name] {
			return fmt.Sprintf("`make` is given `%s` in its environment, which it takes as a variable its recipes may run", name)
		}
	}
	if e.S.Exports {
		return "`make` runs after the command exports a variable, which make takes as one its recipes may run"
	}
	for _, o := range a.opts {
		if (o.name == "-I" || o.name == "--include-dir") && o.value.Static {
			e.P.RunsBelow = append(e.P.RunsBelow, e.S.Abs(o.value.Value, e.Scope()))
		}
	}
	// The recipes run the project's code: what the same command writes where make runs is code too.
	e.P.RunsBelow = append(e.P.RunsBelow, e.Scope().Cwd)
	var files []string
	if _, ok := a.value("-f", "--file", "--makefile"); ok {
		for _, o := range a.opts {
			if (o.name == "-f" || o.name == "--file" || o.name == "--makefile") && o.value.Static {
				files = append(files, e.S.Abs(o.value.Value, e.Scope()))
			}
		}
	} else {
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			input(e, n)
			files = append(files, e.S.Abs(n, e.Scope()))
		}
	}
	for _, f := range files {
		if shell.Exists(f) {
			// make reads its makefiles: one below a denied directory is read like any file.
			e.S.ReadOne(e.P, f, f, e.Scope(), false)
		}
		// make reads a relative include where it runs.
		makeIncludes(e, f, e.Scope().Cwd, 0)
	}
	return ""
}

// makeIncludes records the makefiles a makefile includes by names known before it runs, as inputs.
func makeIncludes(e *shell.Exec, file, dir string, depth int) {
	if depth > 4 {
		return
	}
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 256<<10))
	for sc.Scan() {
		m := makeInclude.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		for _, name := range strings.Fields(m[2]) {
			if strings.ContainsAny(name, "$%*?[") {
				continue // named by a variable or a pattern: only known when make runs
			}
			path := name
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, name)
			}
			e.P.Inputs = append(e.P.Inputs, path)
			makeIncludes(e, path, dir, depth+1)
		}
	}
}

// npmParse is npm's options, which nopt reads anywhere on the command line.
var npmParse *grammar

// npmInstalls are npm's subcommands (and their aliases) that install packages, running the lifecycle
// scripts of package.json and of the packages installed.
var npmInstalls = map[string]bool{}

// npmScripts are npm's subcommands that run one of package.json's scripts.
var npmScripts = map[string]bool{"test": true, "t": true, "tst": true, "start": true, "stop": true, "restart": true,
	"run": true, "run-script": true, "rum": true, "urn": true}

func init() {
	for _, n := range strings.Fields(`install i in ins inst insta instal isnt isnta isntal isntall add ci clean-install ic
		install-clean isntall-clean uninstall unlink remove rm r un update up upgrade udpate prune dedupe ddp rebuild rb
		install-test it install-ci-test cit pack`) {
		npmInstalls[n] = true
	}
}

// npms judges npm: options anywhere (nopt reads them so), the subcommand first among the operands.
// Installs and scripts read package.json and .npmrc where npm runs (--prefix), as inputs; `npm init -y`
// writes package.json; the other subcommands are not modelled.
func npms(e *shell.Exec, words []shell.Word) string {
	a, why := parseModel(e, npmParse, words)
	if why != "" {
		return why
	}
	if why := needCwd(e, "`npm`"); why != "" {
		return why
	}
	if len(a.operands) == 0 || a.dashdash == 0 {
		return "`npm` without a subcommand Warden models"
	}
	sub := a.operands[0]
	if !sub.Static {
		return fmt.Sprintf("`npm` runs a subcommand only known at run time: `%s`", sub.Raw)
	}
	switch {
	case npmInstalls[sub.Value] || npmScripts[sub.Value]:
		packageInputs(e)
		return ""
	case sub.Value == "init" && len(a.operands) == 1 && a.has("-y", "--yes"):
		return takes(e, rWrite, shell.Word{Value: "package.json", Raw: "package.json", Static: true}, "`npm init`")
	}
	return fmt.Sprintf("`npm %s` is a subcommand Warden does not model", sub.Value)
}

// packageInputs records what a package manager reads as code where it runs: package.json's scripts,
// the configuration that may name a shell or a node option, and the files yarn and pnpm run.
func packageInputs(e *shell.Exec) {
	for _, n := range []string{"package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs", ".pnp.cjs"} {
		input(e, n)
	}
	if h := e.S.Ctx.Home; h != "" {
		e.P.Inputs = append(e.P.Inputs, filepath.Join(h, ".npmrc"), filepath.Join(h, ".yarnrc"), filepath.Join(h, ".yarnrc.yml"))
	}
	// The scripts run the package's code, and the modules below it.
	e.P.RunsBelow = append(e.P.RunsBelow, e.Scope().Cwd)
}

// runsProjectCode records that the part runs code found below dir and in the node_modules of the
// directories above it, up to the workspace's top.
func runsProjectCode(e *shell.Exec, dir string) {
	if !filepath.IsAbs(dir) {
		return
	}
	e.P.RunsBelow = append(e.P.RunsBelow, dir)
	for d := filepath.Dir(dir); e.S.Inside(d); d = filepath.Dir(d) {
		e.P.RunsBelow = append(e.P.RunsBelow, filepath.Join(d, "node_modules"))
		if d == filepath.Dir(d) {
			break
		}
	}
}

// packageScriptNames are the subcommands of yarn and pnpm that install or run package.json's scripts.
var packageScriptNames = map[string]bool{"install": true, "i": true, "add": true, "remove": true, "upgrade": true,
	"up": true, "update": true, "test": true, "t": true, "run": true, "start": true}

// packageScripts judges yarn and pnpm: bare (an install), an install or one of package.json's scripts,
// with no option but --silent; anything else is not modelled.
func packageScripts(e *shell.Exec, words []shell.Word) string {
	name := filepath.Base(words[0].Value)
	if why := needCwd(e, fmt.Sprintf("`%s`", name)); why != "" {
		return why
	}
	var first *shell.Word
	for i := 1; i < len(words); i++ {
		w := words[i]
		if !w.Static {
			if first == nil || mayBeOption(w) {
				return fmt.Sprintf("`%s` is given `%s`, only known at run time", name, w.Raw)
			}
			continue
		}
		if w.Value == "--" {
			break
		}
		if strings.HasPrefix(w.Value, "-") {
			if w.Value == "--silent" || w.Value == "-s" || first != nil && (w.Value == "-D" || w.Value == "--dev" || w.Value == "-E" ||
				w.Value == "--exact" || w.Value == "--frozen-lockfile" || w.Value == "--immutable") {
				continue
			}
			if first != nil && first.Value != "install" && first.Value != "i" && first.Value != "add" {
				continue // after a script's name, its own arguments
			}
			return fmt.Sprintf("`%s %s` is an option Warden does not know", name, w.Value)
		}
		if first == nil {
			first = &words[i]
		}
	}
	packageInputs(e)
	if first == nil || packageScriptNames[first.Value] || packageHasScript(e.S.Abs("package.json", e.Scope()), first.Value) {
		return ""
	}
	return fmt.Sprintf("`%s %s` is neither an install nor a script of package.json", name, first.Value)
}

// packageHasScript reports whether the package.json at path has a script of that name.
func packageHasScript(path, script string) bool {
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
		Main    string            `json:"main"`
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 4<<20 || json.Unmarshal(b, &pkg) != nil {
		return false
	}
	_, ok := pkg.Scripts[script]
	return ok
}

// packageMain returns package.json's main in dir, or "".
func packageMain(dir string) string {
	var pkg struct {
		Main string `json:"main"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil || len(b) > 4<<20 || json.Unmarshal(b, &pkg) != nil {
		return ""
	}
	return pkg.Main
}

// nodes judges node: the modules it preloads (a file on disk, or else unseen), the script (a directory
// is its package.json's main or index.js) and the script's arguments, which it may read or write.
func nodes(e *shell.Exec, a *modelArgs) string {
	for _, o := range a.opts {
		switch o.name {
		case "--require", "-r", "--import", "--loader", "--experimental-loader":
			if why := nodeModule(e, o.value, o.name); why != "" {
				return why
			}
		case "--run":
			packageInputs(e)
		case "--test":
			e.P.RunsBelow = append(e.P.RunsBelow, e.Scope().Cwd)
		}
	}
	if a.has("-e", "--eval", "-p", "--print", "--run") || len(a.operands) == 0 {
		return each(e, rHanded, a.operands, "`node`")
	}
	if a.has("--test") {
		return each(e, rScript, a.operands, "`node --test`")
	}
	script := a.operands[0]
	if why := nodeScript(e, script); why != "" {
		return why
	}
	if script.Static {
		// What it requires is found beside it and in node_modules up the tree.
		path := e.S.Abs(script.Value, e.Scope())
		if !isDir(path) {
			path = filepath.Dir(path)
		}
		runsProjectCode(e, path)
	}
	return each(e, rHanded, a.operands[1:], "`node`")
}

// nodeModule judges a module node loads before the script: a path to a file on disk is the project's;
// a package name, a URL or data is not followed.
func nodeModule(e *shell.Exec, w shell.Word, opt string) string {
	v := w.Value
	if !w.Static || !(strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "/")) {
		return fmt.Sprintf("`node %s %s` loads a module Warden does not follow", opt, w.Raw)
	}
	RunsFile(e, w)
	return ""
}

// nodeScript judges node's script: a file, or a directory, which runs its package.json's main or
// index.js.
func nodeScript(e *shell.Exec, w shell.Word) string {
	if !w.Static || w.Glob {
		RunsFile(e, w)
		return ""
	}
	path := e.S.Abs(w.Value, e.Scope())
	if !isDir(path) {
		if _, err := os.Lstat(path); err != nil {
			for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".json", ".node"} {
				if _, err := os.Lstat(path + ext); err == nil {
					RunsFile(e, shell.Word{Value: path + ext, Raw: w.Raw, Static: true})
					return ""
				}
			}
		}
		RunsFile(e, w)
		return ""
	}
	e.P.Inputs = append(e.P.Inputs, filepath.Join(path, "package.json"))
	for _, n := range []string{"index.js", "index.mjs", "index.cjs", "index.json", "index.node"} {
		e.P.Inputs = append(e.P.Inputs, filepath.Join(path, n))
	}
	if m := packageMain(path); m != "" {
		main := filepath.Join(path, m)
		e.P.Inputs = append(e.P.Inputs, main, main+".js", filepath.Join(main, "index.js"))
		e.S.ReadOne(e.P, main, main, e.Scope(), true)
	}
	return ""
}

// pythonFlags are the letters of python's options that take no value.
const pythonFlags = "bBdEhIOPqRsSuvVx"

// pythons judges python: its options, as CPython reads them (letters cluster; -c and -m end them),
// code given with -c (unseen), a module run with -m (pyModule), or a script, whose arguments it may read
// or write. -i reads more code from its input.
func pythons(e *shell.Exec, words []shell.Word) string {
	name := filepath.Base(words[0].Value)
	for i := 1; i < len(words); i++ {
		w := words[i]
		if !w.Static {
			if mayBeOption(w) {
				return fmt.Sprintf("`%s` is given `%s`, only known at run time, which may be an option", name, w.Raw)
			}
			RunsFile(e, w)
			return each(e, rHanded, words[i+1:], fmt.Sprintf("`%s`", name))
		}
		v := w.Value
		switch {
		case v == "--":
			if i+1 < len(words) {
				RunsFile(e, words[i+1])
				return each(e, rHanded, words[i+2:], fmt.Sprintf("`%s`", name))
			}
			return ""
		case v == "-":
			RunsFile(e, w)
			return ""
		case v == "--version" || v == "--help" || v == "--help-env" || v == "--help-xoptions" || v == "--help-all":
		case strings.HasPrefix(v, "--check-hash-based-pycs"):
			if !strings.Contains(v, "=") {
				i++
			}
		case strings.HasPrefix(v, "--"):
			return fmt.Sprintf("`%s %s` is an option Warden does not know", name, v)
		case strings.HasPrefix(v, "-"):
			for j := 1; j < len(v); j++ {
				ch := v[j]
				switch {
				case ch == 'i':
					return fmt.Sprintf("`%s -i` reads more code from its input", name)
				case strings.IndexByte(pythonFlags, ch) >= 0:
					continue
				case ch == 'c':
					e.P.Unsee(shell.UnseenInlineCode, fmt.Sprintf("`%s -c` runs code in a language Warden does not read", name))
					return ""
				case ch == 'm':
					mod := v[j+1:]
					next := i + 1
					if mod == "" {
						if next >= len(words) {
							return ""
						}
						if !words[next].Static {
							return fmt.Sprintf("`%s -m` runs a module only known at run time", name)
						}
						mod, next = words[next].Value, next+1
					}
					return pyModule(e, name, mod, words[next:])
				case ch == 'W' || ch == 'X':
					if j == len(v)-1 {
						i++
					}
					j = len(v)
				default:
					return fmt.Sprintf("`%s -%c` is an option Warden does not know", name, ch)
				}
			}
		default:
			// What it imports is found beside it first.
			RunsFile(e, w)
			if p := e.S.Abs(w.Value, e.Scope()); filepath.IsAbs(p) && !w.Glob {
				e.P.RunsBelow = append(e.P.RunsBelow, filepath.Dir(p))
			}
			pythonUserSite(e)
			return each(e, rHanded, words[i+1:], fmt.Sprintf("`%s`", name))
		}
	}
	return ""
}

// pythonUserSite records the person's site-packages, whose .pth files python runs as it starts.
func pythonUserSite(e *shell.Exec) {
	if h := e.S.Ctx.Home; h != "" {
		e.P.RunsBelow = append(e.P.RunsBelow, filepath.Join(h, ".local", "lib"))
	}
}

// pyModule judges `python -m NAME ARGS`: python looks in the directory it runs in first, so a module of
// that name there (or its cache) is an input, and one on disk is the project's own, whose arguments it
// may read or write. Of the installed modules only those Warden models are followed: pytest, pip,
// venv and unittest; any other, the standard library's included (timeit, pdb, base64, zipfile...),
// runs code or touches files in ways it does not follow.
func pyModule(e *shell.Exec, python, mod string, args []shell.Word) string {
	if why := needCwd(e, fmt.Sprintf("`%s -m`", python)); why != "" {
		return why
	}
	// python -m looks in the directory it runs in first, for the module and for what it imports.
	e.P.RunsBelow = append(e.P.RunsBelow, e.Scope().Cwd)
	pythonUserSite(e)
	rel := strings.ReplaceAll(mod, ".", "/")
	input(e, rel+".py")
	input(e, rel)
	input(e, filepath.Join(filepath.Dir(rel), "__pycache__"))
	for _, local := range []string{rel + ".py", filepath.Join(rel, "__main__.py")} {
		if path := e.S.Abs(local, e.Scope()); shell.Exists(path) {
			RunsFile(e, shell.Word{Value: path, Raw: local, Static: true})
			return each(e, rHanded, args, fmt.Sprintf("`%s -m %s`", python, mod))
		}
	}
	named := func(n string) []shell.Word {
		return append([]shell.Word{{Value: n, Raw: n, Static: true}}, args...)
	}
	switch mod {
	case "pytest":
		return model(e, models["pytest"], named("pytest"))
	case "pip":
		return model(e, models["pip"], named("pip"))
	case "venv":
		g := gram(`-h --help --system-site-packages --symlinks --copies --clear --upgrade --without-pip --prompt=
			--upgrade-deps --without-scm-ignore-files`, nil).with(func(g *grammar) { g.abbrev, g.operand = false, rInto })
		return model(e, g, named(python+" -m venv"))
	case "unittest":
		e.P.RunsBelow = append(e.P.RunsBelow, e.Scope().Cwd)
		return ""
	}
	return fmt.Sprintf("`%s -m %s` runs a module Warden does not model", python, mod)
}

// pipInstalls judges what pip installs or downloads: names of packages, and local projects (a path),
// whose build code is the project's own and runs.
func pipInstalls(e *shell.Exec, a *modelArgs) string {
	if why := needCwd(e, "`pip`"); why != "" {
		return why
	}
	for _, o := range a.opts {
		if (o.name == "-e" || o.name == "--editable") && o.value.Static && !strings.Contains(o.value.Value, "://") {
			e.P.RunsBelow = append(e.P.RunsBelow, e.S.Abs(o.value.Value, e.Scope()))
		}
	}
	for _, w := range a.operands {
		if !w.Static {
			return fmt.Sprintf("`pip` is given `%s`, only known at run time", w.Raw)
		}
		v := w.Value
		if strings.HasPrefix(v, ".") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") {
			if why := takes(e, rHanded, w, "`pip`"); why != "" {
				return why
			}
			e.P.RunsBelow = append(e.P.RunsBelow, e.S.Abs(v, e.Scope()))
		}
	}
	return ""
}

// pytests judges pytest: it runs the tests and conftest.py files below where it runs and below the
// paths it is given; a plugin named by -p may be a module of the directory it runs in.
func pytests(e *shell.Exec, a *modelArgs) string {
	if why := needCwd(e, "`pytest`"); why != "" {
		return why
	}
	e.P.RunsBelow = append(e.P.RunsBelow, e.Scope().Cwd)
	for _, n := range []string{"pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"} {
		input(e, n)
	}
	for _, o := range a.opts {
		switch {
		case o.name == "-p" && o.value.Static && !strings.HasPrefix(o.value.Value, "no:"):
			input(e, strings.ReplaceAll(o.value.Value, ".", "/")+".py")
		case o.name == "--rootdir" || o.name == "--confcutdir":
			if !o.value.Static {
				return fmt.Sprintf("`pytest %s` is given a directory only known at run time", o.name)
			}
			e.P.RunsBelow = append(e.P.RunsBelow, e.S.Abs(o.value.Value, e.Scope()))
		case o.name == "--pdb" || o.name == "--trace":
			return fmt.Sprintf("`pytest %s` runs a debugger that reads commands from its input", o.name)
		}
	}
	for _, w := range a.operands {
		if w.Static {
			path, _, _ := strings.Cut(w.Value, "::")
			w = shell.Word{Value: path, Raw: w.Raw, Static: true, Glob: w.Glob}
		}
		if why := takes(e, rRead, w, "`pytest`"); why != "" {
			return why
		}
		if w.Static {
			e.P.RunsBelow = append(e.P.RunsBelow, e.S.Abs(w.Value, e.Scope()))
		}
	}
	return ""
}

// eslints judges eslint: its configuration and plugins are the project's code, found where it runs
// and up the tree; a formatter named by a path is too.
func eslints(e *shell.Exec, a *modelArgs) string {
	if why := needCwd(e, "`eslint`"); why != "" {
		return why
	}
	runsProjectCode(e, e.Scope().Cwd)
	if v, ok := a.value("-f", "--format"); ok && strings.ContainsRune(v.Value, '/') {
		RunsFile(e, v)
	}
	return each(e, rHanded, a.operands, "`eslint`")
}

// prettiers judges prettier: its configuration and plugins are the project's code, found where it runs
// and up the tree.
func prettiers(e *shell.Exec, a *modelArgs) string {
	if why := needCwd(e, "`prettier`"); why != "" {
		return why
	}
	runsProjectCode(e, e.Scope().Cwd)
	return each(e, rHanded, a.operands, "`prettier`")
}
