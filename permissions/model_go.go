package permissions

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The go command's and cargo's models for the promise. go's flags are Go's flag package's (`-name`,
// `--name`, `=value` or the next word, no clusters, no abbreviations), and GOFLAGS given on the command
// line is read as more of them. What the build, the tests and `go run` run is the packages' code, below
// the directories they are given; -toolexec and -exec name commands, -ldflags=-extld a program.

// goGram builds a grammar of Go flags from a spec like gram's, with one dash.
func goGram(spec string, roles map[string]role) *grammar {
	g := &grammar{short: map[byte]opt{}, long: map[string]opt{}, goFlags: true, permute: true, operand: rData}
	for _, tok := range strings.Fields(spec) {
		o := opt{}
		name := tok
		switch {
		case strings.HasSuffix(tok, "="):
			name, o.role = strings.TrimSuffix(tok, "="), rData
		case strings.HasSuffix(tok, "?"):
			name, o.role, o.optional = strings.TrimSuffix(tok, "?"), rData, true
		}
		if r, ok := roles[name]; ok {
			o.role = r
		}
		g.long[strings.TrimLeft(name, "-")] = o
	}
	return g
}

// goBuildFlags are the flags the build commands share (go help build).
const goBuildFlags = `-C= -a -n -p= -race -msan -asan -cover -covermode= -coverpkg= -v -work -x -asmflags= -buildmode=
	-buildvcs? -compiler= -gccgoflags= -gcflags= -installsuffix= -json -ldflags= -linkshared -mod= -modcacherw
	-modfile= -overlay= -pgo= -pkgdir= -tags= -trimpath -toolexec=`

// goTestFlags are go test's own flags and the test binary's it knows (go help testflag).
const goTestFlags = `-c -exec= -o= -artifacts -bench= -benchtime= -count= -cpu= -failfast -fullpath -fuzz= -fuzztime=
	-fuzzminimizetime= -list= -outputdir= -parallel= -run= -short -shuffle= -skip= -timeout= -vet= -benchmem
	-blockprofile= -blockprofilerate= -coverprofile= -cpuprofile= -memprofile= -memprofilerate= -mutexprofile=
	-mutexprofilefraction= -trace=`

var goRoles = map[string]role{"-C": rDir, "-toolexec": rCommand, "-exec": rCommand, "-modfile": rEdit,
	"-overlay": rUnseen, "-pgo": rRead, "-pkgdir": rInto, "-gccgoflags": rUnseen, "-coverprofile": rWrite,
	"-cpuprofile": rWrite, "-memprofile": rWrite, "-blockprofile": rWrite, "-mutexprofile": rWrite, "-trace": rWrite,
	"-outputdir": rInto, "-vettool": rCommand, "-reuse": rRead}

func goModels() map[string]*grammar {
	testSpec := goBuildFlags + " " + goTestFlags
	// The test binary's flags may be given as -test.NAME too.
	for _, f := range strings.Fields(goTestFlags) {
		if name := strings.TrimSuffix(strings.TrimPrefix(f, "-"), "="); name != "c" && name != "exec" && name != "o" {
			testSpec += " -test." + strings.TrimPrefix(f, "-")
			if r, ok := goRoles["-"+name]; ok {
				goRoles["-test."+name] = r
			}
		}
	}
	sub := func(spec string, judge func(*exec, *modelArgs) string) *grammar {
		g := goGram(spec, goRoles)
		g.judge = judge
		return g
	}
	wrote := func(files ...string) func(*exec, *modelArgs) string {
		return func(e *exec, a *modelArgs) string {
			if why := e.goCommon(a); why != "" {
				return why
			}
			return e.goModuleWrites(files...)
		}
	}
	noWrites := func(e *exec, a *modelArgs) string { return e.goCommon(a) }
	goG := goGram("-h -help", nil)
	goG.needsSub = true
	goG.subs = map[string]*grammar{
		"build":    sub(goBuildFlags+" -o=", goBuilt),
		"install":  sub(goBuildFlags, noWrites),
		"test":     sub(testSpec, goTested),
		"run":      sub(goBuildFlags+" -exec=", goRan).with(func(g *grammar) { g.permute = false }),
		"generate": sub(goBuildFlags+" -run= -skip=", goGenerated),
		"vet":      sub(goBuildFlags+" -vettool=", noWrites),
		"fmt":      sub("-n -x -mod=", goFormatted),
		"get":      sub(goBuildFlags+" -d -t -u? -insecure -tool", wrote("go.mod", "go.sum")),
		"clean":    sub(goBuildFlags+" -i -r -cache -testcache -modcache -fuzzcache", noWrites),
		"mod": {needsSub: true, short: map[byte]opt{}, long: map[string]opt{}, goFlags: true, subs: map[string]*grammar{
			"tidy":     sub("-v -e -go= -compat= -x -diff -C=", wrote("go.mod", "go.sum")),
			"download": sub("-x -json -reuse= -C= -modcacherw -modfile= -overlay=", noWrites),
			"vendor":   sub("-v -e -o= -C= -modfile=", wrote("go.mod", "go.sum", "vendor")),
			"init":     sub("-C=", wrote("go.mod")),
			"edit": sub(`-fmt -module= -go= -toolchain= -require= -droprequire= -exclude= -dropexclude= -replace=
				-dropreplace= -retract= -dropretract= -tool= -droptool= -godebug= -dropgodebug= -ignore= -dropignore= -json
				-print`, wrote("go.mod")),
		}},
		"work": {needsSub: true, short: map[byte]opt{}, long: map[string]opt{}, goFlags: true, subs: map[string]*grammar{
			"init": sub("-C=", wrote("go.work")), "use": sub("-r -C=", wrote("go.work")),
			"sync": sub("-C=", wrote("go.work", "go.mod", "go.sum")),
		}},
	}
	return map[string]*grammar{"go": goG}
}

// goCommon judges what every go command shares: GOFLAGS given on the command line, read as more flags
// (go leaves out those that do not apply, so every flag of the build and the tests counts), and
// -ldflags or -compiler that run another program.
func (e *exec) goCommon(a *modelArgs) string {
	if i := slices.Index(e.p.envModel, "GOFLAGS"); i >= 0 {
		e.p.envModel = slices.Delete(e.p.envModel, i, i+1)
		words := []word{{Value: "GOFLAGS", Static: true}}
		for _, f := range strings.Fields(e.env["GOFLAGS"]) {
			if !strings.HasPrefix(f, "-") {
				return fmt.Sprintf("`GOFLAGS` holds `%s`, which is not a flag", f)
			}
			words = append(words, word{Value: f, Raw: f, Static: true})
		}
		g := goGram(goBuildFlags+" "+goTestFlags, goRoles)
		flags, why := e.parseModel(g, words)
		if why != "" {
			return why
		}
		if why := e.goLinker(flags); why != "" {
			return why
		}
	}
	return e.goLinker(a)
}

// goLinker returns why -ldflags or -compiler make go run a program Warden does not follow, or "".
func (e *exec) goLinker(a *modelArgs) string {
	for _, o := range a.opts {
		v := o.value.Value
		switch o.name {
		case "-ldflags":
			if !o.value.Static || strings.Contains(v, "extld") || strings.Contains(v, "extar") || strings.Contains(v, "-tmpdir") {
				return fmt.Sprintf("`go -ldflags=%s` may run another linker", v)
			}
		case "-compiler":
			if v != "gc" {
				return fmt.Sprintf("`go -compiler=%s` runs another compiler", v)
			}
		case "-asmflags", "-gcflags":
			if !o.value.Static {
				return fmt.Sprintf("`go %s` is given flags only known at run time", o.name)
			}
		}
	}
	return ""
}

// goModuleRoot returns the directory of the go.mod that governs where go runs, or where it runs.
func (e *exec) goModuleRoot() string {
	dir := e.scope().cwd
	for d := dir; d != "" && d != "/"; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
	}
	return dir
}

// goModuleWrites records the files of the module's root a go command rewrites.
func (e *exec) goModuleWrites(files ...string) string {
	if why := e.needCwd("`go`"); why != "" {
		return why
	}
	root := e.goModuleRoot()
	for _, f := range files {
		e.p.Writes = append(e.p.Writes, filepath.Join(root, f))
	}
	return ""
}

// goPackageDirs returns the directories below which go finds the code of the packages it is given
// (./..., ./cmd/x, .); a package named by its import path may be anywhere in the module.
func (e *exec) goPackageDirs(ops []word) ([]string, string) {
	if why := e.needCwd("`go`"); why != "" {
		return nil, why
	}
	if len(ops) == 0 {
		return []string{e.scope().cwd}, ""
	}
	var dirs []string
	for _, w := range ops {
		if !w.Static || w.Glob {
			return nil, fmt.Sprintf("`go` is given `%s`, a package only known at run time", w.Raw)
		}
		v := strings.TrimSuffix(strings.TrimSuffix(w.Value, "..."), "/")
		switch {
		case v == "" || v == "." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "/"):
			if v == "" {
				v = "."
			}
			dir := e.c.abs(v, e.scope())
			if strings.HasSuffix(v, ".go") {
				dir = filepath.Dir(dir)
			}
			dirs = append(dirs, dir)
		default:
			dirs = append(dirs, e.goModuleRoot())
		}
	}
	return dirs, ""
}

// goBuilt judges go build: -o writes a file, or into a directory.
func goBuilt(e *exec, a *modelArgs) string {
	if why := e.goCommon(a); why != "" {
		return why
	}
	if o, ok := a.value("-o"); ok {
		r := rWrite
		if o.Static && (strings.HasSuffix(o.Value, "/") || isDir(e.c.abs(o.Value, e.scope()))) {
			r = rInto
		}
		if why := e.takes(r, o, "`go build -o`"); why != "" {
			return why
		}
	}
	_, why := e.goPackageDirs(a.operands)
	return why
}

// goTested judges go test: it runs the packages' tests (and writes what -o, -c and the profiles name);
// the words after -args go to the test binary.
func goTested(e *exec, a *modelArgs) string {
	if why := e.goCommon(a); why != "" {
		return why
	}
	ops := a.operands
	for i, w := range ops {
		if w.Static && (w.Value == "-args" || w.Value == "--args") {
			ops = ops[:i]
			break
		}
	}
	if o, ok := a.value("-o"); ok {
		if why := e.takes(rWrite, o, "`go test -o`"); why != "" {
			return why
		}
	}
	return e.goRuns(ops)
}

// goRuns records that a go command runs the code of the packages it is given, which import any package
// of the module.
func (e *exec) goRuns(ops []word) string {
	dirs, why := e.goPackageDirs(ops)
	e.p.runsBelow = append(e.p.runsBelow, dirs...)
	if why == "" {
		e.p.runsBelow = append(e.p.runsBelow, e.goModuleRoot())
	}
	return why
}

// goRan judges go run: the files or the package it builds and runs, and the program's arguments, which
// it may read or write.
func goRan(e *exec, a *modelArgs) string {
	if why := e.goCommon(a); why != "" {
		return why
	}
	ops := a.operands
	n := 0
	for n < len(ops) && ops[n].Static && strings.HasSuffix(ops[n].Value, ".go") {
		e.runsFile(ops[n])
		n++
	}
	if n == 0 && len(ops) > 0 {
		if why := e.goRuns(ops[:1]); why != "" {
			return why
		}
		n = 1
	} else if why := e.goRuns(nil); why != "" {
		return why
	}
	return e.each(rHanded, ops[n:], "`go run`")
}

// goGenerated judges go generate: it runs the //go:generate lines of the packages' files.
func goGenerated(e *exec, a *modelArgs) string {
	if why := e.goCommon(a); why != "" {
		return why
	}
	return e.goRuns(a.operands)
}

// goFormatted judges go fmt: gofmt -l -w on the packages' files.
func goFormatted(e *exec, a *modelArgs) string {
	dirs, why := e.goPackageDirs(a.operands)
	for _, d := range dirs {
		e.p.handedReads = append(e.p.handedReads, d)
		e.p.handedWrites = append(e.p.handedWrites, d)
	}
	return why
}

// cargoCommon are the options every cargo command takes (clap: spelled out, no abbreviations).
const cargoCommon = `-h --help -V --version -v --verbose -q --quiet --color= --frozen --locked --offline --config= -Z= -C=`

// cargoBuild are the options of the commands that build (build, check, test, run, bench, doc, clippy).
const cargoBuild = `--release -r --profile= -p= --package= --workspace --all --exclude= --lib --bin= --bins --example=
	--examples --test= --tests --bench= --benches --all-targets -F= --features= --all-features --no-default-features
	--target= --target-dir= --manifest-path= -j= --jobs= --keep-going --message-format= --timings? --ignore-rust-version
	--future-incompat-report --artifact-dir= --lockfile-path=`

var cargoRoles = map[string]role{"--config": rUnseen, "-Z": rUnseen, "-C": rDir, "--target-dir": rInto,
	"--artifact-dir": rInto, "--manifest-path": rScript, "--open": rUnseen, "--lockfile-path": rEdit, "--path": rHanded}

// cargoModel is cargo's model: the commands that build run the package's build scripts and, for test,
// run and bench, its code; those and the configuration cargo reads up the tree (.cargo/config.toml,
// which may name a runner or a linker) are inputs.
func cargoModel() *grammar {
	sub := func(spec string, runs bool) *grammar {
		g := gram(cargoCommon+" "+spec, cargoRoles).with(func(g *grammar) { g.abbrev = false })
		g.judge = func(e *exec, a *modelArgs) string { return e.cargoRuns(a, runs) }
		return g
	}
	build := sub(cargoBuild, false)
	test := sub(cargoBuild+" --no-run --no-fail-fast --doc", true)
	run := sub(cargoBuild, true)
	doc := sub(cargoBuild+" --open --no-deps --document-private-items", false)
	clippy := sub(cargoBuild+" --fix --allow-dirty --allow-staged --no-deps", false)
	fmtG := sub("--all --check -p= --package= --manifest-path= --message-format=", false)
	add := sub(`-F= --features= --optional --no-optional --rename= --dev --build --target= -p= --package= --manifest-path=
		--path= --git= --branch= --tag= --rev= --registry= --dry-run -n --no-default-features --default-features`, false)
	remove := sub("--dev --build --target= -p= --package= --manifest-path= --dry-run -n", false)
	update := sub("-p= --package= --aggressive --recursive --precise= --dry-run -n -w --workspace --manifest-path= --breaking", false)
	g := gram(cargoCommon, cargoRoles).with(func(g *grammar) { g.abbrev = false })
	g.needsSub = true
	g.subs = map[string]*grammar{
		"build": build, "b": build, "check": build, "c": build, "test": test, "t": test, "bench": test, "run": run,
		"r": run, "doc": doc, "d": doc, "clippy": clippy, "fmt": fmtG, "add": add, "remove": remove, "rm": remove,
		"update": update, "fetch": sub("--target= --manifest-path=", false),
		"clean": sub("--release -r --profile= --target-dir= -p= --package= --doc --dry-run -n --manifest-path=", false),
	}
	return &grammar{custom: func(e *exec, words []word) string {
		// `cargo +nightly build`: the first word may pick a toolchain of rustup's.
		if len(words) > 1 && words[1].Static && strings.HasPrefix(words[1].Value, "+") {
			words = append([]word{words[0]}, words[2:]...)
		}
		return e.model(g, words)
	}}
}

// cargoRuns records what a cargo command runs of the package's and reads as configuration; code is the
// package's below where cargo runs, and the arguments after `--` go to the program or the tests.
func (e *exec) cargoRuns(a *modelArgs, runs bool) string {
	if why := e.needCwd("`cargo`"); why != "" {
		return why
	}
	cwd := e.scope().cwd
	e.p.runsBelow = append(e.p.runsBelow, cwd)
	for d := cwd; d != "" && d != "/"; d = filepath.Dir(d) {
		for _, n := range []string{".cargo/config.toml", ".cargo/config", "rust-toolchain.toml", "rust-toolchain"} {
			e.p.inputs = append(e.p.inputs, filepath.Join(d, n))
		}
	}
	if h := e.c.ctx.Home; h != "" {
		e.p.inputs = append(e.p.inputs, filepath.Join(h, ".cargo", "config.toml"), filepath.Join(h, ".cargo", "config"))
	}
	ops := a.operands
	if a.dashdash >= 0 && a.dashdash <= len(ops) {
		if runs {
			if why := e.each(rHanded, ops[a.dashdash:], "`cargo`"); why != "" {
				return why
			}
		}
		ops = ops[:a.dashdash]
	}
	_ = ops // test name filters and package specs: data
	return ""
}
