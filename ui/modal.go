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
	return md.open(m.overlayCtx())
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
func (md *modal) open(c overlayCtx) tea.Cmd {
	md.stage, md.note = stageChoose, ""
	md.scroll, md.maxScroll, md.body = 0, math.MaxInt32, nil // the view measures maxScroll
	var wake tea.Cmd
	md.armedAt, wake = armAfterTyping(c)
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

// approvalAnswered is the modal's message to the root once it has replied to the request at the head of
// its queue: the root moves it on to the next request, or closes it. told, with a reason, is what the
// person told the model, which the call's panel shows.
type approvalAnswered struct {
	md     *modal
	req    agent.ApprovalRequest
	reason bool
	told   string
}

// answer replies to the current request; the message it returns has the root move on.
func (md *modal) answer(ap agent.Approval) approvalAnswered {
	req := md.current().req
	md.current().reply <- ap
	return approvalAnswered{md: md, req: req}
}

func (m *Model) approvalAnswered(a approvalAnswered) tea.Cmd {
	if a.reason {
		if p := m.askedCall(a.req); p != nil {
			p.told = a.told
		}
	}
	return m.nextRequest(a.md)
}

// nextRequest drops the request at the head of md's queue and shows the next, or closes the modal.
func (m *Model) nextRequest(md *modal) tea.Cmd {
	md.queue = md.queue[1:]
	m.conv.version++
	if len(md.queue) == 0 {
		return m.pop(md)
	}
	return md.open(m.overlayCtx())
}

// withdraw drops a request whose call was decided without the person (its context ended); agent is the
// label of the sub-agent that made the call ("" for the main agent).
func (m *Model) withdraw(md *modal, agent, callID string) {
	for i, q := range md.queue {
		if q.req.CallID != callID || q.req.Agent != agent {
			continue
		}
		if i == 0 {
			m.nextRequest(md)
			return
		}
		md.queue = append(md.queue[:i], md.queue[i+1:]...)
		return
	}
}

// withdrawAll closes the modal after an interrupt: the agent's Approve calls return on their contexts.
func (m *Model) withdrawAll(md *modal) {
	md.queue = nil
	m.pop(md)
}

func (md *modal) update(c overlayCtx, msg tea.Msg) (tea.Msg, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if md.stage == stageReason {
			var cmd tea.Cmd
			md.reason, cmd = md.reason.Update(msg)
			return nil, cmd
		}
		return nil, nil
	}
	keys := c.keys
	if md.scrollKey(keys, k) {
		return nil, nil // reading is not answering: scrolling works even while the keys are paused
	}
	if stillTyping(&md.armedAt, c.now) {
		return nil, md.wake(c.now)
	}
	req := md.current().req
	switch md.stage {
	case stageConfirmRule:
		switch {
		case key.Matches(k, keys.Confirm):
			return md.answer(agent.Approval{Allow: true, Scope: md.scope, Rule: req.Verdict.SuggestedRule}), nil
		case key.Matches(k, keys.Cancel):
			md.stage = stageChoose
		}
		return nil, nil
	case stageReason:
		switch {
		case key.Matches(k, keys.Confirm):
			msg := strings.TrimSpace(md.reason.Value())
			a := md.answer(agent.Approval{Allow: false, Message: msg})
			a.reason, a.told = true, strings.ReplaceAll(msg, "\n", " ")
			return a, nil
		case key.Matches(k, keys.Cancel):
			md.stage = stageChoose
			return nil, nil
		}
		var cmd tea.Cmd
		md.reason, cmd = md.reason.Update(msg)
		return nil, cmd
	}
	md.note = ""
	switch {
	case key.Matches(k, keys.Allow):
		return md.answer(agent.Approval{Allow: true, Scope: agent.Once}), nil
	case key.Matches(k, keys.AllowSession, keys.AllowProject):
		if req.Verdict.SuggestedRule == "" {
			md.note = fmt.Sprintf("No rule can be saved for this call: nothing narrower than allowing everything would match it. Use %s to allow it once.", hintKey(keys.Allow))
			return nil, nil
		}
		md.scope = agent.ForSession
		if key.Matches(k, keys.AllowProject) {
			md.scope = agent.ForProject
		}
		md.stage = stageConfirmRule
	case key.Matches(k, keys.Deny):
		return md.answer(agent.Approval{Allow: false}), nil
	case key.Matches(k, keys.DenyWithReason):
		md.reason = textinput.New()
		md.reason.Prompt = "› "
		md.reason.Placeholder = "what the model should do instead"
		md.reason.SetWidth(max(c.width-12, 10))
		md.stage = stageReason
		return nil, md.reason.Focus()
	default:
		// Shift+Tab, Ctrl+T and the rest wait until the request is answered; say so rather than do nothing.
		md.note = fmt.Sprintf("%s does nothing here: answer first with %s, %s, %s, %s or %s.", k.String(),
			hintKey(keys.Allow), hintKey(keys.AllowSession), hintKey(keys.AllowProject), hintKey(keys.Deny), hintKey(keys.DenyWithReason))
	}
	return nil, nil
}

// bodyLines renders what lies between the reason and the keys: the command or path in full, every control
// character visible and the part that needs approval marked; where it runs; the diff.
func (md *modal) bodyLines(st *styles, req agent.ApprovalRequest, inner int) []string {
	if md.body != nil && md.bodyWidth == inner {
		return md.body
	}
	if req.Access.Kind == tools.AccessMCP && req.Access.MCP != nil {
		md.body, md.bodyWidth = mcpBodyLines(st, req, inner), inner
		return md.body
	}
	if req.Access.Kind == tools.AccessFetch {
		md.body, md.bodyWidth = fetchBodyLines(st, req, inner), inner
		return md.body
	}
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
		lines = append(lines, diffLines(req.Access.Diff, inner, *st)...)
	}
	md.body, md.bodyWidth = lines, inner
	return lines
}

// scrollKey moves the body for the keys that read a long command (ModalScroll: the arrows, PgUp/PgDn,
// Home and End), and says whether k was one of them. While a reason is typed, the arrows, Home and End
// belong to the text.
func (md *modal) scrollKey(keys *keyMap, k tea.KeyPressMsg) bool {
	if !key.Matches(k, keys.ModalScroll) || md.stage == stageReason && !key.Matches(k, keys.PageUp, keys.PageDown) {
		return false
	}
	page := max(md.page-1, 1) // a page keeps one line of the last in sight
	switch {
	case key.Matches(k, keys.Up):
		md.scroll--
	case key.Matches(k, keys.Down):
		md.scroll++
	case key.Matches(k, keys.PageUp):
		md.scroll -= page
	case key.Matches(k, keys.PageDown):
		md.scroll += page
	case key.Matches(k, keys.Top):
		md.scroll = 0
	case key.Matches(k, keys.Bottom):
		md.scroll = md.maxScroll
	default:
		return false
	}
	md.scroll = min(max(md.scroll, 0), md.maxScroll)
	return true
}

// view draws the modal box; the root places it over the bottom of the conversation.
func (md *modal) view(c overlayCtx, width, height int) string {
	st, keys := c.st, c.keys
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
	body := md.bodyLines(st, req, inner)
	lines = []string{""}

	switch {
	case md.stage == stageConfirmRule:
		where := "for this session"
		if md.scope == agent.ForProject {
			where = "for this project (saved to .warden/settings.local.json)"
		}
		add("Always" + or(thisDomain(req), " allow") + " " + where + " with the rule:")
		add("  " + st.accent.Render(req.Verdict.SuggestedRule))
		add(st.keyHint.Render(hint(hintKey(keys.Confirm)+" save and allow", hintKey(keys.Cancel)+" back")))
	case md.stage == stageReason:
		add("Deny and tell the model why:")
		lines = append(lines, fit(md.reason.View(), inner))
		add(st.keyHint.Render(hint(hintKey(keys.Confirm)+" deny and send", hintKey(keys.Cancel)+" back")))
	case c.now.Before(md.armedAt):
		add(st.dim.Render("keys paused for a moment, so that typing meant for the input cannot answer…"))
	default:
		answers := hint(hintKey(keys.Allow)+" allow once", hintKey(keys.AllowSession)+" always"+thisDomain(req)+" (session)",
			hintKey(keys.AllowProject)+" always"+thisDomain(req)+" (project)", hintKey(keys.Deny)+" deny", hintKey(keys.DenyWithReason)+" deny with reason")
		if req.Verdict.SuggestedRule == "" {
			answers = hint(hintKey(keys.Allow)+" allow once", hintKey(keys.Deny)+" deny", hintKey(keys.DenyWithReason)+" deny with reason") +
				fmt.Sprintf("  (%s unavailable: no narrow rule)", hintKeys(keys.AllowSession, keys.AllowProject))
		}
		add(st.keyHint.Render(answers))
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
			st.warn.Render(fit("── "+where+" · "+hintKey(keys.ModalScroll)+" to read it all ──", inner)))
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
