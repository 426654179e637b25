package models

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-cli/warden/permissions/programs"
	"github.com/warden-cli/warden/permissions/shell"
)

// The models of the programs that write files (coreutils' writers, sed -i, gofmt -w) and of the shell's
// own `source`: every option of GNU coreutils 9 in every spelling getopt_long accepts, and what each
// operand is to the program.

// models are the programs the promise models word by word (grammar.go), by name.
var models = map[string]*grammar{}

func init() {
	for n, g := range map[string]*grammar{
		"tee":    gram("-a --append -i --ignore-interrupts -p --output-error? --help --version", nil).operands(rWrite),
		"touch":  gram("-a -c --no-create -d= --date= -f -h --no-dereference -m -r= --reference= -t= --time= --help --version", nil).operands(rWrite),
		"mkdir":  gram("-m= --mode= -p --parents -v --verbose -Z --context? --help --version", nil).operands(rWrite),
		"rm":     gram("-f --force -i -I --interactive? --one-file-system --no-preserve-root --preserve-root? -r -R --recursive -d --dir -v --verbose --help --version", nil).judging(recursively(0)),
		"rmdir":  gram("--ignore-fail-on-non-empty -p --parents -v --verbose --help --version", nil).operands(rWrite),
		"unlink": gram("--help --version", nil).operands(rWrite),
		"truncate": gram("-c --no-create -o --io-blocks -r= --reference= -s= --size= --help --version", nil).
			operands(rWrite),
		"cp": gram(`-a --archive --attributes-only --backup? -b --copy-contents -d -f --force -i --interactive -H -l --link
			-L --dereference -n --no-clobber -P --no-dereference -p --preserve? --no-preserve= --parents -R -r --recursive
			--reflink? --remove-destination --sparse= --strip-trailing-slashes -s --symbolic-link -S= --suffix= -t=
			--target-directory= -T --no-target-directory -u --update? -v --verbose -x --one-file-system -Z --context?
			--keep-directory-symlink --debug --help --version`, map[string]role{"-t": rInto, "--target-directory": rInto}).
			judging(copies(false)),
		"mv": gram(`--backup? -b -f --force -i --interactive -n --no-clobber --no-copy --strip-trailing-slashes -S= --suffix=
			-t= --target-directory= -T --no-target-directory -u --update? -v --verbose -Z --context --exchange --debug
			--help --version`, map[string]role{"-t": rInto, "--target-directory": rInto}).judging(copies(true)),
		"ln": gram(`--backup? -b -d -F --directory -f --force -i --interactive -L --logical -n --no-dereference -P
			--physical -r --relative -s --symbolic -S= --suffix= -t= --target-directory= -T --no-target-directory -v
			--verbose --help --version`, map[string]role{"-t": rInto, "--target-directory": rInto}).judging(links),
		"install": gram(`--backup? -b -c -C --compare -d --directory -D -g= --group= -m= --mode= -o= --owner= -p
			--preserve-timestamps -s --strip --strip-program= -S= --suffix= -t= --target-directory= -T --no-target-directory
			-v --verbose --preserve-context -Z --context? --debug --help --version`,
			map[string]role{"-t": rInto, "--target-directory": rInto, "--strip-program": rCommand}).judging(installs),
		"chmod": gram(`-c --changes -f --silent --quiet -v --verbose --no-preserve-root --preserve-root --reference= -R
			--recursive --help --version -r -w -x -X -s -t -u -g -o -a`, nil).judging(chmods),
		"chown": gram(`-c --changes -f --silent --quiet -v --verbose --dereference -h --no-dereference --from=
			--no-preserve-root --preserve-root --reference= -R --recursive -H -L -P --help --version`, nil).judging(owners),
		"chgrp": gram(`-c --changes -f --silent --quiet -v --verbose --dereference -h --no-dereference --no-preserve-root
			--preserve-root --reference= -R --recursive -H -L -P --help --version`, nil).judging(owners),
		"sed": gram(`-n --quiet --silent --debug -e= --expression= -f= --file= --follow-symlinks -i? --in-place? -l=
			--line-length= --posix -E -r --regexp-extended -s --separate --sandbox -u --unbuffered -z --null-data --help
			--version`, map[string]role{"-f": rUnseen, "--file": rUnseen}).judging(seds),
		"gofmt": goGram("-l -w -d -s -e -r= -cpuprofile= -trace= -h -help", map[string]role{"-cpuprofile": rWrite, "-trace": rWrite}).
			judging(gofmts),
		// The shell's `source` and `.`: what they run, and what they give the script, UnseenIn records.
		"source": {judge: func(*shell.Exec, *modelArgs) string { return "" }, permute: false},
		".":      {judge: func(*shell.Exec, *modelArgs) string { return "" }, permute: false},
	} {
		models[n] = g
	}
}

// operands returns g with every operand taking the role r.
func (g *grammar) operands(r role) *grammar {
	return g.with(func(g *grammar) { g.operand = r })
}

// judging returns g with the judge f.
func (g *grammar) judging(f func(e *shell.Exec, a *modelArgs) string) *grammar {
	return g.with(func(g *grammar) { g.judge = f })
}

// ModelProgram judges, for the promise, a program that does more than read. With a model of its
// command line that accounts for every word, what the read-only judgement found (a writer is not
// read-only, an option it does not list) is modelled: the part's model is back to what it was before the
// program was judged. Without one, or where the model ends, the part stays unmodelled.
func ModelProgram(e *shell.Exec, n string, words []shell.Word, before, dir string) {
	g, ok := models[n]
	if !ok {
		return
	}
	if e.UnknownTail {
		// xargs appends words only known at run time, which no model can give a role.
		e.P.Unmodel(fmt.Sprintf("`xargs %s` gives it more words at run time", n))
		return
	}
	// The model reads the words from the start, directory changes (git -C) included. It judges for the
	// promise only: what accept-edits may allow the read-only judgement said.
	e.Dir = dir
	editOnly := e.P.EditOnly
	defer func() { e.P.EditOnly = editOnly }()
	why := model(e, g, words)
	if sourceTools[n] {
		// A source tool given a directory reads below it what git does not ignore.
		sourceDirs(e)
	}
	if why != "" {
		if why != keepReason || e.P.Unmodelled == "" {
			e.P.Unmodelled = ""
			e.P.Unmodel(strings.Replace(why, keepReason, "not modelled", 1))
		}
		return
	}
	e.P.Unmodelled = before
}

// keepReason is what a model returns when the read-only judgement's reason says best why it ends.
const keepReason = "\x00"

// each applies the role r to words, and returns why Warden cannot follow one, or "".
func each(e *shell.Exec, r role, words []shell.Word, what string) string {
	for _, w := range words {
		if why := takes(e, r, w, what); why != "" {
			return why
		}
	}
	return ""
}

// destination applies what a copy does to its last operand, given the sources it copies: into an
// existing directory it writes each source's name there (and, recursive, anything below it); else it
// writes the operand itself.
func destination(e *shell.Exec, dest shell.Word, sources []shell.Word, recursive bool, what string) string {
	if !dest.Static || dest.Glob {
		return takes(e, rWrite, dest, what)
	}
	dir := e.S.Abs(dest.Value, e.Scope())
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || !filepath.IsAbs(dir) {
		return takes(e, rWrite, dest, what)
	}
	for _, s := range sources {
		if !s.Static {
			e.P.Loose = append(e.P.Loose, shell.LoosePath{Dir: dir, Access: shell.Writing, Shown: s.Raw})
			continue
		}
		names, why := expanded(e, s, what)
		if why != "" {
			return why
		}
		for _, n := range names {
			target := filepath.Join(dir, filepath.Base(n))
			e.P.Writes = append(e.P.Writes, target)
			if recursive {
				e.P.HandedWrites = append(e.P.HandedWrites, target)
			}
		}
	}
	return ""
}

// copies judges cp (move false) and mv: with -t every operand is a source; with -T the last is the
// file written; otherwise the last is written, or, a directory, written into. Sources are read; mv
// removes them too.
func copies(move bool) func(e *shell.Exec, a *modelArgs) string {
	return func(e *shell.Exec, a *modelArgs) string {
		what := fmt.Sprintf("`%s`", a.words[0].Value)
		sources := a.operands
		source := rRead
		if move {
			source = rEdit
		}
		recursive := move || a.has("-a", "--archive", "-r", "-R", "--recursive")
		if _, ok := a.value("-t", "--target-directory"); ok {
			return each(e, source, sources, what)
		}
		if len(sources) < 2 {
			return each(e, source, sources, what)
		}
		dest := sources[len(sources)-1]
		sources = sources[:len(sources)-1]
		if why := each(e, source, sources, what); why != "" {
			return why
		}
		if a.has("--parents") {
			return takes(e, rInto, dest, what)
		}
		if recursive {
			// A directory copied or moved to a new name is written below it.
			for _, s := range sources {
				if !s.Static || s.Glob || isDir(e.S.Abs(s.Value, e.Scope())) {
					if why := takes(e, rInto, dest, what); why != "" {
						return why
					}
					break
				}
			}
		}
		if a.has("-T", "--no-target-directory") {
			return takes(e, rWrite, dest, what)
		}
		return destination(e, dest, sources, recursive, what)
	}
}

// links judges ln: the targets are only named (a later read through the link is a read of where it
// leads, the engine's unseen_fresh.go); the link names are written.
func links(e *shell.Exec, a *modelArgs) string {
	what := "`ln`"
	if _, ok := a.value("-t", "--target-directory"); ok || len(a.operands) < 2 {
		if len(a.operands) == 1 && !ok {
			// `ln -s TARGET` makes a link of the target's name here.
			return destination(e, shell.Word{Value: ".", Raw: ".", Static: true}, a.operands, false, what)
		}
		return ""
	}
	dest := a.operands[len(a.operands)-1]
	if a.has("-T", "--no-target-directory") {
		return takes(e, rWrite, dest, what)
	}
	return destination(e, dest, a.operands[:len(a.operands)-1], false, what)
}

// installs judges install: -d makes its operands as directories; otherwise it copies like cp.
func installs(e *shell.Exec, a *modelArgs) string {
	if a.has("-d", "--directory") {
		return each(e, rWrite, a.operands, "`install -d`")
	}
	return copies(false)(e, a)
}

// chmods judges chmod: the first operand is the mode, unless --reference names the file to take it from
// or the mode was given as options (`chmod -w x`).
func chmods(e *shell.Exec, a *modelArgs) string {
	ops := a.operands
	modeOpt := false
	for _, o := range a.opts {
		if len(o.name) == 2 && strings.ContainsRune("rwxXstugoa", rune(o.name[1])) {
			modeOpt = true
		}
	}
	if _, ok := a.value("--reference"); !ok && !modeOpt && len(ops) > 0 {
		ops = ops[1:]
	}
	return recursively(0)(e, &modelArgs{words: a.words, opts: a.opts, operands: ops})
}

// owners judges chown and chgrp: the first operand is the owner, unless --reference gives it.
func owners(e *shell.Exec, a *modelArgs) string {
	ops := a.operands
	skip := 0
	if _, ok := a.value("--reference"); !ok && len(ops) > 0 {
		skip = 1
	}
	return recursively(skip)(e, a)
}

// recursively judges a writer whose operands after the first skip are written, and, with -R or -r, what
// is below those that are directories.
func recursively(skip int) func(e *shell.Exec, a *modelArgs) string {
	return func(e *shell.Exec, a *modelArgs) string {
		what := fmt.Sprintf("`%s`", a.words[0].Value)
		ops := a.operands
		if len(ops) < skip {
			return ""
		}
		ops = ops[skip:]
		if why := each(e, rWrite, ops, what); why != "" {
			return why
		}
		if !a.has("-r", "-R", "--recursive") {
			return ""
		}
		for _, w := range ops {
			if w.Static && !w.Glob && isDir(e.S.Abs(w.Value, e.Scope())) {
				if why := takes(e, rInto, w, what); why != "" {
					return why
				}
			}
		}
		return ""
	}
}

// seds judges sed: the script is the first operand unless -e gave one; the files are read, and with
// -i rewritten. What the script does (e, w, r commands) UnseenIn judges.
func seds(e *shell.Exec, a *modelArgs) string {
	ops := a.operands
	var scripts []string
	for _, o := range a.opts {
		if o.name == "-e" || o.name == "--expression" {
			scripts = append(scripts, o.value.Value)
		}
	}
	if len(scripts) == 0 && len(ops) > 0 {
		scripts, ops = append(scripts, ops[0].Value), ops[1:]
	}
	// The script, with its options read as sed reads them (--expr is --expression).
	if why := programs.SedScriptReadOnly(strings.Join(scripts, "\n")); why != "" {
		e.P.Unsee(shell.UnseenInlineCode, why)
	}
	r := rRead
	if a.has("-i", "--in-place") {
		r = rEdit
	}
	return each(e, r, ops, "`sed`")
}

// gofmts judges gofmt: with -w it rewrites the files it is given, and the Go files below a directory.
func gofmts(e *shell.Exec, a *modelArgs) string {
	if !a.has("-w") {
		return each(e, rRead, a.operands, "`gofmt`")
	}
	for _, w := range a.operands {
		r := rEdit
		if p := e.S.Abs(w.Value, e.Scope()); w.Static && isDir(p) {
			r = rHanded
		}
		if why := takes(e, r, w, "`gofmt -w`"); why != "" {
			return why
		}
	}
	return ""
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
