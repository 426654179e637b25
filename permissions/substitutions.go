package permissions

// File names given by a command substitution: `wc -l $(git ls-files)` reads the files git tracks,
// `grep -n x $(find src -name '*.go')` the files find prints. The substitution's output is split at
// blanks and each field may be expanded as a glob or taken as an option, so the names are only known
// when every one is free of blanks, wildcards and a leading dash.

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// substFiles judges a file operand made of a command substitution alone. It records what the program
// reads and reports true when the substitution's command is one whose output is known to be file names
// that can be listed: git ls-files, git diff --name-only, find printing names, rg and grep listing
// files. Anything else is false: the operand stays only known at run time.
func (e *exec) substFiles(w word) bool {
	r, ok := e.c.substParts[w.Subst]
	if !ok || r[1]-r[0] != 1 || len(w.Subst.Stmts) != 1 || len(w.Subst.Stmts[0].Redirs) > 0 {
		return false
	}
	src := &e.c.parts[r[0]]
	if !src.ReadOnly || src.Secret || !src.Static || len(src.Layers) != 1 || len(src.Args) == 0 || src.called == "" ||
		e.c.defined[src.Args[0]] {
		return false
	}
	switch src.Args[0] {
	case "git":
		return e.gitNames(src)
	case "find":
		if len(src.lists) == 0 {
			return false
		}
		for _, t := range src.lists {
			t.subst = true
			e.treeRead(t.dir, t)
		}
		return true
	case "rg", "grep", "egrep", "fgrep":
		listed, files := listsFiles(src.Args)
		if !listed {
			return false
		}
		ts := src.trees
		if files {
			ts = src.lists
		}
		for _, t := range ts {
			t.subst = true
			e.treeRead(t.dir, t)
		}
		for _, p := range src.Reads {
			if !substSafe(filepath.Base(p)) {
				e.p.notRO(fmt.Sprintf("`%s` has a blank, a wildcard or a leading dash in its name, which the shell splits or expands", p))
			}
			e.c.read(e.p, p, e.scope())
		}
		return true
	}
	return false
}

// listOnly are the options that leave rg's and grep's output a list of names, one a line: what to
// match, where to look, and which files to take.
var listOnly = map[string]bool{
	"-l": true, "--files-with-matches": true, "--files-without-match": true, "--files": true,
	"-r": true, "-R": true, "--recursive": true, "--dereference-recursive": true, "-i": true, "--ignore-case": true,
	"-w": true, "--word-regexp": true, "-F": true, "--fixed-strings": true, "-E": true, "--extended-regexp": true,
	"-e": true, "--regexp": true, "-s": true, "--no-messages": true, "-I": true, "--include": true, "--exclude": true,
	"--exclude-dir": true, "-g": true, "--glob": true, "--iglob": true, "-t": true, "--type": true, "-T": true,
	"--type-not": true, "--hidden": true, "-.": true, "-u": true, "-S": true, "--smart-case": true, "-P": true,
	"--pcre2": true, "--max-depth": true, "--sort": true, "--sortr": true, "-v": true, "--invert-match": true,
	"--follow": true, "--no-ignore": true, "--no-ignore-vcs": true, "--no-ignore-dot": true, "--no-ignore-parent": true,
}

// listsFiles reports whether rg or grep prints only file names (-l, --files, --files-without-match; for
// grep -L too), one a line, with no option that prints anything else or joins them (-c, -o, --null,
// --path-separator, --json...). files is set for rg --files, whose names come from its listing.
func listsFiles(args []string) (listed, files bool) {
	sp := grepSpec
	rg := args[0] == "rg"
	if rg {
		sp = rgSpec
	}
	words := make([]word, len(args))
	for i, a := range args {
		words[i] = word{Value: a, Static: true}
	}
	a, _ := sp.parse(words)
	for _, f := range a.flags {
		switch {
		case f.name == "-L" && !rg, f.name == "-l", f.name == "--files-with-matches", f.name == "--files-without-match":
			listed = true
		case f.name == "--files" && rg:
			listed, files = true, true
		case f.name == "-L" && rg:
		case !listOnly[f.name]:
			return false, false
		}
	}
	return listed, files
}

// substSafe reports whether a name comes out of a command substitution as itself: no blank (split), no
// wildcard (expanded) and no leading dash (an option).
func substSafe(name string) bool {
	return !strings.ContainsAny(name, " \t\n*?[") && !strings.HasPrefix(name, "-")
}

// gitNames handles `git ls-files` (the tracked files below the directory, relative to it) and, at the
// work tree's top, `git diff --name-only` (files of the index and the history): the program reads those
// files, looked at in the repository's lists.
func (e *exec) gitNames(src *Part) bool {
	args := src.Args[1:]
	if len(args) == 0 {
		return false
	}
	dir := src.dir
	if dir == "" {
		return false
	}
	sub, rest := args[0], args[1:]
	history := false
	var specs []string
	switch sub {
	case "ls-files":
		for _, a := range rest {
			switch {
			case a == "-c" || a == "--cached" || a == "-m" || a == "--modified" || a == "-d" || a == "--deleted" || a == "--":
			case strings.HasPrefix(a, "-"):
				return false // -o, -s, -t, -z and the rest print other things
			default:
				specs = append(specs, a)
			}
		}
	case "diff":
		names := false
		for _, a := range rest {
			switch {
			case a == "--name-only":
				names = true
			case a == "--cached" || a == "--staged" || a == "--" || strings.HasPrefix(a, "--diff-filter="):
			case strings.HasPrefix(a, "-"):
				return false
			}
			// Any other word is a revision or a path, and narrows nothing: the names may be any the
			// repository holds.
		}
		if !names {
			return false
		}
		history = true
	default:
		return false
	}
	r, ok := e.c.workTree(dir)
	if !ok || sub == "diff" && ResolvePath("/", r.Top, "") != ResolvePath("/", dir, "") {
		// git diff prints names relative to the top, read relative to the directory.
		return false
	}
	rel, err := filepath.Rel(r.Top, dir)
	if err != nil {
		return false
	}
	var matchers []*regexp.Regexp
	for _, sp := range specs {
		if strings.HasPrefix(sp, ":") || strings.Contains(sp, "..") {
			return false // pathspec magic, or a path outside the directory
		}
		full := filepath.ToSlash(filepath.Join(rel, sp))
		if rel == "." {
			full = filepath.ToSlash(filepath.Clean(sp))
		}
		matchers = append(matchers, pathspecRegexp(full))
	}
	files, reason := e.gitRepoFiles(r, history)
	if reason != "" {
		e.p.notRO(reason)
		return true
	}
	var listed []string
	for _, f := range files {
		if f != filepath.Clean(f) || filepath.IsAbs(f) || f == ".." || strings.HasPrefix(f, "../") {
			// An index git did not write: the name leads out of the work tree.
			e.p.notRO(fmt.Sprintf("the index lists `%s`, a name that leaves the work tree", f))
			return true
		}
		if rel != "." && !strings.HasPrefix(f, rel+"/") {
			continue
		}
		if len(matchers) > 0 && !slices.ContainsFunc(matchers, func(m *regexp.Regexp) bool { return m.MatchString(f) }) {
			continue
		}
		if !substSafe(filepath.Base(f)) || strings.ContainsAny(f, " \t\n*?[\"\\") {
			e.p.notRO(fmt.Sprintf("`%s` has a blank, a wildcard, a quote or a leading dash in its name, which the shell splits or expands", f))
			return true
		}
		listed = append(listed, f)
	}
	e.treeRead(dir, treeRead{hidden: true, repo: r.Top, index: true, tracked: listed, named: true})
	return true
}

// pathspecRegexp compiles a git pathspec (relative to the top) the way git matches one by default: a
// wildcard matches across slashes, and a plain path matches itself and everything below it.
func pathspecRegexp(spec string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	wild := false
	for i := 0; i < len(spec); i++ {
		switch c := spec[i]; c {
		case '*':
			b.WriteString(".*")
			wild = true
		case '?':
			b.WriteString(".")
			wild = true
		case '[':
			end := strings.IndexByte(spec[i+1:], ']')
			if end < 0 {
				b.WriteString(regexp.QuoteMeta("["))
				continue
			}
			class := spec[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
			wild = true
		case '\\':
			if i+1 < len(spec) {
				i++
				b.WriteString(regexp.QuoteMeta(string(spec[i])))
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if !wild {
		b.WriteString("(/.*)?")
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(".*")
	}
	return re
}
