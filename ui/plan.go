package ui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/permissions"
)

// The plan the model presents in plan mode (exit_plan_mode): shown full-screen, rendered as Markdown, with
// three answers: approve it and go on in default mode (edits are asked), approve it and go on in
// accept-edits mode, or keep planning and tell the model why. The answers are a confirm, so the plan
// scrolls, the answers are listed from their bindings and keys typed just before it opened never answer
// it; keeping planning then asks for the reason on the same screen.

// planReview is one plan waiting for the person: the agent's request and where the answer goes
// (buffered: answering never blocks, even after the agent stopped waiting).
type planReview struct {
	req   agent.PlanRequest
	reply chan agent.PlanAnswer
}

// ReviewPlan is the TUI's agent.PlanReviewer: the plan opens in its overlay, and the answer comes back;
// when ctx ends first (the person interrupted), the overlay is taken away.
func (a approver) ReviewPlan(ctx context.Context, req agent.PlanRequest) (agent.PlanAnswer, error) {
	q := &planReview{req: req, reply: make(chan agent.PlanAnswer, 1)}
	a.s.Send(commandResult(func(m *Model) tea.Cmd { return m.showPlan(q) }))
	select {
	case ans := <-q.reply:
		return ans, nil
	case <-ctx.Done():
		a.s.Send(commandResult(func(m *Model) tea.Cmd { return m.withdrawPlan(q) }))
		return agent.PlanAnswer{}, ctx.Err()
	}
}

// planAnswered is the plan overlay's message once the person has answered.
type planAnswered struct {
	o   *planOverlay
	ans agent.PlanAnswer
}

// keepPlanning is the confirm's answer that opens the reason.
type keepPlanning struct{}

// planOverlay is the plan on screen: a confirm for the answers, then, to keep planning, a line for the
// reason.
type planOverlay struct {
	q      *planReview
	ask    *confirm
	typing bool
	reason textinput.Model
}

// showPlan opens the plan overlay for q.
func (m *Model) showPlan(q *planReview) tea.Cmd {
	style := markdownStyle(m.isDark, m.noColor)
	var md markdown
	var rendered string
	renderedWidth := -1
	o := &planOverlay{q: q}
	o.ask = &confirm{
		title: "Plan · the model asks to go ahead",
		body: func(st *styles, width int) string {
			if width != renderedWidth {
				rendered, renderedWidth = strings.Join(md.render(q.req.Plan, style, width), "\n"), width
			}
			return rendered + "\n\n" + st.dim.Render(wrap("Approving ends plan mode: the model carries the plan out, "+
				"asking before edits (or not, if you accept edits); keeping planning keeps it read-only.", width))
		},
		choices: []choice{
			{keys: []key.Binding{m.keys.PlanApprove}, does: "approve, ask before edits",
				msg: planAnswered{o: o, ans: agent.PlanAnswer{Approve: true, Mode: permissions.ModeDefault}}},
			{keys: []key.Binding{m.keys.PlanAcceptEdits}, does: "approve, accept edits",
				msg: planAnswered{o: o, ans: agent.PlanAnswer{Approve: true, Mode: permissions.ModeAcceptEdits}}},
			{keys: []key.Binding{m.keys.PlanKeep}, does: "keep planning", msg: keepPlanning{}},
		},
	}
	var wake tea.Cmd
	o.ask.armedAt, wake = armAfterTyping(m.overlayCtx())
	m.push(o)
	return wake
}

// withdrawPlan takes q's overlay away: the agent stopped waiting for it.
func (m *Model) withdrawPlan(q *planReview) tea.Cmd {
	for _, o := range m.overlays {
		if p, ok := o.(*planOverlay); ok && p.q == q {
			return m.pop(p)
		}
	}
	return nil
}

func (o *planOverlay) fullScreen() bool { return true }

func (o *planOverlay) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	if !o.typing {
		out, cmd := o.ask.update(c, msg)
		switch a := out.(type) {
		case planAnswered:
			a.o.q.reply <- a.ans
			return closeOverlay{o}, nil
		case keepPlanning:
			o.typing = true
			o.reason = textinput.New()
			o.reason.Prompt = "› "
			o.reason.Placeholder = "what the model should change (enter alone: just keep planning)"
			o.reason.SetWidth(max(c.width-4, 10))
			return nil, o.reason.Focus()
		}
		return out, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, c.keys.Confirm):
			o.q.reply <- agent.PlanAnswer{Message: strings.TrimSpace(o.reason.Value())}
			return closeOverlay{o}, nil
		case key.Matches(k, c.keys.Cancel):
			o.typing = false
			return nil, nil
		}
	}
	var cmd tea.Cmd
	o.reason, cmd = o.reason.Update(msg)
	return nil, cmd
}

func (o *planOverlay) view(c overlayCtx, width, height int) string {
	if !o.typing {
		return o.ask.view(c, width, height)
	}
	// The plan's end stays in sight above the reason.
	st := c.st
	tail := []string{"", st.bold.Render("Keep planning: tell the model what to change"), fit(o.reason.View(), width)}
	room := max(height-2-len(tail), 1)
	lines := strings.Split(o.ask.body(st, width), "\n")
	if len(lines) > room {
		lines = lines[len(lines)-room:]
	}
	footer := hint(hintKey(c.keys.Confirm)+" send", hintKey(c.keys.Cancel)+" back to the answers")
	return frame(c, o.ask.title, strings.Join(append(lines, tail...), "\n"), footer, width, height)
}
