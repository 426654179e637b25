package ignore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/warden-cli/warden/cache"
	"github.com/warden-cli/warden/safefile"
)

// Source is one place ignore patterns come from.
type Source struct {
	// Name is a file name read in every directory from the matcher's top down (".gitignore"). Its
	// patterns apply below the directory it is in, matched against paths relative to that directory.
	Name string
	// Path is one file whose patterns apply everywhere, relative to the top (.git/info/exclude).
	Path string
}

// Options says how a Matcher reads its rules.
type Options struct {
	// Top is where per-directory files start to be read and what Path sources are relative to: the
	// work tree's top for git. It must be the root or a directory above it; empty means the root.
	Top string
	// Sources lists where patterns come from, highest precedence first. A path is decided by the
	// first source that has a pattern matching it, whatever the others say; within a per-directory
	// source the deepest file with a match decides; within a file the last matching line does. Git's
	// order is {Name: ".gitignore"}, info/exclude, core.excludesFile (see GitSources).
	Sources []Source
	// FoldCase matches ASCII letters regardless of case (git's core.ignoreCase).
	FoldCase bool
	// FromIndex, when set, gives the content the index holds for a per-directory file (its path relative
	// to Top) that is not in the work tree, or nil: git reads the ignore file of a directory a sparse
	// checkout leaves out from the index.
	FromIndex func(rel string) []byte
	// Open opens the files patterns are read from. A repository can make info/exclude a link to a key,
	// and what is ignored shows in what a search lists: the caller's Opener, which knows the workspace
	// and the secret places, refuses such a file. nil keeps links inside Top.
	Open *safefile.Opener
}

// maxFileSize bounds an ignore file that is read; git skips larger ones too.
const maxFileSize = 100 << 20

// Matcher decides which paths below a root directory are ignored. A path is ignored when a directory
// above it (below the root) is ignored, or else when the first source with a matching pattern says so.
// The root itself is never ignored, even when a rule above it matches it: asking for a directory is
// asking for its files. Paths are slash-separated and relative to the root. A Matcher is safe for
// concurrent use.
type Matcher struct {
	root   string
	top    string
	open   *safefile.Opener
	prefix string // the root relative to the top, with a trailing slash, or ""
	opts   Options
	// global holds the patterns of each Path source; nil for per-directory ones.
	global [][]Pattern
	// perDir lists the indexes of the per-directory sources.
	perDir []int
	// fingerprint identifies the rules that do not live in the tree (see Fingerprint).
	fingerprint string

	// mu makes finding or reading a directory's state one step, so that its files are read once.
	mu sync.Mutex
	// dirs holds the states Match found, by path relative to the top. A state forgotten is read again.
	dirs *cache.LRU[string, *dirState]
}

// maxDirStates bounds the directories a Matcher remembers the rules of: a match needs the directories
// above the path, and a walk passes its own states down instead.
const maxDirStates = 4096

// dirState is what applies inside one directory: the per-directory files from the top down to it.
type dirState struct {
	rel string // relative to the top, "" for the top
	// levels holds, per source index, the directories with patterns of that source, deepest first.
	levels [][]*level
	// ignored says the directory, or one above it below the root, is ignored.
	ignored bool
}

type level struct {
	dir      string // relative to the top; "" for the top
	patterns []Pattern
}

// New returns a Matcher for the tree below root with the given rules.
func New(root string, opts Options) (*Matcher, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("ignore: %w", err)
	}
	top := root
	if opts.Top != "" {
		if top, err = filepath.Abs(opts.Top); err != nil {
			return nil, fmt.Errorf("ignore: %w", err)
		}
	}
	rel, err := filepath.Rel(top, root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, fmt.Errorf("ignore: root %s is not inside top %s", root, top)
	}
	m := &Matcher{root: root, top: top, opts: opts, dirs: cache.New[string, *dirState](maxDirStates)}
	if opts.Open == nil {
		opts.Open = safefile.NewOpener([]string{top}, nil, 0)
	}
	m.open = opts.Open.WithMaxSize(maxFileSize)
	if rel != "." {
		m.prefix = filepath.ToSlash(rel) + "/"
	}
	m.global = make([][]Pattern, len(opts.Sources))
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%v\x00", top, m.prefix, opts.FoldCase)
	for i, s := range opts.Sources {
		fmt.Fprintf(h, "%s\x00%s\x00", s.Name, s.Path)
		switch {
		case s.Name != "" && s.Path == "":
			m.perDir = append(m.perDir, i)
		case s.Path != "" && s.Name == "":
			// A missing file is no rules, as in git.
			data, _ := m.read(s.Path, false)
			h.Write(data)
			h.Write([]byte{0})
			m.global[i] = parseFile(data)
		default:
			return nil, fmt.Errorf("ignore: a source needs exactly one of Name and Path (got %+v)", s)
		}
	}
	m.fingerprint = hex.EncodeToString(h.Sum(nil))
	return m, nil
}

// Fingerprint identifies everything that decides what is ignored except the per-directory files: the
// top, the sources, the content of the single-file ones, the case folding. Two matchers with the same
// fingerprint decide alike wherever the tree's own ignore files are the same, so a walker that watches
// those files can tell when it must look at the whole tree again.
func (m *Matcher) Fingerprint() string { return m.fingerprint }

// Root is the directory the matcher's paths are relative to.
func (m *Matcher) Root() string { return m.root }

// Match reports whether path, relative to the root, is ignored. isDir says whether it names a directory;
// a symbolic link is not one, wherever it points.
func (m *Matcher) Match(path string, isDir bool) bool {
	path = cleanRel(path)
	if path == "" {
		return false
	}
	parent, name := "", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		parent, name = path[:i], path[i+1:]
	}
	m.mu.Lock()
	d := m.stateLocked(m.prefix + parent)
	m.mu.Unlock()
	return d.ignored || m.ignored(d, name, isDir)
}

// RootIgnored reports whether git ignores the matcher's root, or a directory above it below the top:
// asking for such a directory is asking for its files, but git's walk of untracked files never enters
// it.
func (m *Matcher) RootIgnored() bool {
	rel := strings.TrimSuffix(m.prefix, "/")
	if rel == "" {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	parent := ""
	for _, name := range strings.Split(rel, "/") {
		if m.ignored(m.stateLocked(parent), name, true) {
			return true
		}
		if parent != "" {
			parent += "/"
		}
		parent += name
	}
	return false
}

// stateLocked returns the state of the directory rel (relative to the top), reading the per-directory
// files of it and of every directory above it that is not remembered.
func (m *Matcher) stateLocked(rel string) *dirState {
	rel = strings.TrimSuffix(rel, "/")
	if d, ok := m.dirs.Get(rel); ok {
		return d
	}
	var d *dirState
	if rel == "" {
		d = m.topState()
	} else {
		parentRel, name := "", rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			parentRel, name = rel[:i], rel[i+1:]
		}
		parent := m.stateLocked(parentRel)
		d = m.child(parent, name, nil)
		// Only directories below the root can be ignored; the root and those above it are walked.
		if len(rel) >= len(m.prefix) {
			d.ignored = parent.ignored || m.ignored(parent, name, true)
		}
	}
	m.dirs.Put(rel, d)
	return d
}

func (m *Matcher) topState() *dirState {
	d := &dirState{levels: make([][]*level, len(m.opts.Sources))}
	m.load(d, nil)
	return d
}

// child returns the state of the directory name inside parent. present, when not nil, says which file
// names the directory holds, so that missing ignore files need not be opened.
func (m *Matcher) child(parent *dirState, name string, present func(string) bool) *dirState {
	rel := name
	if parent.rel != "" {
		rel = parent.rel + "/" + name
	}
	d := &dirState{rel: rel, levels: make([][]*level, len(m.opts.Sources)), ignored: parent.ignored}
	copy(d.levels, parent.levels)
	m.load(d, present)
	return d
}

// load reads d's own per-directory files and puts their patterns in front of the inherited ones.
func (m *Matcher) load(d *dirState, present func(string) bool) {
	for _, i := range m.perDir {
		name := m.opts.Sources[i].Name
		var data []byte
		absent := present != nil && !present(name)
		if !absent {
			var err error
			data, err = m.read(filepath.Join(m.top, filepath.FromSlash(d.rel), name), true)
			absent = errors.Is(err, fs.ErrNotExist)
		}
		if absent && m.opts.FromIndex != nil {
			data = m.opts.FromIndex(path.Join(d.rel, name))
		}
		if len(data) == 0 {
			continue
		}
		pats := parseFile(data)
		if len(pats) == 0 {
			continue
		}
		inherited := d.levels[i]
		levels := make([]*level, 0, len(inherited)+1)
		levels = append(levels, &level{dir: d.rel, patterns: pats})
		d.levels[i] = append(levels, inherited...)
	}
}

// ignored decides the entry name directly inside the directory of d by the patterns alone.
func (m *Matcher) ignored(d *dirState, name string, isDir bool) bool {
	full := name
	if d.rel != "" {
		full = d.rel + "/" + name
	}
	for i := range m.opts.Sources {
		if pats := m.global[i]; pats != nil {
			if p := lastMatch(pats, full, isDir, m.opts.FoldCase); p != nil {
				return !p.negated
			}
			continue
		}
		for _, lv := range d.levels[i] {
			sub := full
			if lv.dir != "" {
				sub = full[len(lv.dir)+1:]
			}
			if p := lastMatch(lv.patterns, sub, isDir, m.opts.FoldCase); p != nil {
				return !p.negated
			}
		}
	}
	return false
}

func lastMatch(pats []Pattern, path string, isDir, fold bool) *Pattern {
	for i := len(pats) - 1; i >= 0; i-- {
		if pats[i].Match(path, isDir, fold) {
			return &pats[i]
		}
	}
	return nil
}
