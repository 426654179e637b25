package agent

import (
	"errors"
	"fmt"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/checkpoint"
)

// Undo and rewind work from the session file, the one record of what happened, so that the TUI and
// `warden undo` (which may run long after, or after a resume) decide alike. A point is the start of a
// turn or the moment before a call; restoring the code to it puts back every path changed since, each
// to its state before the first change after the point. Changes made outside Warden since are set apart
// for a separate yes; conversation rewinds cut the messages the model sees back to the point.

// Point is a moment of a session the files or the conversation can go back to.
type Point struct {
	// Kind is PointTurn (before the person's request) or PointCall (just before a call ran).
	Kind string
	// Pos is where the point is among the session's records: what is recorded from Pos on came after it.
	Pos  int
	Time time.Time
	// Turn numbers the requests of the session from 1; a call's Turn is the request it served.
	Turn int
	// Prompt is a turn's request.
	Prompt string
	// CallID, Parent, Tool, Summary, Agent and Depth describe a call (Parent is the task call whose
	// sub-agent made it).
	CallID, Parent, Tool, Summary, Agent string
	Depth                                int
	// Changes is what a call changed.
	Changes []checkpoint.Change
	// Keep is how many messages the conversation keeps when rewound to this point: those before the
	// turn's request, or before the model's message that made the call (a sub-agent's call: that made
	// the task call).
	Keep int
}

// Kinds of point.
const (
	PointTurn = "turn"
	PointCall = "call"
)

// Label is the point in a few words, for pickers and prompts.
func (p Point) Label() string {
	if p.Kind == PointTurn {
		return fmt.Sprintf("turn %d: %s", p.Turn, oneLine(p.Prompt))
	}
	s := p.Tool
	if p.Summary != "" {
		if p.Tool == "bash" {
			s += " $"
		}
		s += " " + oneLine(p.Summary)
	}
	return s
}

// Points lists the points of a session in order.
func Points(l *Loaded) []Point {
	var out []Point
	msgs := 0
	// keepFor maps a call id of the main conversation to the messages before the model's message that
	// made it (the latest such message: servers reuse ids).
	keepFor := map[string]int{}
	type key struct{ parent, id string }
	callAt := map[key]int{}
	full := map[key][]checkpoint.Change{}
	for _, h := range History(l) {
		full[key{h.Parent, h.ID}] = h.Full
	}
	turn := 0
	for i, r := range l.Records {
		switch r.Type {
		case RecRewind:
			if r.Keep != nil && *r.Keep >= 0 && *r.Keep <= msgs {
				msgs = *r.Keep
			}
		case RecMessage:
			m := r.Message
			if m == nil || m.Role == openai.ChatMessageRoleSystem {
				continue
			}
			switch {
			case m.Role == openai.ChatMessageRoleUser:
				// Notes Warden delivered between tool results are not a request of the person's.
				if _, prompt := SplitNotes(m.Content); prompt != "" {
					turn++
					out = append(out, Point{Kind: PointTurn, Pos: i, Time: r.Time, Turn: turn, Prompt: prompt, Keep: msgs})
				}
			case m.Role == openai.ChatMessageRoleAssistant:
				for _, tc := range m.ToolCalls {
					keepFor[tc.ID] = msgs
				}
			}
			msgs++
		case RecToolCall:
			p := Point{Kind: PointCall, Pos: i, Time: r.Time, Turn: max(turn, 1), CallID: r.CallID, Parent: r.Parent,
				Tool: r.Name, Summary: r.Summary, Agent: r.Agent, Changes: full[key{r.Parent, r.CallID}]}
			// A sub-agent's call: the conversation goes back to before the task call that started it.
			top := p
			for top.Parent != "" {
				j := lastCall(out, top.Parent)
				if j < 0 {
					break
				}
				top = out[j]
				p.Depth++
			}
			p.Keep = keepFor[top.CallID]
			callAt[key{r.Parent, r.CallID}] = len(out)
			out = append(out, p)
		case RecChanges:
			// Changes found just before a call ran were there before it: the call's point comes after.
			if r.By == ByOutside && r.BeforeCall != "" {
				if j, ok := callAt[key{r.Parent, r.BeforeCall}]; ok && out[j].Pos < i+1 {
					out[j].Pos = i + 1
				}
			}
		}
	}
	return out
}

// lastCall is the index of the latest call point with id, or -1.
func lastCall(points []Point, id string) int {
	for j := len(points) - 1; j >= 0; j-- {
		if points[j].Kind == PointCall && points[j].CallID == id {
			return j
		}
	}
	return -1
}

// ChangesSince is what the session recorded changing in the workspace from record pos on, in order.
func ChangesSince(l *Loaded, pos int) []checkpoint.Recorded {
	var out []checkpoint.Recorded
	for _, r := range l.Records[min(pos, len(l.Records)):] {
		switch {
		case r.Type == RecToolResult && len(r.Changes) > 0:
			out = append(out, checkpoint.Recorded{Changes: r.Changes})
		case r.Type == RecChanges && r.By == ByTask:
			// What the call changed before it went to the background is in its result already.
			out = append(out, checkpoint.Recorded{Changes: r.Later})
		case r.Type == RecChanges:
			out = append(out, checkpoint.Recorded{Outside: r.By == ByOutside, Changes: r.Changes})
		}
	}
	return out
}

// ErrNothingToUndo says no turn's changes are left to undo.
var ErrNothingToUndo = errors.New("nothing to undo: no request of this session changed files that are not already as they were")

// UndoPlan is a restore of the files to a point, as planned.
type UndoPlan struct {
	Point Point
	Plan  *checkpoint.Plan
	// Found is what had changed outside Warden when the plan was made; the caller records it in the
	// session as changed outside (ByOutside).
	Found []checkpoint.Change
}

// PlanUndo plans restoring the files to a point of the session: with to empty, to the start of the
// latest turn whose calls changed files that are not back as they were; else to just before the call
// with that id (the latest, if ids repeat), or the turn point ("turn:N").
func PlanUndo(cp *checkpoint.Checkpoints, l *Loaded, to string) (*UndoPlan, error) {
	points := Points(l)
	if to != "" {
		p, ok := FindPoint(points, to)
		if !ok {
			return nil, fmt.Errorf("no call %q in session %s; warden history --session %s lists its calls", to, l.ID, l.ID)
		}
		return PlanTo(cp, l, p)
	}
	// A turn is a candidate when its calls changed files and no undo since went back to it or earlier.
	type undo struct{ pos, to int }
	var undos []undo
	changed := map[int]bool{} // turn point positions whose calls changed files
	turnPos := -1
	for i, r := range l.Records {
		switch {
		case r.Type == RecMessage && r.Message != nil && r.Message.Role == openai.ChatMessageRoleUser:
			if _, prompt := SplitNotes(r.Message.Content); prompt != "" {
				turnPos = i
			}
		case r.Type == RecChanges && r.By == ByUndo && r.UndoTo != nil:
			undos = append(undos, undo{i, *r.UndoTo})
		case (r.Type == RecToolResult && len(r.Changes) > 0) || (r.Type == RecChanges && r.By == ByTask && len(r.Later) > 0):
			changed[turnPos] = true
		}
	}
	var found []checkpoint.Change
	for i := len(points) - 1; i >= 0; i-- {
		p := points[i]
		if p.Kind != PointTurn || !changed[p.Pos] {
			continue
		}
		undone := false
		for _, u := range undos {
			if u.to <= p.Pos && p.Pos < u.pos {
				undone = true
			}
		}
		if undone {
			continue
		}
		plan, err := PlanTo(cp, l, p)
		if err != nil {
			return nil, err
		}
		found = append(found, plan.Found...)
		if len(plan.Plan.Warden()) > 0 || len(plan.Plan.Problems()) > 0 {
			plan.Found = found
			return plan, nil
		}
	}
	if len(found) > 0 {
		return &UndoPlan{Plan: &checkpoint.Plan{}, Found: found}, ErrNothingToUndo
	}
	return nil, ErrNothingToUndo
}

// FindPoint finds the point a --to names: a call id, or "turn:N".
func FindPoint(points []Point, to string) (Point, bool) {
	if n, ok := strings.CutPrefix(to, "turn:"); ok {
		for _, p := range points {
			if p.Kind == PointTurn && fmt.Sprint(p.Turn) == n {
				return p, true
			}
		}
		return Point{}, false
	}
	if j := lastCall(points, to); j >= 0 {
		return points[j], true
	}
	return Point{}, false
}

// PlanTo plans restoring the files to the point p.
func PlanTo(cp *checkpoint.Checkpoints, l *Loaded, p Point) (*UndoPlan, error) {
	if cp == nil {
		return nil, errors.New("checkpoints are off in this session")
	}
	target, outside := checkpoint.Target(ChangesSince(l, p.Pos))
	plan, found, err := cp.PlanRestore(target, outside)
	if err != nil {
		return nil, err
	}
	return &UndoPlan{Point: p, Plan: plan, Found: found}, nil
}

// Describe says what restoring did, for the model: which paths were put back and which were left.
func Describe(p Point, r *checkpoint.Restored) string {
	var b strings.Builder
	where := "the start of " + p.Label()
	if p.Kind == PointCall {
		where = "before the call " + p.CallID + " (" + p.Label() + ")"
	}
	fmt.Fprintf(&b, "The user restored the workspace's files to how they were %s. Files changed since are back as they were then:", where)
	for _, s := range r.Done {
		b.WriteString("\n- " + s.String())
	}
	if len(r.Skipped) > 0 {
		b.WriteString("\nLeft as they are now:")
		for _, s := range r.Skipped {
			b.WriteString("\n- " + s.String())
		}
	}
	b.WriteString("\nRead a file again before editing it.")
	return b.String()
}
