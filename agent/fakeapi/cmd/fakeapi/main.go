// Command fakeapi serves a scripted fake OpenAI-compatible API, for tmux-driven tests and screenshots.
//
//	fakeapi -addr 127.0.0.1:0 -script agent/fakeapi/testdata/demo.json
//
// The first line of stdout is the base URL (ending in /v1) to use as OPENAI_BASE_URL; the server runs until it
// is interrupted or terminated. The script format is documented in package fakeapi.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/warden-cli/warden/agent/fakeapi"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2) // the flag package has said what was wrong
	case err != nil:
		fmt.Fprintln(os.Stderr, "fakeapi:", err)
		os.Exit(1)
	}
}

// errUsage reports a command line the flag package has already complained about.
var errUsage = errors.New("usage")

// run serves until ctx ends.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fakeapi", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "`host:port` to listen on; port 0 picks a free one")
	script := fs.String("script", "", "JSON script `file` (format: go doc github.com/warden-cli/warden/agent/fakeapi)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	var sc *fakeapi.Script
	if *script != "" {
		var err error
		if sc, err = fakeapi.LoadScript(*script); err != nil {
			return err
		}
	}
	s, err := fakeapi.Listen(*addr)
	if err != nil {
		return err
	}
	defer s.Close()
	if sc != nil {
		sc.Install(s)
	}
	fmt.Fprintln(stdout, s.URL())
	<-ctx.Done()
	return nil
}
