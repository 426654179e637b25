package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/checkpoint"
)

// A session is an append-only JSONL file, <id>.jsonl, in the sessions directory; the full outputs of its
// commands live in the directory <id>/ beside it. Each line is one Record. Records are written as things
// happen and the file is synced after every completed message and tool result, so a crash or kill -9 loses
// nothing that was on the screen.
//
// Two kinds of record share the file: "message" records hold the conversation exactly as the model saw it
// (this is what a resumed session is rebuilt from), and the other types record what happened around it for
// the history view and an audit (tool calls with their input, permission decisions, results).

// Record types.
const (
	RecSession    = "session"
	RecMessage    = "message"
	RecToolCall   = "tool_call"
	RecPermission = "permission"
	RecToolResult = "tool_result"
	RecNotice     = "notice"
	RecTurn       = "turn"
	// RecChanges records changes to the workspace that no call's result carries (FilesChanged).
	RecChanges = "changes"
	// RecRewind cuts the conversation back to its first Keep messages: what came after is no longer
	// sent to the model, though it stays in the file.
	RecRewind = "rewind"
	// RecModel records a change of model during the session (Model); the last one is the session's model.
	RecModel = "model"
)

// Record is one line of a session file.
type Record struct {
	Type string    `json:"type"`
	Time time.Time `json:"time"`

	// session
	ID    string `json:"id,omitempty"`
	Cwd   string `json:"cwd,omitempty"`
	Model string `json:"model,omitempty"`
	// BaseURL is the server the session talks to, so that resuming it reaches the same one.
	BaseURL string `json:"base_url,omitempty"`

	// message
	Message *openai.ChatCompletionMessage `json:"message,omitempty"`

	// tool_call, permission, tool_result (ID above is the session id; CallID is the tool call's)
	CallID  string          `json:"call_id,omitempty"`
	Name    string          `json:"name,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	Summary string          `json:"summary,omitempty"`
	Agent   string          `json:"agent,omitempty"`
	// Parent is the task call that started the sub-agent which made this call.
	Parent string `json:"parent,omitempty"`

	Decision string `json:"decision,omitempty"`
	By       string `json:"by,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Rule     string `json:"rule,omitempty"`

	Output       *string `json:"output,omitempty"`
	Display      string  `json:"display,omitempty"` // what the person saw, when not the output (a diff)
	IsError      bool    `json:"is_error,omitempty"`
	ExitCode     *int    `json:"exit_code,omitempty"`
	Signal       string  `json:"signal,omitempty"`
	TimedOut     bool    `json:"timed_out,omitempty"`
	Interrupted  bool    `json:"interrupted,omitempty"`
	Truncated    bool    `json:"truncated,omitempty"`
	BackgroundID string  `json:"background_id,omitempty"`
	OutputPath   string  `json:"output_path,omitempty"`
	DurationMS   int64   `json:"duration_ms,omitempty"`

	// tool_result and changes: what changed in the workspace; TaskID and BeforeCall as in FilesChanged
	// (By says what made the changes of a changes record).
	Changes    []checkpoint.Change `json:"changes,omitempty"`
	Later      []checkpoint.Change `json:"later,omitempty"`
	TaskID     string              `json:"task_id,omitempty"`
	BeforeCall string              `json:"before_call,omitempty"`

	// UndoTo is, for the changes of a restore, the record position of the point it went back to.
	UndoTo *int `json:"undo_to,omitempty"`

	// rewind
	Keep *int `json:"keep,omitempty"`

	// notice, turn
	Text     string `json:"text,omitempty"`
	Retrying bool   `json:"retrying,omitempty"`
	Usage    *Usage `json:"usage,omitempty"`
}

// Store appends records to one session file.
type Store struct {
	mu   sync.Mutex
	f    *os.File
	path string
	err  error
	// answered is set once the model answered or a tool ran (see Answered).
	answered bool
}

// SessionPath is the file of session id in dir.
func SessionPath(dir, id string) string { return filepath.Join(dir, id+".jsonl") }

// CreateStore starts a new session file and writes its session record.
func CreateStore(dir, id, cwd, model string) (*Store, error) {
	return CreateStoreOn(dir, id, cwd, model, "")
}

// CreateStoreOn is CreateStore for a session that talks to the server at baseURL, which its session
// record keeps.
func CreateStoreOn(dir, id, cwd, model, baseURL string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the sessions directory: %w", err)
	}
	path := SessionPath(dir, id)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating the session file: %w", err)
	}
	s := &Store{f: f, path: path}
	s.Append(Record{Type: RecSession, ID: id, Cwd: cwd, Model: model, BaseURL: baseURL}, true)
	return s, s.Err()
}

// OpenStore reopens an existing session file to append to it.
func OpenStore(path string) (*Store, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the session file: %w", err)
	}
	// A crash can leave half a line at the end; start on a fresh line so the next record stays readable.
	if !endsWithNewline(path) {
		if _, err := f.Write([]byte("\n")); err != nil {
			f.Close()
			return nil, fmt.Errorf("repairing the session file: %w", err)
		}
	}
	return &Store{f: f, path: path}, nil
}

// Path returns the session file's path.
func (s *Store) Path() string { return s.path }

// Append writes one record; sync forces it to disk. A write error is kept (see Err) and later appends
// are skipped: the session goes on, but the person is told once that it is no longer being saved.
func (s *Store) Append(r Record, sync bool) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	if r.Time.IsZero() {
		r.Time = time.Now().UTC()
	}
	if r.Type == RecToolResult || (r.Type == RecMessage && r.Message != nil && r.Message.Role == openai.ChatMessageRoleAssistant) {
		s.answered = true
	}
	b, err := json.Marshal(r)
	if err != nil {
		s.err = fmt.Errorf("encoding a session record: %w", err)
		return
	}
	if _, err := s.f.Write(append(b, '\n')); err != nil {
		s.err = fmt.Errorf("writing the session file: %w", err)
		return
	}
	if sync {
		if err := s.f.Sync(); err != nil {
			s.err = fmt.Errorf("syncing the session file: %w", err)
		}
	}
}

// Answered reports whether the model answered, or a tool ran, since the store was opened: a session
// that failed before either holds nothing worth resuming.
func (s *Store) Answered() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answered
}

// Remove closes the file and deletes it with the session's directory of full outputs beside it.
func (s *Store) Remove() error {
	if s == nil {
		return nil
	}
	s.Close()
	if err := os.RemoveAll(strings.TrimSuffix(s.path, ".jsonl")); err != nil {
		return err
	}
	return os.Remove(s.path)
}

// Err returns the first write error.
func (s *Store) Err() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close closes the file.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Close()
}

// Loaded is a session read back from its file.
type Loaded struct {
	Path    string
	ID      string
	Cwd     string
	Model   string
	BaseURL string
	Started time.Time
	Records []Record
	// Warnings describe lines that could not be read (a line cut by a crash, say); they were skipped.
	Warnings []string
}

// ReadSession reads a session file. Lines that do not decode are skipped with a warning, never fatal.
func ReadSession(path string) (*Loaded, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening session: %w", err)
	}
	defer f.Close()
	l := &Loaded{Path: path}
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var r Record
			if jerr := json.Unmarshal(line, &r); jerr != nil {
				l.Warnings = append(l.Warnings, fmt.Sprintf("%s: line %d is damaged and was skipped (%v)", path, n, jerr))
			} else {
				if r.Type == RecSession && l.ID == "" {
					l.ID, l.Cwd, l.Model, l.BaseURL, l.Started = r.ID, r.Cwd, r.Model, r.BaseURL, r.Time
				}
				if r.Type == RecModel && r.Model != "" {
					l.Model = r.Model
				}
				l.Records = append(l.Records, r)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading session %s: %w", path, err)
		}
	}
	if l.ID == "" {
		return nil, fmt.Errorf("%s is not a Warden session (no session record)", path)
	}
	return l, nil
}

// Conversation rebuilds the messages of a loaded session, without its system prompt (a resumed session
// gets a fresh one). Tool calls that never got a result (the process was killed mid-call) are closed with
// an "interrupted" result, returned separately so the caller can record them.
func (l *Loaded) Conversation() (msgs []openai.ChatCompletionMessage, closed []openai.ChatCompletionMessage) {
	for _, r := range l.Records {
		if r.Type == RecRewind && r.Keep != nil && *r.Keep >= 0 && *r.Keep <= len(msgs) {
			msgs = msgs[:*r.Keep]
			continue
		}
		if r.Type != RecMessage || r.Message == nil || r.Message.Role == openai.ChatMessageRoleSystem {
			continue
		}
		msgs = append(msgs, *r.Message)
	}
	var out []openai.ChatCompletionMessage
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == openai.ChatMessageRoleTool {
			// A result with no call before it (its assistant line was damaged) would make the server
			// reject every later request.
			continue
		}
		out = append(out, m)
		if m.Role != openai.ChatMessageRoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		// Results must follow their assistant message directly and answer its calls: ids are matched
		// within this message only, since servers (and Warden, for servers that send none) reuse ids
		// across turns.
		open := map[string]int{}
		for _, tc := range m.ToolCalls {
			open[tc.ID]++
		}
		for i+1 < len(msgs) && msgs[i+1].Role == openai.ChatMessageRoleTool {
			i++
			if open[msgs[i].ToolCallID] > 0 {
				open[msgs[i].ToolCallID]--
				out = append(out, msgs[i])
			}
		}
		for _, tc := range m.ToolCalls {
			if open[tc.ID] == 0 {
				continue
			}
			open[tc.ID]--
			c := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, ToolCallID: tc.ID, Name: tc.Function.Name,
				Content: InterruptedResult}
			out = append(out, c)
			closed = append(closed, c)
		}
	}
	return out, closed
}

// InterruptedResult is what the model reads for a call cut off by a crash or kill.
const InterruptedResult = "Interrupted: Warden stopped before this call finished; its effects, if any, are unknown."

// SessionInfo describes a saved session for listings.
type SessionInfo struct {
	ID    string `json:"id"`
	Path  string `json:"path"`
	Cwd   string `json:"cwd"`
	Model string `json:"model"`
	// BaseURL is the server the session talked to ("" in sessions from before it was kept). It is not
	// listed: a URL may carry a credential.
	BaseURL string    `json:"-"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	// Prompt is the first request of the session, shortened.
	Prompt string `json:"prompt"`
	// Turns counts the requests the session answered or tried to.
	Turns int `json:"turns"`
	// Answered is false for a session in which the model never answered and no tool ran (a run that
	// failed at once): --continue and the session picker pass over it.
	Answered bool `json:"answered"`
}

// ListSessions returns the sessions in dir whose workspace is cwd, newest first.
func ListSessions(dir, cwd string) ([]SessionInfo, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	var out []SessionInfo
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		info, ok := peekSession(path)
		if !ok || info.Cwd != cwd {
			continue
		}
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// PeekSession reads what ListSessions tells of one session file, without loading the whole file.
func PeekSession(path string) (SessionInfo, error) {
	info, ok := peekSession(path)
	if !ok {
		return info, fmt.Errorf("%s is not a Warden session (no session record)", path)
	}
	return info, nil
}

// peekSession reads the session record and the first prompt without loading the whole file.
func peekSession(path string) (SessionInfo, bool) {
	f, err := os.Open(path)
	if err != nil {
		return SessionInfo{}, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return SessionInfo{}, false
	}
	info := SessionInfo{Path: path, Updated: st.ModTime()}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	// Only the first lines are decoded (the session record, the first prompt); the rest are only looked
	// at for the marks of a turn, an answer, a tool result and a change of model, which json.Marshal
	// writes at the start of their lines.
	for i := 0; sc.Scan(); i++ {
		line := sc.Bytes()
		switch {
		case bytes.HasPrefix(line, turnMark):
			info.Turns++
			continue
		case bytes.HasPrefix(line, resultMark), bytes.HasPrefix(line, messageMark) && bytes.Contains(line, assistantMark):
			info.Answered = true
			continue
		case !bytes.HasPrefix(line, modelMark) && (i >= 50 || info.Prompt != ""):
			continue
		}
		var r Record
		if json.Unmarshal(line, &r) != nil {
			continue
		}
		switch {
		case r.Type == RecSession && info.ID == "":
			info.ID, info.Cwd, info.Model, info.BaseURL, info.Started = r.ID, r.Cwd, r.Model, r.BaseURL, r.Time
		case r.Type == RecModel && r.Model != "":
			info.Model = r.Model
		case r.Type == RecMessage && r.Message != nil && r.Message.Role == openai.ChatMessageRoleUser && info.Prompt == "":
			_, prompt := SplitNotes(r.Message.Content)
			info.Prompt = oneLine(prompt)
			if len([]rune(info.Prompt)) > 80 {
				info.Prompt = string([]rune(info.Prompt)[:80]) + "…"
			}
		}
	}
	return info, info.ID != ""
}

// The starts of the record lines peekSession counts without decoding them.
var (
	turnMark      = []byte(`{"type":"` + RecTurn + `"`)
	resultMark    = []byte(`{"type":"` + RecToolResult + `"`)
	messageMark   = []byte(`{"type":"` + RecMessage + `"`)
	modelMark     = []byte(`{"type":"` + RecModel + `"`)
	assistantMark = []byte(`"role":"assistant"`)
)

// eventRecord turns the events the history needs into records. A sub-agent's tool events are recorded
// with its label and parent call; its conversation is not, since a resumed session continues the parent.
func eventRecord(ev Event) (Record, bool) {
	switch e := ev.(type) {
	case ChildEvent:
		switch e.Event.(type) {
		case ToolCallStarted, PermissionDecided, ToolFinished, FilesChanged, ChildEvent:
		default:
			return Record{}, false
		}
		r, ok := eventRecord(e.Event)
		if ok && r.Parent == "" {
			r.Parent = e.ParentID
			if r.Agent == "" {
				r.Agent = e.Agent
			}
		}
		return r, ok
	case ToolCallStarted:
		return Record{Type: RecToolCall, CallID: e.ID, Name: e.Name, Input: validJSON(e.Input), Summary: e.Access.Summary, Agent: e.Agent}, true
	case PermissionDecided:
		return Record{Type: RecPermission, CallID: e.ID, Decision: string(e.Decision), By: e.By, Reason: e.Reason, Rule: e.Rule}, true
	case ToolFinished:
		r := e.Result
		out := r.Output
		return Record{Type: RecToolResult, CallID: e.ID, Name: e.Name, Output: &out, Display: r.Display, IsError: r.IsError, ExitCode: r.ExitCode,
			Signal: r.Signal, TimedOut: r.TimedOut, Interrupted: r.Interrupted, Truncated: r.Truncated,
			BackgroundID: r.BackgroundID, OutputPath: r.OutputPath, DurationMS: e.Duration.Milliseconds(), Changes: e.Changes}, true
	case FilesChanged:
		r := Record{Type: RecChanges, By: e.By, CallID: e.CallID, BeforeCall: e.BeforeCall, TaskID: e.TaskID, Changes: e.Changes, Later: e.Later}
		if e.By == ByUndo {
			to := e.UndoTo
			r.UndoTo = &to
		}
		return r, true
	case Notice:
		return Record{Type: RecNotice, Text: e.Message, Retrying: e.Retrying}, true
	case TurnDone:
		u := e.Usage
		return Record{Type: RecTurn, Text: e.Text, IsError: e.IsError, Interrupted: e.Interrupted, Usage: &u}, true
	}
	return Record{}, false
}

func validJSON(b json.RawMessage) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		s, _ := json.Marshal(string(b))
		return s
	}
	return b
}

// endsWithNewline reports whether the file is empty or ends in a newline, reading only its last byte.
func endsWithNewline(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return true
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return true
	}
	return last[0] == '\n'
}
