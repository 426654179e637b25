package programs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/warden-cli/warden/permissions/shell"
)

// Status commands of common tools: each is read-only only in the subcommands that only report, and only
// with options known to leave things be. Anything else keeps asking.

// statusSpecs are their table entries; the table's init adds them, replacing the version-only entries of
// the interpreters list.
var statusSpecs = map[string]*Spec{
	// ss -K kills sockets, -D dumps to a file.
	// ss -F reads its filter from a file.
	"ss":      {values: "fAFD", bad: "KD", longBad: []string{"kill", "diag", "filter"}, fileValues: []string{"-F"}},
	"netstat": {},
	// journalctl writes with --rotate, --vacuum-*, --flush, --sync, --relinquish-var, --setup-keys,
	// --update-catalog and --cursor-file.
	// -D and --directory, --file and --root read journal files from anywhere.
	"journalctl": {values: "ubnpoSUtDMIcF", bad: "D", longBad: []string{"rotate", "vacuum-size", "vacuum-time", "vacuum-files",
		"flush", "sync", "relinquish-var", "smart-relinquish-var", "setup-keys", "update-catalog", "cursor-file",
		"new-id128", "root", "image", "directory", "file"}},
	"systemctl": {rawArgs: true, check: checkSystemctl},
	"kubectl":   {rawArgs: true, check: checkKubectl},
	"gh":        {rawArgs: true, check: checkGh},
	"pip":       {rawArgs: true, check: checkPip},
	"pip3":      {rawArgs: true, check: checkPip},
}

// subcommand returns the first operand and the words after it, skipping options before it. ok is false
// when an option comes before the subcommand: its value could be mistaken for the subcommand.
func subcommand(ws []shell.Word) (sub string, rest []shell.Word, ok bool) {
	if len(ws) == 0 || strings.HasPrefix(ws[0].Value, "-") {
		return "", nil, false
	}
	return ws[0].Value, ws[1:], true
}

// onlyOptions reports the first option in ws not among allowed (names with dashes, without any =value),
// or "". Every word must be known before running.
func onlyOptions(ws []shell.Word, allowed ...string) string {
	for _, w := range ws {
		if !w.Static {
			return fmt.Sprintf("`%s` is only known at run time", w.Value)
		}
		name, _, _ := strings.Cut(w.Value, "=")
		if strings.HasPrefix(name, "-") && !slices.Contains(allowed, name) {
			return fmt.Sprintf("`%s` is not checked", name)
		}
	}
	return ""
}

// checkSystemctl: status and the list and is- queries. -H and -M reach other machines.
func checkSystemctl(e *shell.Exec, a *shell.Args) string {
	if checkVersionOnly(e, a) == "" {
		return ""
	}
	sub, rest, ok := subcommand(a.Operands)
	switch {
	case !ok:
		return "`systemctl` with options before its command"
	case !slices.Contains([]string{"status", "show", "list-units", "list-unit-files", "list-timers", "list-sockets",
		"is-active", "is-enabled", "is-failed", "cat", "list-dependencies"}, sub):
		return fmt.Sprintf("`systemctl %s` is not read-only", sub)
	}
	return onlyOptions(rest, "--no-pager", "-l", "--full", "-a", "--all", "--user", "--system", "-n", "--lines",
		"-o", "--output", "-t", "--type", "--state", "-p", "--property", "--value", "--plain", "--no-legend", "-q", "--quiet")
}

// checkKubectl: kubectl get and describe, except for secrets; --raw, --kubeconfig, --server and the
// credential options point kubectl somewhere else.
func checkKubectl(e *shell.Exec, a *shell.Args) string {
	if checkVersionOnly(e, a) == "" {
		return ""
	}
	sub, rest, ok := subcommand(a.Operands)
	if !ok || sub != "get" && sub != "describe" {
		return fmt.Sprintf("`kubectl %s` is not read-only", sub)
	}
	for _, w := range rest {
		if v := strings.ToLower(w.Value); strings.HasPrefix(v, "secret") || strings.Contains(v, ",secret") || strings.Contains(v, "/secret") {
			return "`kubectl` reads secrets"
		}
	}
	// -o go-template-file=F, jsonpath-file=F and custom-columns-file=F read F.
	for i, w := range rest {
		v := w.Value
		if (v == "-o" || v == "--output") && i+1 < len(rest) {
			v = rest[i+1].Value
		} else if after, ok := strings.CutPrefix(v, "--output="); ok {
			v = after
		} else {
			continue
		}
		if format, file, ok := strings.Cut(v, "="); ok && strings.HasSuffix(format, "-file") {
			e.S.Read(e.P, file, e.Scope())
		}
	}
	return onlyOptions(rest, "-o", "--output", "-n", "--namespace", "-A", "--all-namespaces", "-l", "--selector",
		"--context", "--show-labels", "--no-headers", "--sort-by", "--field-selector", "-w", "--watch", "--chunk-size")
}

// checkGh: listing and viewing pull requests, issues and runs, without --web (a browser).
func checkGh(e *shell.Exec, a *shell.Args) string {
	if checkVersionOnly(e, a) == "" {
		return ""
	}
	group, rest, ok := subcommand(a.Operands)
	if !ok || group != "pr" && group != "issue" && group != "run" {
		return fmt.Sprintf("`gh %s` is not read-only", group)
	}
	sub, rest, ok := subcommand(rest)
	if !ok || sub != "list" && sub != "view" && sub != "status" {
		return fmt.Sprintf("`gh %s %s` is not read-only", group, sub)
	}
	allowed := []string{"-R", "--repo", "-s", "--state", "-L", "--limit", "-a", "--assignee", "-A", "--author",
		"-l", "--label", "-B", "--base", "-H", "--head", "--json", "-q", "--jq", "-t", "--template", "-c", "--comments",
		"-b", "--branch", "--log", "--log-failed", "-v", "--verbose", "--search", "-S", "-d", "--draft"}
	if group == "run" && sub == "list" {
		// Only there is -w --workflow; everywhere else it is --web, which opens a browser.
		allowed = append(allowed, "-w", "--workflow")
	}
	return onlyOptions(rest, allowed...)
}

// checkPip: pip list and pip show, without another index (which would be sent the names).
func checkPip(e *shell.Exec, a *shell.Args) string {
	if checkVersionOnly(e, a) == "" {
		return ""
	}
	sub, rest, ok := subcommand(a.Operands)
	switch {
	case ok && sub == "list":
		return onlyOptions(rest, "-o", "--outdated", "-u", "--uptodate", "-e", "--editable", "-l", "--local", "--user",
			"--format", "--not-required", "--exclude-editable", "--include-editable", "-v", "-q", "--pre")
	case ok && sub == "show":
		return onlyOptions(rest, "-f", "--files", "-v", "--verbose")
	case ok && sub == "debug":
		return onlyOptions(rest, "-v", "--verbose")
	case ok && sub == "config" && len(rest) > 0 && (rest[0].Value == "list" || rest[0].Value == "get" || rest[0].Value == "debug"):
		return onlyOptions(rest[1:], "--global", "--user", "--site", "-v", "--verbose")
	}
	return fmt.Sprintf("`pip %s` is not read-only", sub)
}
