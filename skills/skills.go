// Package skills reads skills: folders holding a SKILL.md (YAML front matter with a name and a
// description, then instructions in Markdown) and whatever files the instructions use, in the format of
// the Agent Skills specification that Claude Code, Codex and others read, so that skills written for them
// work as they are. They are found in the person's folders ($XDG_CONFIG_HOME/warden/skills,
// ~/.claude/skills) and the project's (.warden/skills, .claude/skills), one skill per subfolder:
//
//	.claude/skills/release-notes/SKILL.md
//	---
//	name: release-notes
//	description: Writes release notes from the merged pull requests. Use when asked for release notes.
//	---
//	Read scripts/collect.sh, run it, then ...
//
// The model is offered every skill's name and description (in the skill tool's description, bounded) and
// gets a skill's instructions and its folder's file list only when it calls the skill tool with the name;
// it reads the other files with read_file, under the permission rules like any read. A person runs one
// with /NAME. allowed-tools in the front matter is read and shown but never lets a call run unasked: the
// permission rules alone decide.
//
// Every folder and file is read through the session's safefile.Opener: a repository's .claude/skills that
// is a link to the home lists nothing of it. It imports the leaf safefile, the tool framework (for the
// skill tool) and commands (a skill run with /NAME ARGS takes its arguments as a custom command does), and
// nothing else of Warden's; agent and ui use it through the tool and the catalog.
package skills

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/warden-cli/warden/safefile"
)

// Skill is one skill read from its folder.
type Skill struct {
	// Name is the skill's name: lowercase letters, digits and single hyphens.
	Name        string
	Description string
	// ArgumentHint is shown after /NAME in the command menu.
	ArgumentHint string
	// AllowedTools are the tools the skill says it may use without asking, as written; Warden shows them
	// and never acts on them.
	AllowedTools []string
	// ModelInvocable is false for a skill only the person may run (disable-model-invocation: true);
	// UserInvocable is false for one only the model may use (user-invocable: false).
	ModelInvocable, UserInvocable bool
	// Body is the instructions, the SKILL.md after its front matter.
	Body string
	// Dir is the skill's folder, Source where it was found ("user", "project, .claude", …).
	Dir, Source string
	// Project is set for a skill of the workspace's folders.
	Project bool
}

// Dir is a folder of skills (each in a subfolder of its own) and the name of its source.
type Dir struct {
	Path, Source string
	// Project marks the workspace's folders, whose skills wait for the person's trust.
	Project bool
}

const (
	// maxFileBytes bounds a SKILL.md: instructions, not a data dump.
	maxFileBytes = 256 << 10
	// maxSkills bounds the skills read from one folder, and maxTotalBytes what one Load reads in all: a
	// repository chooses how much stands in its folders, and they are read at every start.
	maxSkills     = 500
	maxTotalBytes = 8 << 20
	// maxName and maxDescription are the specification's bounds.
	maxName        = 64
	maxDescription = 1024
)

// nameRe is the specification's name: lowercase letters and digits, in words joined by single hyphens.
var nameRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Load reads the skills of dirs through o, the session's opener: a folder or file of the workspace that
// leads out of it through a link, or into a secret place, is not read, and warnings say so. A name found in
// more than one folder is taken from the first folder (give the person's before the project's, so that a
// repository cannot stand in for a skill the person relies on), and the others are reported in warnings,
// as are skills that cannot be used; a missing folder is not an error.
func Load(o *safefile.Opener, dirs []Dir) (out []Skill, warnings []string) {
	taken := map[string]string{}
	left := int64(maxTotalBytes)
	for _, d := range dirs {
		found, warns := loadDir(o, d, &left)
		warnings = append(warnings, warns...)
		for _, s := range found {
			if first, ok := taken[s.Name]; ok {
				warnings = append(warnings, fmt.Sprintf("%s: the skill %s is also in %s, which is used", s.Dir, s.Name, first))
				continue
			}
			taken[s.Name] = s.Dir
			out = append(out, s)
		}
	}
	return out, warnings
}

// loadDir reads the skills of one folder: each subfolder with a SKILL.md is one.
func loadDir(o *safefile.Opener, d Dir, left *int64) (out []Skill, warnings []string) {
	f, err := o.OpenDir(d.Path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			warnings = append(warnings, pathError(d.Path, err))
		}
		return nil, warnings
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		warnings = append(warnings, pathError(d.Path, err))
	}
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		dir := filepath.Join(d.Path, e.Name())
		if !isDir(e, dir) || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if len(out) == maxSkills {
			warnings = append(warnings, fmt.Sprintf("%s: more than %d skills; the rest are not read", d.Path, maxSkills))
			break
		}
		s, err := readSkill(o, d, dir, left)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// A folder without a SKILL.md is not a skill (a shared scripts folder, say).
		case err != nil:
			warnings = append(warnings, err.Error())
		default:
			out = append(out, s)
		}
	}
	return out, warnings
}

// isDir reports whether an entry is a folder or a link to one; where a link leads is judged when it is
// opened.
func isDir(e os.DirEntry, path string) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir()
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// pathError says what went wrong with path: a refusal names the path itself.
func pathError(path string, err error) string {
	var refused *safefile.Refused
	if errors.As(err, &refused) {
		return err.Error()
	}
	return fmt.Sprintf("%s: %v", path, err)
}

// readSkill reads the skill in dir, if *left bytes are enough, and takes them. The folder is opened first
// so that one that leads out of the workspace is refused by its own name, not by its SKILL.md's.
func readSkill(o *safefile.Opener, d Dir, dir string, left *int64) (Skill, error) {
	df, err := o.OpenDir(dir)
	if err != nil {
		return Skill{}, errors.New(pathError(dir, err))
	}
	df.Close()
	path := filepath.Join(dir, "SKILL.md")
	f, err := o.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Skill{}, err
	}
	if err != nil {
		return Skill{}, errors.New(pathError(path, err))
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return Skill{}, fmt.Errorf("%s: %w", path, err)
	case fi.Size() > maxFileBytes:
		return Skill{}, fmt.Errorf("%s: %d bytes is more than a SKILL.md may hold (%d); move the details to other files of the skill", path, fi.Size(), maxFileBytes)
	case fi.Size() > *left:
		return Skill{}, fmt.Errorf("%s: not read, as the skills before it hold %d MB, all that is read of them", path, maxTotalBytes>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, min(maxFileBytes, *left)))
	*left -= int64(len(data))
	if err != nil {
		return Skill{}, fmt.Errorf("%s: %w", path, err)
	}
	m, body, err := frontMatter(string(data))
	if err != nil {
		return Skill{}, fmt.Errorf("%s: %v", path, err)
	}
	s := Skill{
		Name: m.str("name"), Description: strings.TrimSpace(m.str("description")), ArgumentHint: m.str("argument-hint"),
		AllowedTools:   allowedTools(m["allowed-tools"]),
		ModelInvocable: !m.flag("disable-model-invocation", false), UserInvocable: m.flag("user-invocable", true),
		Body: strings.TrimSpace(body), Dir: dir, Source: d.Source, Project: d.Project,
	}
	if s.Name == "" {
		// Claude Code names a skill without a name after its folder.
		s.Name = filepath.Base(dir)
	}
	if !nameRe.MatchString(s.Name) || len(s.Name) > maxName {
		return Skill{}, fmt.Errorf("%s: %q cannot be a skill's name (at most %d lowercase letters, digits and single hyphens); rename it", path, s.Name, maxName)
	}
	if s.Body == "" {
		return Skill{}, fmt.Errorf("%s: no instructions after the front matter; write what the skill tells the model to do", path)
	}
	if s.Description == "" {
		// As Claude Code does, the first paragraph says what the skill is for.
		first, _, _ := strings.Cut(s.Body, "\n\n")
		s.Description = strings.Join(strings.Fields(strings.TrimLeft(first, "# ")), " ")
	}
	if r := []rune(s.Description); len(r) > maxDescription {
		s.Description = string(r[:maxDescription-1]) + "…"
	}
	return s, nil
}

// allowedTools reads allowed-tools, given as a list or as one string of names separated by spaces or
// commas; a name with parentheses (Bash(git diff:*)) keeps its spaces.
func allowedTools(v []string) []string {
	var out []string
	for _, item := range v {
		depth, start := 0, 0
		for i, r := range item + " " {
			switch {
			case r == '(':
				depth++
			case r == ')' && depth > 0:
				depth--
			case (r == ' ' || r == ',') && depth == 0:
				if t := strings.TrimSpace(item[start:i]); t != "" {
					out = append(out, t)
				}
				start = i + 1
			}
		}
	}
	return out
}
