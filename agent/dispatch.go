package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/checkpoint"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

// Tool calls of one model turn are dispatched in three steps. First every call is prepared in order: its
// arguments decoded, what it touches reported (ToolCallStarted) and the engine's verdict taken, so the
// person sees the whole turn at once. Then the calls run in order, each decided again just before it runs,
// since an earlier call may have changed the directory it runs in; a run of consecutive calls that only
// read files or touch nothing, and that the engine allows without asking, runs concurrently. Shell
// commands always run one at a time, even read-only ones, because a `cd` in one would race with another.
// Every call gets exactly one result, in the order the model sent them.

// pendingCall is one prepared tool call.
type pendingCall struct {
	tc      openai.ToolCall
	tool    tools.Tool
	input   json.RawMessage
	access  tools.Access
	verdict permissions.Verdict
	// early is set when the call fails before it could run (unknown tool, bad arguments).
	early *tools.Result
	start time.Time
}

// concurrent reports whether the call may run alongside its neighbours.
func (p *pendingCall) concurrent() bool {
	return p.early == nil && p.verdict.Decision == permissions.Allow &&
		(p.access.Kind == tools.AccessRead || p.access.Kind == tools.AccessNone)
}

// cut says the answer ended at the model's output limit, so the last call's arguments may be incomplete.
func (a *Agent) runCalls(ctx context.Context, calls []openai.ToolCall, cut bool) {
	pending := make([]*pendingCall, len(calls))
	for i, tc := range calls {
		pending[i] = a.prepare(tc, cut)
	}
	var shown []shownImage
	defer func() { a.addImages(shown) }()
	for i := 0; i < len(pending); {
		j := i + 1
		if pending[i].concurrent() {
			for j < len(pending) && pending[j].concurrent() {
				j++
			}
		}
		results := make([]tools.Result, j-i)
		var wg sync.WaitGroup
		for k := i; k < j; k++ {
			if j-i == 1 {
				results[0] = a.execute(ctx, pending[k])
				continue
			}
			wg.Go(func() { results[k-i] = a.execute(ctx, pending[k]) })
		}
		wg.Wait()
		// Each result joins the conversation (and the session file) as soon as its group is done, so a
		// crash later in the turn loses none of the calls that finished.
		for k, res := range results {
			p := pending[i+k]
			a.addMessage(openai.ChatCompletionMessage{
				Role: openai.ChatMessageRoleTool, ToolCallID: p.tc.ID, Name: p.tc.Function.Name, Content: a.toolContent(res),
			})
			for _, img := range res.Images {
				shown = append(shown, shownImage{call: p.tc.ID, img: img})
			}
		}
		i = j
	}
}

// prepare decodes a call, announces it and takes the engine's verdict. It runs nothing.
func (a *Agent) prepare(tc openai.ToolCall, cut bool) *pendingCall {
	p := &pendingCall{tc: tc, input: json.RawMessage(tc.Function.Arguments), start: time.Now()}
	fail := func(res tools.Result) *pendingCall {
		p.early = &res
		p.access = tools.Access{Kind: tools.AccessNone, Summary: tc.Function.Name}
		a.emit(ToolCallStarted{ID: tc.ID, Name: tc.Function.Name, Input: p.input, Access: p.access})
		return p
	}
	tool, ok := a.offered.Get(tc.Function.Name)
	if !ok {
		return fail(tools.Errorf("Unknown tool %q. Available tools: %s.", tc.Function.Name,
			strings.Join(a.offered.Names(), ", ")))
	}
	p.tool = tool
	if !json.Valid(p.input) {
		p.input = jsonString(tc.Function.Arguments)
		if cut {
			return fail(tools.Errorf("Your answer reached the output limit while writing the arguments for %s, so they are incomplete and it was not run. "+
				"Make the call again with less in it: write a large file in parts, or edit it piece by piece.", tc.Function.Name))
		}
		return fail(tools.Errorf("The arguments for %s are not valid JSON: %.200q. Call the tool again with a JSON object that matches its schema.",
			tc.Function.Name, tc.Function.Arguments))
	}
	access, err := tool.Access(a.opts.Env, p.input)
	if err != nil {
		return fail(tools.Errorf("%s was not run: %v.", tc.Function.Name, err))
	}
	p.access = access
	a.emit(ToolCallStarted{ID: tc.ID, Name: tc.Function.Name, Input: p.input, Access: access})
	p.verdict = a.opts.Engine.Decide(permissionRequest(access))
	return p
}

// execute authorizes and runs one prepared call and reports its result.
func (a *Agent) execute(ctx context.Context, p *pendingCall) tools.Result {
	var changes []checkpoint.Change
	finish := func(res tools.Result) tools.Result {
		a.emit(ToolFinished{ID: p.tc.ID, Name: p.tc.Function.Name, Result: res, Duration: time.Since(p.start), Changes: changes})
		return res
	}
	switch {
	case p.early != nil:
		return finish(*p.early)
	case ctx.Err() != nil:
		return finish(tools.Result{Output: "Interrupted by the user before this call ran.", IsError: true, Interrupted: true})
	}
	// The calls before this one may have moved the working directory (a `cd`), so what it touches, and
	// the engine's verdict on that, are taken again where it will really run.
	access, err := a.toolAccess(p)
	if err != nil {
		return finish(tools.Errorf("%s was not run: %v.", p.tc.Function.Name, err))
	}
	p.access, p.verdict = access, a.opts.Engine.Decide(permissionRequest(access))
	if blocked := a.preToolHooks(ctx, p); blocked != nil {
		return finish(*blocked)
	}
	if allowed, denial := a.authorize(ctx, p); !allowed {
		return finish(tools.Result{Output: denial, IsError: true})
	}
	p.start = time.Now()
	res := a.checkpointed(p, &changes, func() tools.Result { return a.runTool(ctx, p) })
	return finish(a.postToolHooks(ctx, p, res))
}

// toolAccess asks a call's tool what the call touches; it may run in a goroutine of a concurrent group,
// where a panic would not reach the loop's recovery, so it fails the call instead.
func (a *Agent) toolAccess(p *pendingCall) (access tools.Access, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("it failed inside Warden (%v); this is a bug in Warden, not in your call", r)
		}
	}()
	return p.tool.Access(a.opts.Env, p.input)
}

// runTool runs a call's tool; a tool that panics fails its call, not the session.
func (a *Agent) runTool(ctx context.Context, p *pendingCall) (res tools.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = tools.Errorf("%s failed inside Warden (%v); this is a bug in Warden, not in your call", p.tc.Function.Name, r)
		}
	}()
	// A call that runs unasked only because it was judged read-only runs in the read-only jail: a wrong
	// judgement then still cannot write, reach the network or read a key.
	jailed := p.verdict.Decision == permissions.Allow && p.verdict.By == "readonly"
	return p.tool.Run(ctx, a.opts.Env, tools.Call{ID: p.tc.ID, Input: p.input, Approved: &p.access, Jailed: jailed,
		Output: func(chunk string) { a.emit(ToolOutput{ID: p.tc.ID, Chunk: chunk}) }})
}

// authorize decides a call: by the engine, and by the person when the engine says ask. It reports the
// decision as an event and, for a denial, returns the text the model reads.
func (a *Agent) authorize(ctx context.Context, p *pendingCall) (bool, string) {
	tc, v := p.tc, p.verdict
	if v.Decision == permissions.Ask {
		ap, err := a.opts.Approver.Approve(ctx, ApprovalRequest{
			CallID: tc.ID, Tool: tc.Function.Name, Input: p.input, Access: p.access, Verdict: v,
		})
		switch {
		case err != nil && ctx.Err() != nil:
			a.emit(PermissionDecided{ID: tc.ID, Decision: permissions.Deny, By: "user", Reason: "interrupted while waiting for approval"})
			return false, "Interrupted by the user while waiting for approval."
		case err != nil:
			// The approver could not ask (headless policy): that is a denial by policy.
			a.emit(PermissionDecided{ID: tc.ID, Decision: permissions.Deny, By: "policy", Reason: err.Error()})
			return false, fmt.Sprintf("Permission denied: %s. %s", err.Error(), deniedAdvice)
		case !ap.Allow:
			reason := "denied by the user"
			a.emit(PermissionDecided{ID: tc.ID, Decision: permissions.Deny, By: "user", Reason: reason})
			text := "The user denied this call. " + deniedAdvice
			if ap.Message != "" {
				text = fmt.Sprintf("The user denied this call and said: %q. Follow their instruction.", ap.Message)
			}
			return false, text
		}
		a.grant(ap)
		a.emit(PermissionDecided{ID: tc.ID, Decision: permissions.Allow, By: "user", Reason: "approved by the user", Rule: ap.Rule})
		return true, ""
	}
	a.emit(PermissionDecided{ID: tc.ID, Decision: v.Decision, By: v.By, Reason: v.Reason, Rule: v.Rule})
	if v.Decision == permissions.Deny {
		return false, fmt.Sprintf("Permission denied: %s. %s", v.Reason, deniedAdvice)
	}
	return true, ""
}

const deniedAdvice = "Do not retry the same call or work around the denial with another command; " +
	"continue with what is allowed, or explain what you need and ask the user."

func (a *Agent) grant(ap Approval) {
	if ap.Rule == "" || ap.Scope == Once {
		return
	}
	if err := a.opts.Engine.AddAllow(ap.Rule); err != nil {
		a.emit(Notice{Message: fmt.Sprintf("could not add rule %s: %v", ap.Rule, err)})
		return
	}
	if ap.Scope == ForProject && a.opts.SaveProjectRule != nil {
		if err := a.opts.SaveProjectRule(ap.Rule); err != nil {
			a.emit(Notice{Message: fmt.Sprintf("could not save rule %s to the project settings: %v (it applies for this session)", ap.Rule, err)})
		}
	}
}

func permissionRequest(ac tools.Access) permissions.Request {
	req := permissions.Request{Command: ac.Command, Path: ac.Path, Cwd: ac.Cwd, Unsandboxed: ac.Unsandboxed}
	switch ac.Kind {
	case tools.AccessExec:
		req.Kind = permissions.Exec
	case tools.AccessRead:
		req.Kind = permissions.Read
	case tools.AccessEdit:
		req.Kind = permissions.Edit
	case tools.AccessWrite:
		req.Kind = permissions.Write
	case tools.AccessFetch:
		req.Kind, req.Host = permissions.Fetch, ac.Host
	case tools.AccessMCP:
		req.Kind = permissions.MCP
		if t := ac.MCP; t != nil {
			req.MCP = permissions.MCPCall{Server: t.Server, Tool: t.Tool, ReadOnlyHint: t.ReadOnlyHint, HintTrusted: t.HintTrusted}
		}
	default:
		req.Kind = permissions.None
	}
	return req
}
