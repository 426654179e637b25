package app

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/warden-cli/warden/config"
)

// runTrust is `warden trust` (DESIGN.md §2, §6): it lists what this workspace's files loosen that the
// person has not approved and, once they answer y on a terminal (or gave --yes), records exactly that as
// approved. --list shows every item and its state, --revoke forgets every answer about the workspace.
func runTrust(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("trust")
	var common commonFlags
	common.register(fs)
	yes := fs.Bool("yes", false, "approve what is listed without asking")
	list := fs.Bool("list", false, "show what the workspace's files loosen and what you answered")
	revoke := fs.Bool("revoke", false, "forget what you approved and declined in this workspace")
	if err := parseFlags(fs, args); err != nil {
		return helpOr(err, stdout)
	}
	const usage = "usage: warden trust [--yes] | --list | --revoke"
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Sprintf("unexpected argument %q; %s", fs.Arg(0), usage)}
	case *list && *revoke, *yes && (*list || *revoke):
		return usageError{"give one of --yes, --list and --revoke; " + usage}
	case common.trust:
		return usageError{"--trust approves for one run of warden and records nothing; warden trust records what you approve"}
	}
	if *revoke {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("finding the current directory: %w", err)
		}
		n, err := config.RevokeTrust(newOpener(wd, nil), os.Getenv, wd)
		if err != nil {
			return err
		}
		if n == 0 {
			_, err = fmt.Fprintf(stdout, "Nothing was approved in %s.\n", printableText(wd))
			return err
		}
		_, err = fmt.Fprintf(stdout, "Revoked %s in %s: what its files loosen waits for your approval again.\n", countItems(n), printableText(wd))
		return err
	}
	cfg, err := loadConfig(&common)
	if err != nil {
		return err
	}
	sayConfigWarnings(stderr, cfg)
	if *list {
		return listTrust(stdout, cfg)
	}
	waiting := cfg.Waiting()
	if len(waiting) == 0 {
		return listTrust(stdout, cfg)
	}
	fmt.Fprintf(stdout, "This workspace's files loosen what Warden may do; approving lets in (%s):\n", printableText(cfg.Workspace))
	for _, it := range waiting {
		fmt.Fprintf(stdout, "  %-9s %s\n", it.State, it.String())
	}
	if !*yes {
		if !isTerminal(stdin) {
			return usageError{"warden trust asks on a terminal, and its input is not one: pass --yes to approve what it lists"}
		}
		fmt.Fprintf(stdout, "Approve %s for this workspace? Trust them only if you trust everyone who can change these files. [y/N] ", countItems(len(waiting)))
		answer, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			_, err := fmt.Fprintln(stdout, "Nothing approved.")
			return err
		}
	}
	if err := config.ApproveItems(newOpener(cfg.Workspace, nil), os.Getenv, cfg.Workspace, waiting); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "Approved %s.\n", countItems(len(waiting)))
	return err
}

// listTrust prints every item the workspace's files loosen, with what the person answered.
func listTrust(w io.Writer, cfg *config.Config) error {
	if len(cfg.TrustItems) == 0 {
		_, err := fmt.Fprintf(w, "This workspace's files loosen nothing (%s).\n", printableText(cfg.Workspace))
		return err
	}
	fmt.Fprintf(w, "What this workspace's files loosen (%s):\n", printableText(cfg.Workspace))
	for _, it := range cfg.TrustItems {
		fmt.Fprintf(w, "  %-9s %s\n", it.State, it.String())
	}
	if n := len(cfg.Waiting()); n > 0 {
		_, err := fmt.Fprintf(w, "%s %s for your approval: warden trust approves %s.\n", countItems(n), map[bool]string{true: "waits", false: "wait"}[n == 1], map[bool]string{true: "it", false: "them"}[n == 1])
		return err
	}
	_, err := fmt.Fprintln(w, "All of it is approved; warden trust --revoke takes it back.")
	return err
}

func countItems(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}
