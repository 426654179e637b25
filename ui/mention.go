package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A prompt mentions a file with @path (or @"path with spaces"); when it is sent, each mentioned file is
// attached by the agent, under read_file's policy (agent.RunWith).

var mentionRe = regexp.MustCompile(`(?:^|\s)@(?:"([^"\n]+)"|(\S+))`)

// mentions returns the files a prompt mentions, as absolute paths, each once. A mention of something that
// is not a file is left as text, with a note saying so.
func (m *Model) mentions(prompt string) []string {
	var out []string
	seen := map[string]bool{}
	for _, match := range mentionRe.FindAllStringSubmatch(prompt, -1) {
		typed := match[1] + match[2]
		path, why := m.mentionedFile(typed, match[1] != "")
		if why != "" {
			m.conv.add(&item{kind: itemInfo, text: "@" + typed + " " + why + ": sent as text"})
			continue
		}
		if !seen[path] {
			seen[path] = true
			out = append(out, path)
		}
	}
	return out
}

// mentionedFile finds the file a mention names, relative to the workspace; punctuation right after a
// mention ("see @main.go.") is not part of it unless a file is named so. why says what it is otherwise.
func (m *Model) mentionedFile(typed string, quoted bool) (path, why string) {
	candidates := []string{typed}
	if trimmed := strings.TrimRight(typed, ".,;:!?)]}'\""); !quoted && trimmed != typed && trimmed != "" {
		candidates = append(candidates, trimmed)
	}
	why = "is not a file"
	for _, c := range candidates {
		abs := m.mentionPath(c)
		fi, err := os.Stat(abs)
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			why = "is a directory (only files are attached)"
			continue
		}
		return abs, ""
	}
	return "", why
}

// mentionPath makes a mentioned path absolute: ~ is the home directory, a relative path is in the
// workspace.
func (m *Model) mentionPath(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(m.opts.Workspace, p)
}
