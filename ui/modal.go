package ui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/warden-cli/warden/agent"
	"github.com/warden-cli/warden/tools"
)

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
	// scroll is the first line of the body (command, where, why, diff) shown when it does not fit;
	// maxScroll is the largest useful one and page how many lines show, both found by the last view.
	scroll, maxScroll, page int
	// body caches the rendered body of the request at the head of the queue, for bodyWidth; open
	// clears it whenever the head changes. A diff may run to thousands of lines.
	body      []string
	bodyWidth int
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
	// The person may have been reading further up; what asks must be in sight, and the modal takes the
	// keys that would bring it back.
	m.conv.follow()
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
	md.stage, md.note = stageChoose, ""
	md.scroll, md.maxScroll, md.body = 0, math.MaxInt32, nil // the view measures maxScroll
	var wake tea.Cmd
	md.armedAt, wake = armAfterTyping(m)
	return wake
}

func (md *modal) wake(now time.Time) tea.Cmd {
	if !md.armedAt.After(now) {
		return nil
	}
	return wakeIn(md.armedAt.Sub(now))
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
	if key.Matches(k, m.keys.ModalScroll) && md.scrollKey(k.String()) {
		return nil // reading is not answering: scrolling works even while the keys are paused
	}
	now := m.now()
	if stillTyping(&md.armedAt, now) {
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

// bodyLines renders what lies between the reason and the keys: the command or path in full, every control
// character visible and the part that needs approval marked; where it runs; the diff.
func (md *modal) bodyLines(m *Model, req agent.ApprovalRequest, inner int) []string {
	if md.body != nil && md.bodyWidth == inner {
		return md.body
	}
	if req.Access.Kind == tools.AccessMCP && req.Access.MCP != nil {
		md.body, md.bodyWidth = mcpBodyLines(m, req, inner), inner
		return md.body
	}
	st := m.st
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(wrap(s, inner), "\n")...) }
	subject := req.Access.Command
	if req.Access.Kind != tools.AccessExec || subject == "" {
		subject = req.Access.Path
		if subject == "" {
			subject = req.Access.Summary
		}
	}
	shown := highlightPart(subject, req.Verdict.Part, st.highlight, st.control, st.dim)
	if req.Access.Kind == tools.AccessExec {
		shown = "$ " + shown
	}
	add(shown)
	if cwd := req.Access.Cwd; cwd != "" {
		add(st.dim.Render("in " + cwd))
	}
	if req.Access.Diff != "" {
		lines = append(lines, diffLines(req.Access.Diff, inner, st)...)
	}
	md.body, md.bodyWidth = lines, inner
	return lines
}

// scrollKey moves the body for the arrows, PgUp/PgDn, Home and End, and says whether k was one of them.
func (md *modal) scrollKey(k string) bool {
	if md.stage == stageReason && k != "pgup" && k != "pgdown" {
		return false // the arrows, Home and End belong to the text being typed
	}
	page := max(md.page-1, 1) // a page keeps one line of the last in sight
	switch k {
	case "up":
		md.scroll--
	case "down":
		md.scroll++
	case "pgup":
		md.scroll -= page
	case "pgdown":
		md.scroll += page
	case "home":
		md.scroll = 0
	case "end":
		md.scroll = md.maxScroll
	default:
		return false
	}
	md.scroll = min(max(md.scroll, 0), md.maxScroll)
	return true
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
	pinned := len(lines)
	if r := req.Verdict.Reason; r != "" {
		add(st.warn.Render("Why: ") + expandTabs(r))
	}
	// The banners, the title and why it asks above, and the keys below, always show; what lies between
	// (the command, where, the diff) scrolls when the modal does not fit, so that everything the person
	// approves can be read before they answer.
	head := lines
	body := md.bodyLines(m, req, inner)
	lines = []string{""}

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
	tail := lines

	// The body gets the rows the head and tail leave, less a few for the conversation above, so that the
	// panel asking stays in sight; when it needs more, one of them says which lines show and how to see
	// the others.
	// On a terminal too small for all that, the reason gives way before the command's first line.
	const keepForConversation = 6
	fixed := pinned + len(tail)
	room := max(height-2-len(head)-len(tail)-keepForConversation, 2)
	head = head[:pinned+min(len(head)-pinned, max(height-2-fixed-min(room, len(body)), 0))]
	md.maxScroll = 0
	if len(body) > room {
		shown := room - 1
		md.maxScroll, md.page = len(body)-shown, shown
		md.scroll = min(max(md.scroll, 0), md.maxScroll)
		where := fmt.Sprintf("lines %d–%d of %d", md.scroll+1, md.scroll+shown, len(body))
		body = append(body[md.scroll:md.scroll+shown:md.scroll+shown],
			st.warn.Render(fit("── "+where+" · ↑↓ PgUp/PgDn Home/End to read it all ──", inner)))
	}
	lines = append(append(head, body...), tail...)
	if len(lines) > height-2 { // a terminal too small even for the head and the keys
		lines = lines[len(lines)-(height-2):]
	}
	return strings.Join(box(lines, width, st.modal), "\n")
}

// highlightPart renders s with controls visible and the first occurrence of part highlighted.
func highlightPart(s, part string, hl, ctl, soft renderer) string {
	vis := func(x string) string { return visible(x, ctl, soft) }
	i := -1
	if part != "" {
		i = strings.Index(s, part)
	}
	if i < 0 {
		return vis(s)
	}
	return vis(s[:i]) + visibleIn(s[i:i+len(part)], hl, ctl, soft) + vis(s[i+len(part):])
}

// diffLines colours a unified diff, wrapping long lines so that none of it is hidden.
func diffLines(diff string, width int, st styles) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		render := func(s ...string) string { return strings.Join(s, "") }
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			render = st.bold.Render
		case strings.HasPrefix(l, "+"):
			render = st.diffAdd.Render
		case strings.HasPrefix(l, "-"):
			render = st.diffDel.Render
		case strings.HasPrefix(l, "@@"):
			render = st.diffHunk.Render
		}
		for _, w := range strings.Split(wrap(cleanLine(l), width), "\n") {
			out = append(out, render(w))
		}
	}
	return out
}
