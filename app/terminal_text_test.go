package app

import "testing"

func TestPrintableTextKeepsLinesAndTabs(t *testing.T) {
	for in, want := range map[string]string{
		"plain text\n\twith a tab\n":        "plain text\n\twith a tab\n",
		"windows\r\nlines\r\n":              "windows\r\nlines\r\n",
		"hi \x1b]2;TITLE\a there":           `hi \e]2;TITLE\a there`,
		"f\rOVERWRITE\x1b[2J\n\u202eevil\r": `f\rOVERWRITE\e[2J` + "\n" + `\u202eevil\r`,
	} {
		if got := printableText(in); got != want {
			t.Errorf("printableText(%q) = %q, want %q", in, got, want)
		}
	}
}
