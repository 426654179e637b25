package ui

import tea "charm.land/bubbletea/v2"

// initPrompt asks the model to write the project's instruction file.
const initPrompt = `Write an AGENTS.md file at the root of this repository, for coding agents that will work on it.

First find out, with your tools, what the project is: read the README, the build and package files, the CI configuration and a few central source files. If AGENTS.md exists, improve it rather than starting over; if CLAUDE.md, .cursorrules, .cursor/rules/ or .github/copilot-instructions.md exist, take what is still true from them.

AGENTS.md should be short (under 150 lines) and say only what an agent could not guess:
- the commands to build, test (the whole suite and a single test), lint and format;
- how the code is laid out, and which packages or modules may depend on which;
- the conventions the code follows (naming, errors, tests) and the mistakes to avoid;
- anything about running it locally that is not obvious.

Write facts you checked, not generic advice. When you are done, say in a few lines what you wrote.`

func init() {
	registerBuiltin(Command{Name: "init", Desc: "have the model write AGENTS.md (how to work on this repository)",
		Run: func(m *Model, _ string) tea.Cmd {
			return m.sendRequest(request{text: initPrompt, shown: "/init"})
		}})
}
