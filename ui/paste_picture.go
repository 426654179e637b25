package ui

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/tools/images"
)

// A picture dragged onto the terminal arrives as a paste of its path, written the way that terminal
// writes file names: plain, backslash-escaped (/Users/me/Screen\ Shot.png), quoted ('/home/me/Shot 1.png')
// or as a file:// URL, several separated by blanks. A paste that is nothing but such paths, each naming
// a picture (by its first bytes, as read_file tells them), becomes @ mentions, so that the pictures are
// attached when the prompt is sent; any other paste is text.

// pastePictures inserts the mentions of the pictures a paste names, and says whether it was such a paste.
func (m *Model) pastePictures(content string) (tea.Cmd, bool) {
	paths, ok := pastedPaths(content)
	if !ok {
		return nil, false
	}
	var mentions []string
	for _, p := range paths {
		p = m.mentionPath(p)
		if !isPicture(p) || strings.Contains(p, `"`) {
			return nil, false
		}
		if rel, err := filepath.Rel(m.opts.Workspace, p); err == nil && filepath.IsLocal(rel) {
			p = rel
		}
		if strings.ContainsAny(p, " \t") {
			p = `"` + p + `"`
		}
		mentions = append(mentions, "@"+p)
	}
	m.input.InsertString(strings.Join(mentions, " ") + " ")
	m.inputGen++
	m.refreshMenu()
	return m.setFlash(plural(len(mentions), "picture", "pictures") + " attached: sent with the prompt, for the model to see"), true
}

// isPicture says whether path is a regular file that begins like a picture.
func isPicture(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	head := make([]byte, 16)
	n, _ := f.Read(head)
	return images.Sniff(head[:n]) != ""
}

// pastedPaths splits a paste into the file names it holds, undoing quotes and backslashes; ok is false
// when it holds anything else (a line break, an unclosed quote, a word that is not an absolute path).
func pastedPaths(s string) (paths []string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "\n\r") {
		return nil, false
	}
	var word strings.Builder
	inWord := false
	end := func() bool {
		if !inWord {
			return true
		}
		w := word.String()
		if u, err := url.Parse(w); err == nil && u.Scheme == "file" && (u.Host == "" || u.Host == "localhost") {
			w = u.Path
		}
		if !filepath.IsAbs(w) && !strings.HasPrefix(w, "~/") {
			return false
		}
		paths = append(paths, w)
		word.Reset()
		inWord = false
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			if !end() {
				return nil, false
			}
		case c == '\\' && i+1 < len(s):
			i++
			word.WriteByte(s[i])
			inWord = true
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, false
			}
			word.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if !end() {
		return nil, false
	}
	return paths, len(paths) > 0
}
