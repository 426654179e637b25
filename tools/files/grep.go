package files

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/warden-cli/warden/gitrepo"
	"github.com/warden-cli/warden/hostexec"
	"github.com/warden-cli/warden/secrets"
	"github.com/warden-cli/warden/tools"
)

// grep searches file contents by regular expression. Which files are searched is decided here, once, for
// both searchers: the listing glob uses (git's view of the tree, .git and symlinks skipped), narrowed by
// the glob parameter, minus binary files (a NUL or too many control bytes in the first 8000 bytes). rg,
// when it is on PATH, only matches lines in that list of files; without it Go's regexp does the same
// work. Both results go through the same formatting: `file:line:text`, sorted by file and line, lines
// cut at 500 bytes, capped at 200 matches. What can still differ is the regex dialects' edge: rg's \w,
// \d, \s and \b know Unicode where Go's match ASCII only; a byte that is not UTF-8 matches . and
// negated classes in Go but nothing in rg; and the Go searcher skips lines over 16 MB.

type grepParams struct {
	Pattern    string `json:"pattern" desc:"The regular expression to search for (RE2/ripgrep syntax: escape literal ( ) [ ] { } . * + ? | ^ $ \\ with a backslash). Matched against one line at a time."`
	Path       string `json:"path,omitempty" desc:"The file or directory to search (default: the current directory)."`
	Glob       string `json:"glob,omitempty" desc:"Only search files matching this glob, such as *.go or src/**/*.{ts,tsx}. A glob without / matches file names at any depth; a leading ! excludes the files that match."`
	IgnoreCase bool   `json:"ignore_case,omitempty" desc:"Match letters regardless of case (default false)."`
}

const grepDescription = `Searches file contents with a regular expression and lists matching lines as file:line:text, sorted by file and line.

- The pattern is a regular expression (RE2/ripgrep syntax), matched line by line; escape special characters for a literal search ("func main\\(").
- Narrow the files with path and glob ("*.go", "**/*_test.go", "*.{ts,tsx}"); set ignore_case for case-insensitive search.
- Skips .git, binary files, files that may hold secrets or that the user's Read rules deny or ask about, under any of their names (the output says how many), and, inside a git repository, files git ignores. Symlinks are not followed.
- At most 200 matches are shown, and lines are cut at 500 bytes; the output says how many more there were.
- Prefer this over grep or rg in bash. To find files by name, use glob.`

const (
	grepMaxResults = 200
	// grepMaxLine is the longest line the Go searcher matches; longer lines are skipped.
	grepMaxLine = 16 << 20
	// rgArgBytes bounds the file names given to one rg process, well below the kernel's argument limit.
	rgArgBytes = 96 << 10
)

// rgProgram is the ripgrep executable looked up with Env.Programs; tests point it elsewhere to force the
// fallback.
var rgProgram = "rg"

type grepSearch struct {
	root  searchRoot
	re    *regexp.Regexp
	rgArg []string // the pattern's flags for rg
	glob  string
}

func grepTool() tools.Tool {
	return tools.New(tools.Spec[grepParams]{
		Name:        "grep",
		Description: grepDescription,
		Access: func(env *tools.Env, p *grepParams) (tools.Access, error) {
			g, err := planGrep(env, p)
			if err != nil {
				return tools.Access{}, err
			}
			summary := strconv.Quote(p.Pattern)
			if g.root.Display != "." {
				summary += " in " + g.root.Display
			}
			if p.Glob != "" {
				summary += " (" + p.Glob + ")"
			}
			return fileAccess(env, tools.AccessRead, g.root.filePath, summary), nil
		},
		Run: runGrep,
	})
}

func planGrep(env *tools.Env, p *grepParams) (grepSearch, error) {
	if p.Pattern == "" {
		return grepSearch{}, errors.New("pattern is empty; give a regular expression to search for")
	}
	expr := p.Pattern
	args := []string{"-e", p.Pattern}
	if p.IgnoreCase {
		expr = "(?i)" + expr
		args = append(args, "--ignore-case")
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return grepSearch{}, fmt.Errorf("pattern is not a valid regular expression: %v", err)
	}
	if p.Glob != "" && !doublestar.ValidatePattern(strings.TrimPrefix(p.Glob, "!")) {
		return grepSearch{}, fmt.Errorf("glob %q is not a valid pattern (check brackets and braces)", p.Glob)
	}
	root, err := resolveRoot(env, p.Path)
	if err != nil {
		return grepSearch{}, err
	}
	return grepSearch{root: root, re: re, rgArg: args, glob: p.Glob}, nil
}

// grepMatch is one matching line.
type grepMatch struct {
	file string
	line int
	text string
}

func runGrep(ctx context.Context, env *tools.Env, call tools.Call, p *grepParams) tools.Result {
	g, err := planGrep(env, p)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	fi, err := os.Stat(g.root.Abs)
	if err != nil {
		return tools.Errorf("cannot search %s: %v", g.root.Shown, unwrapPathError(err))
	}
	dir, files, stopped, left, notListed := g.root.Abs, []string(nil), false, withheld{}, ""
	if fi.IsDir() {
		l, err := listFiles(ctx, env, dir)
		if err != nil {
			return tools.Errorf("cannot list %s: %v", g.root.Shown, unwrapPathError(err))
		}
		files, stopped, notListed = filterGlob(l.Files, g.glob), l.Stopped, leftOut(l, "searched")
		files, left = withhold(env, dir, files)
	} else if fi.Mode().IsRegular() {
		// A file named on its own is searched even when git ignores it.
		dir, files = filepath.Dir(g.root.Abs), []string{filepath.Base(g.root.Abs)}
	} else {
		return tools.Errorf("%s is not a regular file or directory", g.root.Shown)
	}
	c := newGrepCollector(dir)
	if !rgSearch(ctx, env, g, dir, files, c) {
		c = newGrepCollector(dir)
		goSearch(ctx, g, dir, files, c)
	}
	if err := ctx.Err(); err != nil {
		return tools.Result{Output: "grep was interrupted.", IsError: true, Interrupted: true}
	}
	if !fi.IsDir() {
		// Name the file as the model did, not by its base name.
		for i := range c.keep {
			c.keep[i].file = g.root.Display
		}
	}
	return tools.Result{Output: c.format(g, p, stopped) + left.note() + notListed}
}

// withheld counts the files a search of a directory left out: those that may hold secrets, those a Read
// rule denies or asks about (by rule), and those with other names (hard links) not all found.
type withheld struct {
	secrets, unsearched int
	denied, asked       map[string]int
}

// withhold drops the files whose content reading them on their own would not show at once: files that
// may hold secrets (.env, keys, and a program's configuration holding a credential: a .yarnrc.yml with a
// token, a bare repository's config with an extraHeader, which read_file and cat ask about although the
// jail leaves them to git and yarn), and files a Read deny or ask rule covers, under any of their names.
// A file named on its own was decided by the engine.
func withhold(env *tools.Env, dir string, files []string) ([]string, withheld) {
	w := withheld{denied: map[string]int{}, asked: map[string]int{}}
	if env.Secret == nil && env.SearchRule == nil {
		return files, w
	}
	// The judgement by content, with a judge and a git reader of this search's own: a listing holds a
	// few files judged so (start-up files, yarn's and git's configuration) if any.
	judge, git := secrets.NewJudge(), gitrepo.NewReader()
	secret := func(p string) bool {
		return env.Secret != nil && (env.Secret(p) || judge.Holds(p, git.FileHoldsCredential))
	}
	links, complete := map[string][]string(nil), true
	if env.HardLinks != nil {
		abs := make([]string, len(files))
		for i, f := range files {
			abs[i] = filepath.Join(dir, filepath.FromSlash(f))
		}
		links, complete = env.HardLinks(abs)
	}
	kept := files[:0:0]
files:
	for _, f := range files {
		abs := filepath.Join(dir, filepath.FromSlash(f))
		others, linked := links[abs]
		if linked && !complete {
			w.unsearched++
			continue
		}
		for _, name := range append([]string{abs}, others...) {
			if secret(name) {
				w.secrets++
				continue files
			}
			if env.SearchRule != nil {
				if rule, ask := env.SearchRule(name); rule != "" {
					if ask {
						w.asked[rule]++
					} else {
						w.denied[rule]++
					}
					continue files
				}
			}
		}
		kept = append(kept, f)
	}
	return kept, w
}

// note says what was left out and how the model may go on.
func (w withheld) note() string {
	var b strings.Builder
	if w.secrets > 0 {
		fmt.Fprintf(&b, "\n(%s not searched; read one with read_file, which asks the user)",
			countNoun(w.secrets, "file that may hold secrets was", "files that may hold secrets were"))
	}
	if w.unsearched > 0 {
		fmt.Fprintf(&b, "\n(%s not searched: %s other names (hard links) that Warden could not all look for; read_file asks the user)",
			countNoun(w.unsearched, "file was", "files were"), map[bool]string{true: "it has", false: "they have"}[w.unsearched == 1])
	}
	them := func(n int) string { return map[bool]string{true: "it", false: "them"}[n == 1] }
	for _, rule := range slices.Sorted(maps.Keys(w.denied)) {
		n := w.denied[rule]
		fmt.Fprintf(&b, "\n(%s not searched: `%s` denies reading %s)", countNoun(n, "file was", "files were"), rule, them(n))
	}
	for _, rule := range slices.Sorted(maps.Keys(w.asked)) {
		n := w.asked[rule]
		fmt.Fprintf(&b, "\n(%s not searched: `%s` asks the user before %s read; read_file asks them)",
			countNoun(n, "file was", "files were"), rule, map[bool]string{true: "it is", false: "they are"}[n == 1])
	}
	return b.String()
}

// filterGlob keeps the files matching glob: against the base name when glob has no slash (as rg and
// .gitignore do), against the whole relative path when it has one. A leading ! keeps those that do not
// match, as in rg.
func filterGlob(files []string, glob string) []string {
	if glob == "" {
		return files
	}
	glob, negate := strings.CutPrefix(glob, "!")
	var out []string
	for _, f := range files {
		name := f
		if !strings.Contains(glob, "/") {
			name = path.Base(f)
		}
		if ok, _ := doublestar.Match(glob, name); ok != negate {
			out = append(out, f)
		}
	}
	return out
}

// grepCollector keeps the first grepMaxResults matches in (file, line) order and counts the rest.
// Matches from binary files are dropped, so that rg (which is told to search everything as text) and the
// Go searcher agree.
type grepCollector struct {
	dir    string
	mu     sync.Mutex
	keep   []grepMatch
	total  int
	files  map[string]bool // file -> is binary; a text file here has had a match
	nfiles int
}

func newGrepCollector(dir string) *grepCollector {
	return &grepCollector{dir: dir, files: map[string]bool{}}
}

func (c *grepCollector) add(m grepMatch) {
	c.mu.Lock()
	defer c.mu.Unlock()
	bin, seen := c.files[m.file]
	if !seen {
		bin = fileIsBinary(c.dir, m.file)
		c.files[m.file] = bin
		if !bin {
			c.nfiles++
		}
	}
	if bin {
		return
	}
	c.total++
	c.keep = append(c.keep, m)
	if len(c.keep) >= 4*grepMaxResults {
		c.trim()
	}
}

// markText records a file the Go searcher already found to be text, sparing a second look.
func (c *grepCollector) markText(file string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.files[file]; !ok {
		c.files[file] = false
		c.nfiles++
	}
}

func (c *grepCollector) trim() {
	slices.SortFunc(c.keep, func(a, b grepMatch) int {
		if n := strings.Compare(a.file, b.file); n != 0 {
			return n
		}
		return a.line - b.line
	})
	c.keep = c.keep[:min(len(c.keep), grepMaxResults)]
}

func (c *grepCollector) format(g grepSearch, p *grepParams, stopped bool) string {
	c.trim()
	var b strings.Builder
	if c.total == 0 {
		fmt.Fprintf(&b, "No matches for %s", strconv.Quote(p.Pattern))
		if g.root.Display != "." {
			fmt.Fprintf(&b, " in %s", g.root.Display)
		}
		if p.Glob != "" {
			fmt.Fprintf(&b, " (files matching %s)", p.Glob)
		}
		b.WriteString(".")
	} else {
		for _, m := range c.keep {
			fmt.Fprintf(&b, "%s:%d:%s\n", m.file, m.line, m.text)
		}
		if c.total > len(c.keep) {
			fmt.Fprintf(&b, "(%s of %s matches shown, in %s; %s more not shown: narrow the pattern, path or glob%s)",
				tools.Commas(int64(len(c.keep))), tools.Commas(int64(c.total)), countNoun(c.nfiles, "file", "files"),
				tools.Commas(int64(c.total-len(c.keep))), g.root.relNote())
		} else {
			fmt.Fprintf(&b, "(%s in %s%s)", countNoun(c.total, "match", "matches"), countNoun(c.nfiles, "file", "files"), g.root.relNote())
		}
	}
	if stopped {
		fmt.Fprintf(&b, "\n(the search stopped after %s files; give a narrower path)", tools.Commas(maxListed))
	}
	return b.String()
}

// fileIsBinary reads the start of the file name of dir to tell whether it is binary. A file that cannot
// be read counts as binary: there is nothing of it to show.
func fileIsBinary(dir, name string) bool {
	f, err := openListed(dir, name)
	if err != nil {
		return true
	}
	defer f.Close()
	head := make([]byte, sniffSize)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return true
	}
	return isBinary(head[:n])
}

// grepText is a matched line (without its line ending) as shown: cut at grepLineMax bytes. The mark
// does not say how much was cut, because rg only reports the start of very long lines.
func grepText(line []byte) string {
	if len(line) <= grepLineMax {
		return strings.ToValidUTF8(string(line), "\uFFFD")
	}
	s := cutLine(line, grepLineMax, 0)
	if i := strings.LastIndex(s, " … [line cut:"); i >= 0 {
		s = s[:i]
	}
	return s + " … [line cut]"
}

// rgSearch runs rg over files in batches and adds its matches to c. It reports false when rg is not
// installed (outside the workspace: a project's rg is not Warden's) or failed without output, and the Go
// searcher should do the work instead. rg gets the environment commands get, without Warden's secrets.
func rgSearch(ctx context.Context, env *tools.Env, g grepSearch, dir string, files []string, c *grepCollector) bool {
	rg, err := env.Finder().Find(rgProgram)
	if err != nil {
		return false
	}
	// Warden's own helper: the allow-list alone, not what the settings pass to commands.
	childEnv := env.HelperEnv()
	// --text and --encoding none make rg look at bytes as the Go searcher does (binary files are
	// dropped by the collector); --crlf lets $ match before \r\n as it does after the Go searcher strips
	// \r; previews of very long lines keep far more than grepLineMax bytes.
	base := []string{"--no-config", "--text", "--encoding", "none", "--crlf", "--no-heading", "--with-filename",
		"--line-number", "--null", "--color", "never", "--max-columns", "4096", "--max-columns-preview"}
	base = append(base, g.rgArg...)
	for len(files) > 0 {
		n, size := 0, 0
		for n < len(files) && (n == 0 || size+len(files[n])+1 <= rgArgBytes) {
			size += len(files[n]) + 1
			n++
		}
		batch := files[:n]
		files = files[n:]
		args := append(append(slices.Clone(base), "--"), batch...)
		if !rgBatch(ctx, rg, childEnv, dir, args, c) {
			return false
		}
	}
	return true
}

func rgBatch(ctx context.Context, rg hostexec.Program, env []string, dir string, args []string, c *grepCollector) bool {
	cmd := hostexec.Command(ctx, rg, env, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return false
	}
	if err := cmd.Start(); err != nil {
		return false
	}
	br := bufio.NewReaderSize(out, 64<<10)
	got := false
	for {
		line, err := readRgLine(br)
		if len(line) > 0 {
			if m, ok := parseRgLine(line); ok {
				got = true
				c.add(m)
			}
		}
		if err != nil {
			break
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return true // no match
	case errors.As(err, &exit) && exit.ExitCode() == 2 && got:
		return true // some files could not be read (removed since the listing, say)
	}
	return ctx.Err() != nil
}

// readRgLine reads one output line of rg, keeping at most 64 KB of it (rg's previews are far shorter).
func readRgLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line) < 64<<10 {
			line = append(line, chunk[:min(len(chunk), 64<<10-len(line))]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

// parseRgLine reads "file\0line:text" as rg prints it with --null.
func parseRgLine(b []byte) (grepMatch, bool) {
	file, rest, ok := bytes.Cut(b, []byte{0})
	if !ok {
		return grepMatch{}, false
	}
	num, text, ok := bytes.Cut(rest, []byte{':'})
	if !ok {
		return grepMatch{}, false
	}
	n, err := strconv.Atoi(string(num))
	if err != nil {
		return grepMatch{}, false
	}
	// rg ends every line it prints with \r\n or \n (adding one to a file's last line if need be).
	text = bytes.TrimSuffix(bytes.TrimSuffix(text, []byte{'\n'}), []byte{'\r'})
	return grepMatch{file: string(file), line: n, text: grepText(text)}, true
}

// goSearch matches the files with Go's regexp, a few at a time.
func goSearch(ctx context.Context, g grepSearch, dir string, files []string, c *grepCollector) {
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(files), 1), 8) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := bufio.NewReaderSize(nil, 64<<10)
			for f := range work {
				goSearchFile(ctx, g.re, dir, f, buf, c)
			}
		}()
	}
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		work <- f
	}
	close(work)
	wg.Wait()
}

func goSearchFile(ctx context.Context, re *regexp.Regexp, dir, name string, br *bufio.Reader, c *grepCollector) {
	f, err := openListed(dir, name)
	if err != nil {
		return
	}
	defer f.Close()
	br.Reset(f)
	head, _ := br.Peek(sniffSize)
	if isBinary(head) {
		return
	}
	var line []byte
	for n := 1; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return
		}
		line = line[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !tooLong && len(line)+len(chunk) <= grepMaxLine {
				line = append(line, chunk...)
			} else {
				tooLong = true
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if len(line) == 0 && err != nil {
			return
		}
		text := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
		if !tooLong && re.Match(text) {
			c.markText(name)
			c.add(grepMatch{file: name, line: n, text: grepText(text)})
		}
		if err != nil {
			return
		}
	}
}
