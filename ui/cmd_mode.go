package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/permissions"
)

func init() {
	registerBuiltin(Command{Name: "mode", Args: "[MODE]",
		Desc: "set the permission mode; alone, the next one (" + hintKeys(defaultKeys.Mode) + ")",
		Run: func(m *Model, args string) tea.Cmd {
			if args == "" {
				return m.cycleMode()
			}
			e := m.opts.Engine
			if e == nil {
				return m.setFlash("No permission engine: nothing to set")
			}
			mode, err := permissions.ParseMode(args)
			if err != nil {
				return m.setFlash(err.Error())
			}
			e.SetMode(mode)
			return m.setFlash(fmt.Sprintf("Permission mode: %s", mode))
		}})
}
