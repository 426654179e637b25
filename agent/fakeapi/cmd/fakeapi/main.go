// Command fakeapi serves a scripted fake OpenAI-compatible API, for tmux-driven tests and screenshots.
//
//	fakeapi -addr 127.0.0.1:0 -script agent/fakeapi/testdata/demo.json
//
// The first line of stdout is the base URL (ending in /v1) to use as OPENAI_BASE_URL; the server runs until it
// is interrupted or terminated. The script format is documented in package fakeapi. With -requests FILE,
// every chat request's body is appended to FILE as it arrives, one JSON object a line.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

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
	requests := fs.String("requests", "", "append each chat request's body, as received, to `file`, one a line")
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
	if *requests != "" {
		f, err := os.OpenFile(*requests, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		go logRequests(ctx, s, f)
	}
	fmt.Fprintln(stdout, s.URL())
	<-ctx.Done()
	return nil
}

// logRequests writes every chat request's body to w as it arrives, so that a script driving a client can
// check what the server received.
func logRequests(ctx context.Context, s *fakeapi.Server, w io.Writer) {
	for n := 1; ctx.Err() == nil; {
		reqs, err := s.WaitRequests(n, time.Second)
		if err != nil {
			continue
		}
		for _, r := range reqs[n-1:] {
			fmt.Fprintf(w, "%s\n", bytes.ReplaceAll(r.Raw, []byte("\n"), nil))
		}
		n = len(reqs) + 1
	}
}
