package ui

import (
	"fmt"
	"strings"
)

// The header opens a new session: what Warden talks to, how it is confined, where it works, and how to
// begin. It says what the first minute needs and stays as the first entry of the transcript.

// addHeader puts the header at the top of the transcript.
func (m *Model) addHeader() {
	m.conv.add(&item{kind: itemHeader, text: m.headerText()})
}

// headerText is the header's lines, unstyled; the first is its title.
func (m *Model) headerText() string {
	o := m.opts
	model := o.Model
	if model == "" {
		model = "no model"
	}
	server := model
	if o.BaseURL != "" {
		server += " on " + o.BaseURL
	}
	lines := []string{"Warden · " + server}
	var safety []string
	if e := o.Engine; e != nil {
		safety = append(safety, "mode "+string(e.Mode()))
	}
	switch {
	case o.Sandbox != "":
		safety = append(safety, o.Sandbox)
	case o.SandboxProblem != "":
		safety = append(safety, "sandbox: cannot be had")
	default:
		safety = append(safety, "sandbox: off")
	}
	if o.Wall != "" {
		safety = append(safety, o.Wall)
	}
	lines = append(lines, strings.Join(safety, " · "))
	ws := "workspace " + shortPath(o.Workspace)
	switch n := m.waitingCount(); {
	case n > 0:
		ws += fmt.Sprintf(" (not trusted: %s its files loosen %s for your approval, /trust)", plural(n, "item", "items"), pluralWord(n, "waits", "wait"))
	case m.trusted():
		ws += " (trusted)"
	default:
		ws += " (not trusted)"
	}
	if len(o.Instructions) > 0 {
		ws += " · instructions from " + strings.Join(o.Instructions, ", ")
	}
	lines = append(lines, ws)
	lines = append(lines, "/ commands · @file attaches a file · !cmd runs a shell command · "+hintKeys(m.keys.Help)+" keys")
	return strings.Join(lines, "\n")
}
