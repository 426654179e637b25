package permissions

// Pipelines, and the file names xargs is fed: `find src -name '*.go' | xargs grep -l x` reads the files
// find prints, which Warden can list; `ls | xargs cat` reads names it cannot see, and asks.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/programs"
	"github.com/warden-cli/warden/permissions/shell"
	"mvdan.cc/sh/v3/syntax"
)

// pipeline classifies each stage of `a | b | c` in a subshell of its own, then judges what the stages
// that read file names from their input (xargs cat) are fed.
func (c *classifier) pipeline(lv *shell.Level, n *syntax.BinaryCmd, sc *shell.Scope) {
	stages := []*syntax.Stmt{n.Y}
	ops := []syntax.BinCmdOperator{n.Op}
	for x := n.X; ; {
		b, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll || x.Negated || x.Background || len(x.Redirs) > 0 {
			stages = append(stages, x)
			break
		}
		stages = append(stages, b.Y)
		ops = append(ops, b.Op)
		x = b.X
	}
	slices.Reverse(stages)
	slices.Reverse(ops)
	bounds := make([]int, len(stages)+1)
	for i, s := range stages {
		bounds[i] = len(c.Parts)
		c.sub(lv, []*syntax.Stmt{s}, sc)
	}
	bounds[len(stages)] = len(c.Parts)
	for i := 1; i < len(stages); i++ {
		// Only the stage's own command reads the pipe, and only when no redirection gives it another
		// input: `echo README.md | xargs cat <<< .env` reads .env, and in `echo x | { ls -A | xargs cat; }`
		// xargs reads ls. A stage's own part is its last: the parts of its words' substitutions come first.
		if _, ok := stages[i].Cmd.(*syntax.CallExpr); !ok || bounds[i] == bounds[i+1] || redirectsInput(stages[i].Redirs) {
			continue
		}
		if p := &c.Parts[bounds[i+1]-1]; p.ReadsInput || p.InputOpts {
			c.pipedNames(lv, p, stages, bounds, ops, i-1)
		}
		if p := &c.Parts[bounds[i+1]-1]; p.ScriptFromInput {
			c.pipedScript(lv, p, stages[i-1], bounds[i-1], bounds[i])
		}
	}
}

// pipedScript reads, for deny and ask rules, what a shell at the end of a pipe runs when the stage
// before it is echo or printf printing words known before running (`echo 'rm -rf x' | sh`).
func (c *classifier) pipedScript(lv *shell.Level, sh *shell.Part, stage *syntax.Stmt, from, to int) {
	if _, ok := stage.Cmd.(*syntax.CallExpr); !ok || to-from == 0 || redirectsOutput(stage.Redirs) {
		return
	}
	src := &c.Parts[to-1]
	if len(src.Args) == 0 || len(src.Layers) != 1 || !src.Static || src.Args[0] != "echo" && src.Args[0] != "printf" {
		return
	}
	body, ok := printedText(src.Args, src.ArgStatic)
	if !ok {
		return
	}
	c.untrustedScript(body, sh.Text, sh.ArgDir, lv.Depth+1, fmt.Sprintf("`%s` runs the commands its input holds", sh.Args[0]))
}

// redirectsInput reports whether redirections may give a command's standard input something other than
// what it inherits: any input redirection (<, <<, <<<, <&, <>, on any descriptor, to be safe) or any
// redirection of descriptor 0.
func redirectsInput(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		switch r.Op {
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			return true
		}
		if r.N != nil && r.N.Value == "0" {
			return true
		}
	}
	return false
}

// redirectsOutput reports whether redirections may send a producer's standard output elsewhere than the
// pipe or mix something else into it: any redirection but one of descriptor 2 to a file.
func redirectsOutput(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.N == nil || r.N.Value != "2" || r.Op != syntax.RdrOut && r.Op != syntax.AppOut && r.Op != syntax.RdrClob {
			return true
		}
	}
	return false
}

// pipedNames judges what `... | xargs cat` reads: the file names come from the stage before it. When that
// stage is echo or printf with words known before running, the names are computed and the command is
// judged again with them as its arguments (they may be options: `echo --files0-from=.env | xargs du`);
// when it is find printing names, they are the files it finds, read like those of find -exec. Lines may
// pass through sort, uniq, head and tail on the way. Any other producer leaves the names unknown, and
// inputNames makes the part ask.
func (c *classifier) pipedNames(lv *shell.Level, p *shell.Part, stages []*syntax.Stmt, bounds []int, ops []syntax.BinCmdOperator, from int) {
	if p.ArgFile {
		return
	}
	for j := from; j >= 0; j-- {
		if ops[j] != syntax.Pipe {
			return // |& mixes error messages into the names
		}
		if _, ok := stages[j].Cmd.(*syntax.CallExpr); !ok || bounds[j] == bounds[j+1] || redirectsOutput(stages[j].Redirs) {
			return
		}
		src := &c.Parts[bounds[j+1]-1]
		// The producer must be the program itself, run directly: not under a wrapper (`xargs echo x` adds
		// its input to what it prints) and not a function of that name, which inputNames checks once every
		// function of the command is known (a loop's next round may call one defined after the pipeline).
		if len(src.Args) == 0 || len(src.ArgStatic) != len(src.Args) || len(src.Layers) != 1 || src.OpenTail {
			return
		}
		p.Producers = append(p.Producers, src.Args[0])
		switch src.Args[0] {
		case "echo", "printf":
			if p.XargsRaw {
				return
			}
			if slices.Contains(src.ArgStatic, false) {
				return
			}
			args, ok := expandedArgs(src, c)
			if !ok {
				return
			}
			out, ok := printedText(args, nil)
			if !ok {
				return
			}
			names, ok := xargsSplit(out)
			if !ok {
				return
			}
			c.withNames(lv, p, names)
			p.NamesKnown = true
			return
		case "find":
			if len(src.Lists) == 0 {
				return
			}
			ex := &shell.Exec{S: &c.State, Lv: lv, Sc: &shell.Scope{Cwd: p.InputDir}, P: p}
			for _, t := range src.Lists {
				t.Split = !p.XargsRaw
				if p.ReadsInput {
					ex.TreeRead(t.Dir, t)
				}
			}
			p.NamesKnown = true
			return
		}
		if !passesLines(src, stages[j]) {
			return
		}
	}
}

// expanded returns the part's words as bash passes them to the program: each glob replaced by the names
// it matches, relative when the pattern is. ok is false when they cannot all be listed, or when a name
// matched may be taken as an option (bash's order of the names is the locale's, not known here).
func expandedArgs(p *shell.Part, c *classifier) ([]string, bool) {
	var out []string
	for i, a := range p.Args {
		if i >= len(p.ArgGlob) || !p.ArgGlob[i] {
			out = append(out, a)
			continue
		}
		if p.ArgDir == "" && !filepath.IsAbs(a) {
			return nil, false
		}
		names, ok := c.ExpandGlob(a, &shell.Scope{Cwd: p.ArgDir})
		if !ok {
			return nil, false
		}
		if len(names) == 1 && names[0] == a {
			out = append(out, a)
			continue
		}
		for _, n := range names {
			if !filepath.IsAbs(a) {
				rel, cut := strings.CutPrefix(n, strings.TrimSuffix(p.ArgDir, "/")+"/")
				if !cut || strings.HasPrefix(a, "./") || strings.Contains(a, "..") || strings.Contains(a, "//") {
					return nil, false
				}
				n = rel
			} else if strings.Contains(a, "..") || strings.Contains(a, "//") || strings.Contains(a, "/./") {
				return nil, false
			}
			// bash sorts the names by the locale's collation, which Warden cannot follow: a name that
			// may be an option, or `--`, could change how the others are taken.
			if strings.HasPrefix(filepath.Base(n), "-") && !filepath.IsAbs(a) && !strings.Contains(a, "/") {
				return nil, false
			}
			out = append(out, n)
		}
	}
	return out, true
}

// passesLines reports whether a pipeline stage only passes on whole lines of its input, so that the file
// names after it are among those before it: sort, uniq and head or tail by lines, with no file operands.
func passesLines(p *shell.Part, s *syntax.Stmt) bool {
	if len(s.Redirs) > 0 || !p.ReadOnly || p.Secret || len(p.Layers) != 1 || p.OpenTail {
		return false
	}
	name := p.Args[0]
	if name != "sort" && name != "uniq" && name != "head" && name != "tail" {
		return false
	}
	words := make([]shell.Word, len(p.Args))
	for i, a := range p.Args {
		words[i] = shell.Word{Value: a, Static: p.ArgStatic[i]}
	}
	a, _ := programs.Lookup(name).Parse(words)
	return len(a.Operands) == 0 && !a.HasOpt("-c", "--bytes", "--count", "--files0-from")
}

// withNames judges p's program again with the names xargs gives it appended to its arguments.
func (c *classifier) withNames(lv *shell.Level, p *shell.Part, names []string) {
	words := make([]shell.Word, 0, len(p.Args)+len(names))
	for i, a := range p.Args {
		words = append(words, shell.Word{Value: a, Raw: a, Static: p.ArgStatic[i]})
	}
	for _, n := range names {
		words = append(words, shell.Word{Value: n, Raw: n, Static: true})
	}
	probe := &shell.Part{Text: p.Text, ReadOnly: true, Static: true}
	ex := &shell.Exec{S: &c.State, Lv: lv, Sc: &shell.Scope{Cwd: p.InputDir}, P: probe}
	c.run(ex, words)
	if !probe.ReadOnly {
		p.NotRO(probe.Reason)
	}
	p.Reads = append(p.Reads, probe.Reads...)
	p.Trees = append(p.Trees, probe.Trees...)
	if probe.Secret && !p.Secret {
		p.Secret = true
		if p.ReadOnly {
			p.Reason = probe.Reason
		}
	}
}

// inputNames makes ask every part that reads files named by its input, or whose input may give it
// options that read files, when pipedNames could not tell what those names are.
func (c *classifier) inputNames() {
	for i := range c.Parts {
		p := &c.Parts[i]
		if !p.ReadsInput && !p.InputOpts {
			continue
		}
		for _, name := range p.Producers {
			if c.Defined[name] {
				p.NotRO(fmt.Sprintf("`%s` feeds `xargs %s` its names, and the command defines a function of that name", name, partName(p)))
			}
		}
		if !p.NamesKnown {
			p.NotRO(fmt.Sprintf("`xargs %s` gets file names from its input, which Warden cannot see", partName(p)))
		}
	}
}

// printedText is what echo or printf prints, when Warden can tell exactly: echo without backslashes (sh's
// echo and echo -e read them as escapes), printf with only %s, %% and the escapes \n, \t and \\.
func printedText(args []string, static []bool) (string, bool) {
	for _, st := range static {
		if !st {
			return "", false
		}
	}
	rest := args[1:]
	if args[0] == "echo" {
		for len(rest) > 0 && len(rest[0]) > 1 && rest[0][0] == '-' && strings.Trim(rest[0][1:], "neE") == "" {
			rest = rest[1:]
		}
		out := strings.Join(rest, " ")
		return out, !strings.Contains(out, `\`)
	}
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	if len(rest) == 0 || strings.HasPrefix(rest[0], "-") {
		return "", false
	}
	format, vals := rest[0], rest[1:]
	var b strings.Builder
	for {
		used := 0
		for i := 0; i < len(format); i++ {
			ch := format[i]
			switch {
			case ch == '%' && i+1 < len(format) && format[i+1] == '%':
				b.WriteByte('%')
				i++
			case ch == '%' && i+1 < len(format) && format[i+1] == 's':
				if used < len(vals) {
					b.WriteString(vals[used])
				}
				used++
				i++
			case ch == '\\' && i+1 < len(format) && strings.IndexByte(`nt\`, format[i+1]) >= 0:
				b.WriteByte(map[byte]byte{'n': '\n', 't': '\t', '\\': '\\'}[format[i+1]])
				i++
			case ch == '%' || ch == '\\':
				return "", false
			default:
				b.WriteByte(ch)
			}
		}
		if used == 0 || used >= len(vals) {
			return b.String(), true
		}
		vals = vals[used:]
	}
}

// xargsSplit splits xargs's input the way it does by default, at blanks and newlines. Quotes and
// backslashes, which xargs removes, make the names unknown.
func xargsSplit(s string) ([]string, bool) {
	if strings.ContainsAny(s, `'"\`) {
		return nil, false
	}
	return strings.Fields(s), true
}
