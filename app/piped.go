package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/warden-cli/warden/piped"
)

// What is piped to Warden beside a prompt given as words (git diff | warden -p "review this", or the
// same without -p for the TUI) goes with the prompt, as package piped labels it; a prompt that comes
// only on stdin (echo "fix it" | warden -p) is read as before.

const (
	// pipeWait is how long a pipe may stay silent before the prompt goes without it. A program started
	// by a script or another agent often inherits a stdin that is open but never written to; a pipeline's
	// first command may take a while to print (git diff in a large repository). The wait is long enough
	// for the second and bounded for the first, and both are told on stderr.
	pipeWait = 10 * time.Second
	// pipeNote is when the person is told what Warden waits for.
	pipeNote = time.Second
)

// readPiped reads what was piped beside a prompt: nil for nothing, a usage error for binary data. It
// says on stderr when it waits, when the pipe stayed silent, and when the input had to be cut.
func readPiped(stdin io.Reader, stderr io.Writer) (*piped.Input, error) {
	wait := pipeWait
	if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			wait = 0 // a file (warden -p "PROMPT" < file) never keeps a read waiting
		}
	}
	noted := make(chan struct{})
	note := time.AfterFunc(pipeNote, func() {
		defer close(noted)
		fmt.Fprintln(stderr, "warden: reading stdin, which is sent with the prompt (redirect it from /dev/null to send the prompt alone)")
	})
	in, err := piped.Read(stdin, wait)
	if !note.Stop() {
		<-noted // the note is written before anything that follows it
	}
	switch {
	case errors.Is(err, piped.ErrSilent):
		fmt.Fprintf(stderr, "warden: nothing came on stdin in %s; the prompt goes without it\n", wait)
		return nil, nil
	case errors.Is(err, piped.ErrBinary):
		return nil, usageError{err.Error()}
	case err != nil:
		return nil, err
	}
	if in.Cut() {
		fmt.Fprintf(stderr, "warden: %s\n", in.Summary())
	}
	return in, nil
}

// needTerminal refuses to start the TUI when stdin is piped and there is no terminal to read keys from
// (Bubble Tea reads them from /dev/tty then): in a script or a CI job, the run would fail once started.
func needTerminal() error {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return usageError{"the full-screen TUI reads keys from the terminal, and there is none here (stdin is piped and " +
			"/dev/tty cannot be opened); add -p to send the prompt and the piped input without the TUI: ... | warden -p \"PROMPT\""}
	}
	return tty.Close()
}
