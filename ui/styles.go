package ui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// styles holds every style the UI uses, so that light and dark terminals and NO_COLOR are handled in one
// place. Colours are never the only carrier of meaning: states also have a symbol or a word, so a terminal
// without colour (NO_COLOR, where Bubble Tea's renderer drops colours) loses nothing.
type styles struct {
	isDark bool

	user, userMark  lipgloss.Style
	reasoning       lipgloss.Style
	notice, errText lipgloss.Style
	dim, bold       lipgloss.Style
	ok, fail, warn  lipgloss.Style
	accent          lipgloss.Style
	// panel, panelFocus and modal colour the frames drawn by box.
	panel, panelFocus  lipgloss.Style
	panelTitle         lipgloss.Style
	modal              lipgloss.Style
	banner             lipgloss.Style
	highlight          lipgloss.Style
	control            lipgloss.Style
	diffAdd, diffDel   lipgloss.Style
	diffHunk           lipgloss.Style
	status, statusMode lipgloss.Style
	keyHint            lipgloss.Style
	selected           lipgloss.Style
	inputRule          lipgloss.Style
	overlayTitle       lipgloss.Style
}

func newStyles(isDark bool) styles {
	ld := lipgloss.LightDark(isDark)
	c := func(light, dark string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(dark)) }
	var (
		muted  = c("#6C6C6C", "#8A8A8A")
		faint  = c("#9A9A9A", "#5F5F5F")
		green  = c("#1F7A1F", "#5FD75F")
		red    = c("#B00020", "#FF5F5F")
		yellow = c("#8A6D00", "#E5C07B")
		blue   = c("#0050A0", "#61AFEF")
		purple = c("#6A3FA0", "#C678DD")
	)
	base := lipgloss.NewStyle()
	return styles{
		isDark:       isDark,
		user:         base.Bold(true),
		userMark:     base.Foreground(blue).Bold(true),
		reasoning:    base.Foreground(muted).Italic(true),
		notice:       base.Foreground(yellow),
		errText:      base.Foreground(red).Bold(true),
		dim:          base.Foreground(muted),
		bold:         base.Bold(true),
		ok:           base.Foreground(green),
		fail:         base.Foreground(red).Bold(true),
		warn:         base.Foreground(yellow),
		accent:       base.Foreground(purple).Bold(true),
		panel:        base.Foreground(faint),
		panelFocus:   base.Foreground(blue).Bold(true),
		panelTitle:   base.Bold(true),
		modal:        base.Foreground(yellow).Bold(true),
		banner:       base.Background(c("#B00020", "#AF0000")).Foreground(lipgloss.Color("#FFFFFF")).Bold(true).Padding(0, 1),
		highlight:    base.Background(c("#FFE08A", "#5F4B00")).Bold(true).Underline(true),
		control:      base.Foreground(lipgloss.Color("#FFFFFF")).Background(red).Bold(true),
		diffAdd:      base.Foreground(green),
		diffDel:      base.Foreground(red),
		diffHunk:     base.Foreground(blue),
		status:       base.Foreground(muted),
		statusMode:   base.Foreground(purple).Bold(true),
		keyHint:      base.Foreground(faint),
		selected:     base.Background(c("#D0D8F0", "#3A4660")).Bold(true),
		inputRule:    base.Foreground(faint),
		overlayTitle: base.Bold(true).Foreground(blue),
	}
}
