package app

import (
	"errors"
	"fmt"
	"io"
)

// Exit codes of a run (DESIGN.md §2).
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// usageError is bad input on the command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// exitStatus ends the program with a status and nothing more to print.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// report prints an error as one line and returns the exit status for it.
func report(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var exit exitStatus
	if errors.As(err, &exit) {
		return int(exit)
	}
	// An error may quote what a server answered or a file held.
	fmt.Fprintf(stderr, "warden: %s\n", printableText(err.Error()))
	var ue usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitError
}
