package skills

import (
	"context"
	"fmt"
	"strings"

	"github.com/warden-cli/warden/tools"
)

// The skill tool: its description lists the skills the model may use, each by name and description, and
// a call returns one skill's instructions and file list. The list is read from the catalog at every
// request, so skills that join while the session runs are offered from the next request on.

type skillParams struct {
	Name string `json:"name" desc:"The skill's name, as listed in this tool's description."`
}

const toolIntro = `Loads a skill: instructions, and often scripts or reference files, that the user installed for a particular kind of task. When a task matches a skill's description, call this tool with the skill's name before doing the task, then follow the instructions it returns; read the skill's other files with read_file when the instructions call for them.`

// Bounds of the listing, which is sent with every request: each description is cut at maxListedDescription
// characters, and past maxListing characters the remaining skills are named without their descriptions,
// at most maxNamesOnly of them.
const (
	maxListedDescription = 250
	maxListing           = 8000
	maxNamesOnly         = 200
)

// Tool returns the skill tool over the catalog.
func (c *Catalog) Tool() tools.Tool {
	return &skillTool{c: c, Tool: tools.New(tools.Spec[skillParams]{
		Name:        "skill",
		Description: toolIntro,
		Access: func(env *tools.Env, p *skillParams) (tools.Access, error) {
			if _, err := c.usable(p.Name); err != nil {
				return tools.Access{}, err
			}
			// The instructions are what the person installed, read through the session's opener; the
			// files they name are read with read_file, decided like any read.
			return tools.Access{Kind: tools.AccessNone, Summary: p.Name, Cwd: env.Cwd()}, nil
		},
		Run: func(ctx context.Context, env *tools.Env, call tools.Call, p *skillParams) tools.Result {
			s, err := c.usable(p.Name)
			if err != nil {
				return tools.Errorf("%v", err)
			}
			return tools.Result{Output: c.Instructions(s)}
		},
	})}
}

// skillTool is the tool with a description written from the catalog when asked.
type skillTool struct {
	tools.Tool
	c *Catalog
}

// Description implements tools.Tool.
func (t *skillTool) Description() string { return t.c.listing() }

// usable returns the skill the model may load by that name, or says why there is none.
func (c *Catalog) usable(name string) (Skill, error) {
	name = strings.TrimSpace(name)
	s, ok := c.Get(name)
	switch {
	case !ok:
		var names []string
		for _, s := range c.List() {
			if s.ModelInvocable {
				names = append(names, s.Name)
			}
		}
		if len(names) == 0 {
			return Skill{}, fmt.Errorf("there is no skill %q: no skill is installed", name)
		}
		return Skill{}, fmt.Errorf("there is no skill %q; the skills are: %s", name, strings.Join(names, ", "))
	case !s.ModelInvocable:
		return Skill{}, fmt.Errorf("the skill %q is one only the user runs (/%s); do not use it unless they do", name, name)
	}
	return s, nil
}

// listing is the tool's description: what it does, then the skills it can load.
func (c *Catalog) listing() string {
	var b strings.Builder
	b.WriteString(toolIntro)
	var rest []string
	n := 0
	for _, s := range c.List() {
		if !s.ModelInvocable {
			continue
		}
		if n == 0 {
			b.WriteString("\n\nAvailable skills:\n")
		}
		n++
		desc := strings.Join(strings.Fields(s.Description), " ")
		if r := []rune(desc); len(r) > maxListedDescription {
			desc = string(r[:maxListedDescription-1]) + "…"
		}
		line := fmt.Sprintf("- %s: %s\n", s.Name, desc)
		if b.Len()+len(line) > maxListing || len(rest) > 0 {
			rest = append(rest, s.Name)
			continue
		}
		b.WriteString(line)
	}
	switch {
	case n == 0:
		b.WriteString("\n\nNo skill is available now.")
	case len(rest) > maxNamesOnly:
		fmt.Fprintf(&b, "More skills (by name only): %s, and %d more.", strings.Join(rest[:maxNamesOnly], ", "), len(rest)-maxNamesOnly)
	case len(rest) > 0:
		fmt.Fprintf(&b, "More skills (by name only): %s.", strings.Join(rest, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}
