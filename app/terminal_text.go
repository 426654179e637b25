package app

import (
	"io"
	"os"

	"github.com/warden-cli/warden/printable"
)

// What Warden prints on the command line often quotes text a model, a server or a repository chose: a
// command, a file name, an error body. On a terminal an escape sequence in it would act (OSC 52 writes the
// clipboard, OSC 2 the window title, CSI 2J clears the screen), and a carriage return or a direction override
// would redraw the line as something else. printableText shows such characters as escapes (printable's one
// table), except line breaks and tabs, which text of several lines needs as they are.
func printableText(s string) string { return printable.EscapeText(s) }

// escapingWriter passes what it is given through printableText. Each Write must hold whole characters: the
// headless printer writes an answer or a notice in one call.
type escapingWriter struct{ w io.Writer }

func (e escapingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(e.w, printableText(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// isTerminalWriter reports whether w is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
