// Package commands reads custom slash commands: Markdown files whose body is a prompt, in the commands
// folders of the person ($XDG_CONFIG_HOME/warden/commands, ~/.claude/commands) and of the project
// (.warden/commands, .claude/commands), in the format Claude Code's commands use, so that existing
// command files work as they are.
//
// A file review.md is the command /review; a file in a subfolder, frontend/component.md, is
// /frontend:component. Optional front matter between "---" lines sets the description and the argument
// hint shown in the menu:
//
//	---
//	description: Review the staged changes
//	argument-hint: [focus]
//	---
//	Review the staged diff. Pay attention to $ARGUMENTS.
//
// In the body, $ARGUMENTS is everything typed after the name and $1 … $9 its words (quotes group words).
//
// Every folder and file is read through the session's safefile.Opener: a repository's .claude/commands that
// is a link to the home lists nothing of the home. It imports nothing of Warden's but that leaf.
package commands

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"github.com/warden-cli/warden/safefile"
)

// Command is one custom command read from a file.
type Command struct {
	// Name is the command without its slash: "review", "frontend:component".
	Name         string
	Description  string
	ArgumentHint string
	// Body is the prompt, before its arguments are put in.
	Body string
	// Source names the folder it came from ("user", "project", …) and Path the file.
	Source, Path string
}

// Dir is a folder of command files and the name of its source.
type Dir struct {
	Path, Source string
}

// maxFileBytes bounds a command file: a prompt, not a data dump.
const maxFileBytes = 256 << 10

// Load reads the commands of dirs through o, the session's opener: a folder or a file of the workspace
// that leads out of it through a link, or into a secret place, is not read, and is reported in warnings
// with why. A name found in more than one folder is taken from the first, and the others are reported in
// warnings, as are files that cannot be read; a missing folder is not an error.
func Load(o *safefile.Opener, dirs []Dir) (cmds []Command, warnings []string) {
	taken := map[string]string{}
	for _, d := range dirs {
		found, warns := loadDir(o, d)
		warnings = append(warnings, warns...)
		for _, c := range found {
			if first, ok := taken[c.Name]; ok {
				warnings = append(warnings, fmt.Sprintf("%s: /%s is also defined in %s, which is used", c.Path, c.Name, first))
				continue
			}
			taken[c.Name] = c.Path
			cmds = append(cmds, c)
		}
	}
	return cmds, warnings
}

// maxDepth bounds how deep subfolders are read.
const maxDepth = 8

// loadDir reads the command files of one folder and its subfolders. Every folder is opened through o,
// links to folders included (o judges where they lead), and each is read once, so that a link to a folder
// above it ends rather than repeats.
func loadDir(o *safefile.Opener, d Dir) (cmds []Command, warnings []string) {
	seen := map[[2]uint64]bool{}
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		f, err := o.OpenDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) || dir != d.Path {
				warnings = append(warnings, pathError(dir, err))
			}
			return
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				id := [2]uint64{uint64(st.Dev), st.Ino}
				if seen[id] {
					return
				}
				seen[id] = true
			}
		}
		entries, err := f.ReadDir(-1)
		if err != nil {
			warnings = append(warnings, pathError(dir, err))
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				fi, err := os.Stat(path) // where it leads is judged when it is opened
				if err != nil {
					continue // a link to nothing
				}
				isDir = fi.IsDir()
			}
			switch {
			case isDir && depth < maxDepth:
				walk(path, depth+1)
			case isDir:
				warnings = append(warnings, fmt.Sprintf("%s: folders nest more than %d deep here; the deeper ones are not read", path, maxDepth))
			case strings.HasSuffix(strings.ToLower(e.Name()), ".md"):
				c, err := readFile(o, d, path)
				if err != nil {
					warnings = append(warnings, err.Error())
					continue
				}
				cmds = append(cmds, c)
			}
		}
	}
	walk(d.Path, 0)
	sort.Slice(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	return cmds, warnings
}

// pathError says what went wrong with path: a refusal names the path itself.
func pathError(path string, err error) string {
	var refused *safefile.Refused
	if errors.As(err, &refused) {
		return err.Error()
	}
	return fmt.Sprintf("%s: %v", path, err)
}

var nameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

func readFile(o *safefile.Opener, d Dir, path string) (Command, error) {
	rel, err := filepath.Rel(d.Path, path)
	if err != nil {
		return Command{}, err
	}
	parts := strings.Split(strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel)), "/")
	for _, p := range parts {
		if !nameRe.MatchString(p) {
			return Command{}, fmt.Errorf("%s: %q cannot be a command name (letters, digits, - _ . only); rename the file", path, p)
		}
	}
	f, err := o.Open(path)
	if err != nil {
		return Command{}, errors.New(pathError(path, err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Command{}, fmt.Errorf("%s: %w", path, err)
	}
	if fi.Size() > maxFileBytes {
		return Command{}, fmt.Errorf("%s: %d bytes is more than a command file may hold (%d)", path, fi.Size(), maxFileBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes))
	if err != nil {
		return Command{}, fmt.Errorf("%s: %w", path, err)
	}
	c := Command{Name: strings.Join(parts, ":"), Source: d.Source, Path: path}
	meta, body, err := frontMatter(string(data))
	if err != nil {
		return Command{}, fmt.Errorf("%s: %v", path, err)
	}
	c.Description, c.ArgumentHint, c.Body = meta["description"], meta["argument-hint"], strings.TrimSpace(body)
	if c.Body == "" {
		// It would send an empty request.
		return Command{}, fmt.Errorf("%s: no prompt in it (only front matter, or nothing); write what the command asks the model", path)
	}
	if c.Description == "" {
		// The body's first line says what the command does, as Claude Code shows it.
		first, _, _ := strings.Cut(c.Body, "\n")
		c.Description = strings.TrimSpace(strings.TrimLeft(first, "# "))
	}
	if len([]rune(c.Description)) > 100 {
		c.Description = string([]rune(c.Description)[:99]) + "…"
	}
	return c, nil
}

// frontMatter splits "---\nkey: value\n---\nbody" into its keys and its body. Only one-line values are
// read (quoted or not); other keys (allowed-tools, model) are kept but not used.
func frontMatter(text string) (map[string]string, string, error) {
	text = strings.TrimPrefix(text, "\ufeff")
	meta := map[string]string{}
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return meta, text, nil
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), maxFileBytes)
	sc.Scan() // the opening ---
	n := len(sc.Text()) + 1
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		n += len(sc.Text()) + 1
		if line == "---" {
			return meta, text[min(n, len(text)):], nil
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "#") {
			continue
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		meta[strings.ToLower(strings.TrimSpace(key))] = value
	}
	return nil, "", errors.New("the front matter opened with --- is never closed with ---")
}

// placeholder is $ARGUMENTS or one of $1 … $9.
var placeholder = regexp.MustCompile(`\$(ARGUMENTS|[1-9])`)

// Expand puts what was typed after the command's name into its body: $ARGUMENTS is all of it, $1 … $9
// its words. A body that uses neither gets the arguments on a line of their own at its end, so that
// nothing typed is lost. The body is read once, so a $1 in what was typed (awk '{print $1}') stays as it
// was typed.
func (c Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	words := splitWords(args)
	used := placeholder.MatchString(c.Body)
	out := placeholder.ReplaceAllStringFunc(c.Body, func(s string) string {
		if s == "$ARGUMENTS" {
			return args
		}
		if i := int(s[1] - '1'); i < len(words) {
			return words[i]
		}
		return ""
	})
	if !used && args != "" {
		out += "\n\n" + args
	}
	return out
}

// splitWords splits arguments at spaces, keeping quoted words together without their quotes.
func splitWords(s string) []string {
	var words []string
	var cur strings.Builder
	quote, in := rune(0), false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote, in = r, true
		case quote == 0 && (r == ' ' || r == '\t' || r == '\n'):
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}
