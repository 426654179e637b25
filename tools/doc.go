// Package tools is the tool framework: what a tool is to the agent (Tool: a name, a description, a JSON
// schema, the Access a call would have, and Run), tools built from a typed parameters struct (New, Spec;
// the schema comes from the struct's fields), the registry of the tools offered to the model, and a call's
// Result, split into the content for the model (its text, and pictures) and the metadata for the person.
// It also holds what the tools of a session share, so that every tool package sits above it: the Env (the
// workspace, the current directory that `cd` moves, the files the model has read, the settings every tool
// runs with), the environment every program a tool starts gets (ChildEnv, an allow-list), the way numbers
// are written for the model (Commas, HumanBytes) and the test of text against binary, and the todo_write
// tool.
//
// The tools themselves live in the packages below it, each named for what it is:
//
//   - bash: the bash engine (processes, live output, truncation, background tasks, limits, the read-only
//     jail's use, the supervisor's client) and the bash, bash_output and kill_bash tools;
//   - files: read_file, write_file, edit_file, glob and grep;
//   - images: pictures made ready for the model (read, bounded, scaled down), which read_file returns;
//   - web: web_fetch, a page as Markdown, and which addresses a fetch may reach;
//   - sandbox: the first wall, which confines every command when the person turns it on;
//   - jail: the second wall, the read-only jail of the commands that run unasked;
//   - supervisor: the per-session process that starts every command and stops them all when Warden goes;
//   - confine: what the two walls share, the seccomp filter and dropping capabilities.
//
// It must never import ui, agent, config or permissions: the agent decides whether a call may run (using
// the Access a tool reports) and only then calls Run. Tools know nothing about who approved them, beyond
// Call.Jailed: that a command runs unasked because it was judged read-only. Of its own sub-packages it
// imports only sandbox, whose Config the settings carry; the others import it, never the other way.
package tools
