package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/tools"
)

// typeAheadGuard is how long after the last key press a new modal ignores answers, so that keys typed
// just before it appeared (meant for the input) never answer it.
const typeAheadGuard = 500 * time.Millisecond

// approvalMsg is one question from the agent; the answer goes to reply (buffered, never blocks).
type approvalMsg struct {
	req   agent.ApprovalRequest
	reply chan agent.Approval
}

type modalStage int

const (
	stageChoose modalStage = iota
	stageConfirmRule
	stageReason
)

// modal asks about one call at a time; requests that arrive meanwhile wait in its queue.
type modal struct {
	queue   []approvalMsg
	armedAt time.Time
	stage   modalStage
	scope   agent.Scope
	reason  textinput.Model
	note    string
}

// ask shows a request: it opens the modal, or queues behind the one being answered.
func (m *Model) ask(msg approvalMsg) tea.Cmd {
	if p := m.askedCall(msg.req); p != nil {
		p.state = stateAsking
		p.touch()
		m.conv.version++
	}
	for _, o := range m.overlays {
		if md, ok := o.(*modal); ok {
			md.queue = append(md.queue, msg)
			return nil
		}
	}
	md := &modal{queue: []approvalMsg{msg}}
	m.push(md)
	return md.open(m)
}

// askedCall finds the panel of the call a request is about. A sub-agent's call ids can repeat the main
// agent's, so the request's agent label must match too; the newest call that can still ask wins.
func (m *Model) askedCall(req agent.ApprovalRequest) *panel {
	for i := len(m.calls) - 1; i >= 0; i-- {
		if p := m.calls[i]; p.id == req.CallID && p.agent == req.Agent && p.active() {
			return p
		}
	}
	return nil
}

// open arms the modal for the request at the head of the queue.
func (md *modal) open(m *Model) tea.Cmd {
	now := m.now()
	md.stage, md.note = stageChoose, ""
	md.armedAt = now
	if guard := m.lastKey.Add(typeAheadGuard); guard.After(now) {
		md.armedAt = guard
	}
	return md.wake(now)
}

func (md *modal) wake(now time.Time) tea.Cmd {
	if !md.armedAt.After(now) {
		return nil
	}
	return tea.Tick(md.armedAt.Sub(now)+time.Millisecond, func(time.Time) tea.Msg { return wakeMsg{} })
}

func (md *modal) fullScreen() bool { return false }

func (md *modal) current() approvalMsg { return md.queue[0] }

// answer replies to the current request and moves on to the next.
func (md *modal) answer(m *Model, ap agent.Approval) tea.Cmd {
	md.current().reply <- ap
	return md.next(m)
}

func (md *modal) next(m *Model) tea.Cmd {
	md.queue = md.queue[1:]
	m.conv.version++
	if len(md.queue) == 0 {
		return m.pop(md)
	}
	return md.open(m)
}

// withdraw drops a request whose call was decided without the person (its context ended); agent is the
// label of the sub-agent that made the call ("" for the main agent).
func (md *modal) withdraw(m *Model, agent, callID string) {
	for i, q := range md.queue {
		if q.req.CallID != callID || q.req.Agent != agent {
			continue
		}
		if i == 0 {
			md.next(m)
			return
		}
		md.queue = append(md.queue[:i], md.queue[i+1:]...)
		return
	}
}

// withdrawAll closes the modal after an interrupt: the agent's Approve calls return on their contexts.
func (md *modal) withdrawAll(m *Model) {
	md.queue = nil
	m.pop(md)
}

func (md *modal) update(m *Model, msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if md.stage == stageReason {
			var cmd tea.Cmd
			md.reason, cmd = md.reason.Update(msg)
			return cmd
		}
		return nil
	}
	now := m.now()
	if now.Before(md.armedAt) {
		// Type-ahead: keep ignoring until the person pauses.
		md.armedAt = now.Add(typeAheadGuard)
		return md.wake(now)
	}
	req := md.current().req
	keys := m.keys
	switch md.stage {
	case stageConfirmRule:
		switch {
		case key.Matches(k, keys.Confirm):
			return md.answer(m, agent.Approval{Allow: true, Scope: md.scope, Rule: req.Verdict.SuggestedRule})
		case k.String() == "esc":
			md.stage = stageChoose
		}
		return nil
	case stageReason:
		switch k.String() {
		case "enter":
			msg := strings.TrimSpace(md.reason.Value())
			if p := m.askedCall(req); p != nil {
				p.told = strings.ReplaceAll(msg, "\n", " ")
			}
			return md.answer(m, agent.Approval{Allow: false, Message: msg})
		case "esc":
			md.stage = stageChoose
			return nil
		}
		var cmd tea.Cmd
		md.reason, cmd = md.reason.Update(msg)
		return cmd
	}
	md.note = ""
	switch {
	case key.Matches(k, keys.Allow):
		return md.answer(m, agent.Approval{Allow: true, Scope: agent.Once})
	case key.Matches(k, keys.AllowSession), key.Matches(k, keys.AllowProject):
		if req.Verdict.SuggestedRule == "" {
			md.note = "No rule can be saved for this call: nothing narrower than allowing everything would match it. Use y to allow it once."
			return nil
		}
		md.scope = agent.ForSession
		if key.Matches(k, keys.AllowProject) {
			md.scope = agent.ForProject
		}
		md.stage = stageConfirmRule
	case key.Matches(k, keys.Deny):
		return md.answer(m, agent.Approval{Allow: false})
	case key.Matches(k, keys.DenyWithReason):
		md.reason = textinput.New()
		md.reason.Prompt = "› "
		md.reason.Placeholder = "what the model should do instead"
		md.reason.SetWidth(max(m.width-12, 10))
		md.stage = stageReason
		return md.reason.Focus()
	default:
		// Shift+Tab, Ctrl+T and the rest wait until the request is answered; say so rather than do nothing.
		md.note = fmt.Sprintf("%s does nothing here: answer first with y, a, p, n/esc or d.", k.String())
	}
	return nil
}

// view draws the modal box; the root places it over the bottom of the conversation.
func (md *modal) view(m *Model, width, height int) string {
	st := m.st
	req := md.current().req
	inner := max(width-4, 10)
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(wrap(s, inner), "\n")...) }
	if req.Verdict.Dangerous {
		lines = append(lines, st.banner.Render(fit("⚠ DANGEROUS: this command can destroy data or the system", inner-2)))
	}
	if req.Access.Unsandboxed {
		lines = append(lines, st.banner.Render(fit("⚠ OUTSIDE THE SANDBOX: this command runs unconfined", inner-2)))
	}
	title := "Allow " + req.Tool + "?"
	if req.Agent != "" {
		title += " — sub-agent: " + req.Agent
	}
	if n := len(md.queue); n > 1 {
		title += st.dim.Render(fmt.Sprintf("  (1 of %d waiting)", n))
	}
	add(st.bold.Render(title))
	// The banners and the title above, and the keys below, always show; what lies between (the
	// command, where, why, the diff) is cut from its end when the modal does not fit.
	head := len(lines)

	// The command or path, in full, every control character visible, the part that needs approval marked.
	subject := req.Access.Command
	if req.Access.Kind != tools.AccessExec || subject == "" {
		subject = req.Access.Path
		if subject == "" {
			subject = req.Access.Summary
		}
	}
	body := highlightPart(subject, req.Verdict.Part, st.highlight, st.control)
	if req.Access.Kind == tools.AccessExec {
		body = "$ " + body
	}
	cmdLines := strings.Split(wrap(body, inner), "\n")
	budget := max(height-12, 3)
	diffBudget := budget / 2
	if req.Access.Diff == "" {
		diffBudget = 0
	}
	cmdBudget := max(budget-diffBudget, 2)
	if len(cmdLines) > cmdBudget {
		more := len(cmdLines) - cmdBudget + 1
		cmdLines = append(cmdLines[:cmdBudget-1], st.warn.Render(fmt.Sprintf("… %s more; a larger terminal shows them", plural(more, "line", "lines"))))
	}
	lines = append(lines, cmdLines...)
	if cwd := req.Access.Cwd; cwd != "" {
		add(st.dim.Render("in " + cwd))
	}
	if r := req.Verdict.Reason; r != "" {
		add(st.warn.Render("Why: ") + r)
	}
	if req.Access.Diff != "" {
		lines = append(lines, diffLines(req.Access.Diff, inner, diffBudget, st)...)
	}
	lines = append(lines, "")
	keys := len(lines)
	switch {
	case md.stage == stageConfirmRule:
		where := "for this session"
		if md.scope == agent.ForProject {
			where = "for this project (saved to .warden/settings.local.json)"
		}
		add("Always allow " + where + " with the rule:")
		add("  " + st.accent.Render(req.Verdict.SuggestedRule))
		add(st.keyHint.Render("enter save and allow · esc back"))
	case md.stage == stageReason:
		add("Deny and tell the model why:")
		lines = append(lines, fit(md.reason.View(), inner))
		add(st.keyHint.Render("enter deny and send · esc back"))
	case m.now().Before(md.armedAt):
		add(st.dim.Render("keys paused for a moment, so that typing meant for the input cannot answer…"))
	default:
		hint := "y allow once · a always (session) · p always (project) · n/esc deny · d deny with reason"
		if req.Verdict.SuggestedRule == "" {
			hint = "y allow once · n/esc deny · d deny with reason  (a/p unavailable: no narrow rule)"
		}
		add(st.keyHint.Render(hint))
	}
	if md.note != "" {
		add(st.warn.Render(md.note))
	}
	if over := len(lines) - (height - 2); over > 0 {
		keep := max(keys-head-over-1, 1)
		if keep < keys-head {
			mid := append(lines[head:head+keep:head+keep], st.warn.Render(fit("… cut to fit this terminal; a larger one shows it all", inner)))
			lines = append(append(lines[:head:head], mid...), lines[keys:]...)
		}
		if len(lines) > height-2 {
			lines = lines[len(lines)-(height-2):]
		}
	}
	return strings.Join(box(lines, width, st.modal), "\n")
}

// highlightPart renders s with controls visible and the first occurrence of part highlighted.
func highlightPart(s, part string, hl, ctl interface{ Render(...string) string }) string {
	vis := func(x string) string { return visibleWith(x, ctl) }
	i := -1
	if part != "" {
		i = strings.Index(s, part)
	}
	if i < 0 {
		return vis(s)
	}
	var parts []string
	for _, l := range strings.Split(vis(s[i:i+len(part)]), "\n") {
		parts = append(parts, hl.Render(l))
	}
	return vis(s[:i]) + strings.Join(parts, "\n") + vis(s[i+len(part):])
}

// diffLines colours a unified diff and cuts it to budget lines.
func diffLines(diff string, width, budget int, st styles) []string {
	var out []string
	all := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	for i, l := range all {
		if len(out) >= budget-1 && i < len(all)-1 {
			out = append(out, st.dim.Render(fmt.Sprintf("… %s more", plural(len(all)-i, "diff line", "diff lines"))))
			break
		}
		l = fit(cleanLine(l), width)
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			l = st.bold.Render(l)
		case strings.HasPrefix(l, "+"):
			l = st.diffAdd.Render(l)
		case strings.HasPrefix(l, "-"):
			l = st.diffDel.Render(l)
		case strings.HasPrefix(l, "@@"):
			l = st.diffHunk.Render(l)
		}
		out = append(out, l)
	}
	return out
}
