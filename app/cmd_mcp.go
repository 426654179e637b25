package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-cli/warden/config"
	"github.com/warden-cli/warden/mcp"
	"github.com/warden-cli/warden/tools/bash"
)

// runMCP is `warden mcp list`: it starts the configured MCP servers as a session would, waits for them,
// and prints each with its state, tools and errors.
func runMCP(version string, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "list" {
		return usageError{"usage: warden mcp list [--json]"}
	}
	fs := newFlagSet("mcp list")
	var common commonFlags
	common.register(fs)
	asJSON := fs.Bool("json", false, "one JSON object per server")
	if err := parseFlags(fs, args[1:]); err != nil {
		return helpOr(err, stdout)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q; usage: warden mcp list [--json]", fs.Arg(0))}
	}
	cfg, err := loadConfig(&common)
	if err != nil {
		return err
	}
	sayConfigWarnings(stderr, cfg)
	tasks := bash.NewTasks()
	defer tasks.KillAll()
	settings := envSettings(cfg)
	m := mcp.New(mcp.Options{
		Workspace: cfg.Workspace,
		LogDir:    filepath.Join(config.StateDir(os.Getenv), "mcp-logs"),
		ChildEnv:  func(d string) []string { return tasks.ChildEnv(settings, d) },
		Start:     startProgram(tasks),
		Version:   version,
	})
	defer m.Close()
	m.Add(cfg.MCPServers)
	m.AddUntrusted(cfg.UntrustedMCPServers)
	ctx, cancel := context.WithTimeout(context.Background(), mcp.DefaultStartTimeout+5*time.Second)
	m.Wait(ctx)
	cancel()
	list := m.Status()
	if *asJSON {
		return writeJSONLines(stdout, list)
	}
	_, err = io.WriteString(stdout, strings.TrimRight(mcp.Format(list), "\n")+"\n")
	return err
}
