package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

func TestSessionRecordsEverythingAndResumes(t *testing.T) {
	dir := t.TempDir()
	st, err := CreateStore(dir, "s1", "/ws", "fake-model")
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, permissions.ModeDefault, nil)
	h.agent.opts.Store = st
	h.server.Reply(fakeapi.ToolCall("c1", "echo", `{"text":"hi"}`), fakeapi.Text("said hi"))
	h.run("say hi")
	st.Close()

	l, err := ReadSession(SessionPath(dir, "s1"))
	if err != nil {
		t.Fatal(err)
	}
	if l.ID != "s1" || l.Cwd != "/ws" || l.Model != "fake-model" || len(l.Warnings) != 0 {
		t.Fatalf("loaded %+v", l)
	}
	msgs, closed := l.Conversation()
	if len(closed) != 0 {
		t.Errorf("closed = %+v", closed)
	}
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "user,assistant,tool,assistant" {
		t.Errorf("roles = %v", roles)
	}
	hist := History(l)
	if len(hist) != 1 || hist[0].ID != "c1" || hist[0].Tool != "echo" || hist[0].Status != "ok" || hist[0].Output != "echo: hi" || hist[0].Decision == "" {
		t.Errorf("history = %+v", hist)
	}
}

func TestResumeClosesCallsCutOffMidway(t *testing.T) {
	dir := t.TempDir()
	st, err := CreateStore(dir, "s2", "/ws", "m")
	if err != nil {
		t.Fatal(err)
	}
	user := openai.ChatCompletionMessage{Role: "user", Content: "run two things"}
	asst := openai.ChatCompletionMessage{Role: "assistant", ToolCalls: []openai.ToolCall{
		{ID: "a", Type: "function", Function: openai.FunctionCall{Name: "bash", Arguments: `{"command":"true"}`}},
		{ID: "b", Type: "function", Function: openai.FunctionCall{Name: "bash", Arguments: `{"command":"sleep 100"}`}},
	}}
	res := openai.ChatCompletionMessage{Role: "tool", ToolCallID: "a", Content: "ok"}
	for _, m := range []openai.ChatCompletionMessage{user, asst, res} {
		st.Append(Record{Type: RecMessage, Message: &m}, true)
	}
	st.Append(Record{Type: RecToolCall, CallID: "b", Name: "bash", Summary: "sleep 100"}, true)
	st.Close()
	// A crash in the middle of writing leaves half a line.
	f, _ := os.OpenFile(SessionPath(dir, "s2"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"tool_result","call_id":"b","out`)
	f.Close()

	l, msgs, st2, err := ResumeSession(SessionPath(dir, "s2"))
	if err != nil {
		t.Fatal(err)
	}
	st2.Close()
	if len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "line 6") {
		t.Errorf("warnings = %v", l.Warnings)
	}
	if len(msgs) != 4 || msgs[3].ToolCallID != "b" || msgs[3].Content != InterruptedResult {
		t.Fatalf("msgs = %+v", msgs)
	}
	// The closing is on disk: reading again needs no closing, and the history says interrupted.
	l2, err := ReadSession(SessionPath(dir, "s2"))
	if err != nil {
		t.Fatal(err)
	}
	if _, closed := l2.Conversation(); len(closed) != 0 {
		t.Errorf("closing was not recorded: %+v", closed)
	}
	hist := History(l2)
	if len(hist) != 1 || hist[0].Status != "interrupted" {
		t.Errorf("history = %+v", hist)
	}
}

func TestListSessionsNewestFirstForThisWorkspace(t *testing.T) {
	dir := t.TempDir()
	for i, ws := range []string{"/a", "/b", "/a"} {
		id := []string{"one", "two", "three"}[i]
		st, err := CreateStore(dir, id, ws, "m")
		if err != nil {
			t.Fatal(err)
		}
		m := openai.ChatCompletionMessage{Role: "user", Content: "prompt " + id}
		st.Append(Record{Type: RecMessage, Message: &m}, true)
		st.Close()
		mod := time.Now().Add(time.Duration(i) * time.Minute)
		os.Chtimes(SessionPath(dir, id), mod, mod)
	}
	os.WriteFile(filepath.Join(dir, "junk.jsonl"), []byte("not json\n"), 0o600)
	list, err := ListSessions(dir, "/a")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "three" || list[1].ID != "one" || list[0].Prompt != "prompt three" {
		t.Errorf("list = %+v", list)
	}
}

// Servers that omit tool-call ids get call_1, call_2... from Warden on every turn, so an id can repeat
// across turns; a later call cut off by a crash must still be closed.
func TestResumeClosesACutCallWhoseIDAnEarlierTurnUsed(t *testing.T) {
	call := func(id, cmd string) openai.ChatCompletionMessage {
		return openai.ChatCompletionMessage{Role: "assistant", ToolCalls: []openai.ToolCall{
			{ID: id, Type: "function", Function: openai.FunctionCall{Name: "bash", Arguments: `{"command":"` + cmd + `"}`}},
		}}
	}
	msgs := []openai.ChatCompletionMessage{
		{Role: "user", Content: "two steps"},
		call("call_1", "true"),
		{Role: "tool", ToolCallID: "call_1", Content: "ok"},
		call("call_1", "sleep 100"),
	}
	l := &Loaded{}
	for _, m := range msgs {
		l.Records = append(l.Records, Record{Type: RecMessage, Message: &m})
	}
	out, closed := l.Conversation()
	if len(closed) != 1 || len(out) != 5 || out[4].Role != "tool" || out[4].ToolCallID != "call_1" || out[4].Content != InterruptedResult {
		t.Fatalf("closed = %+v\nout = %+v", closed, out)
	}
}

// A tool result whose assistant message was lost (a damaged line) would make the API reject every later
// request; it is dropped instead.
func TestResumeDropsToolResultsWithoutTheirCall(t *testing.T) {
	msgs := []openai.ChatCompletionMessage{
		{Role: "user", Content: "hi"},
		{Role: "tool", ToolCallID: "lost", Content: "orphan"},
		{Role: "assistant", Content: "hello"},
	}
	l := &Loaded{}
	for _, m := range msgs {
		l.Records = append(l.Records, Record{Type: RecMessage, Message: &m})
	}
	out, _ := l.Conversation()
	for _, m := range out {
		if m.Role == "tool" {
			t.Fatalf("orphan tool result kept: %+v", out)
		}
	}
}

// What the person saw of a call (a diff) is kept, so that a resumed session shows it again.
func TestToolResultKeepsItsDisplay(t *testing.T) {
	dir := t.TempDir()
	st, err := CreateStore(dir, "s1", "/ws", "m")
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range []Event{
		ToolCallStarted{ID: "w1", Name: "write_file", Input: []byte(`{"path":"a.txt"}`)},
		ToolFinished{ID: "w1", Name: "write_file", Result: tools.Result{Output: "Created a.txt.",
			Display: "--- /dev/null\n+++ b/a.txt\n+hello\n"}},
	} {
		r, _ := eventRecord(ev)
		st.Append(r, true)
	}
	st.Close()
	l, err := ReadSession(SessionPath(dir, "s1"))
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for _, r := range l.Records {
		if r.Type == RecToolResult {
			got = r.Display
		}
	}
	if got != "--- /dev/null\n+++ b/a.txt\n+hello\n" {
		t.Errorf("display = %q", got)
	}
}

// A listing says how many turns a session had, whether anything was ever answered, and its latest model.
func TestListSessionsCountsTurnsAndAnswers(t *testing.T) {
	dir := t.TempDir()
	failed, err := CreateStore(dir, "failed", "/a", "m")
	if err != nil {
		t.Fatal(err)
	}
	u := openai.ChatCompletionMessage{Role: "user", Content: withNotes([]string{"a task ended"}, "fix it")}
	failed.Append(Record{Type: RecMessage, Message: &u}, true)
	failed.Append(Record{Type: RecTurn, IsError: true, Text: "cannot reach the server"}, true)
	failed.Close()
	ok, _ := CreateStore(dir, "ok", "/a", "m")
	for i := 0; i < 3; i++ {
		a := openai.ChatCompletionMessage{Role: "assistant", Content: "done"}
		ok.Append(Record{Type: RecMessage, Message: &u}, true)
		ok.Append(Record{Type: RecMessage, Message: &a}, true)
		ok.Append(Record{Type: RecTurn}, true)
	}
	ok.Append(Record{Type: RecModel, Model: "later-model"}, true)
	ok.Close()
	list, err := ListSessions(dir, "/a")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]SessionInfo{}
	for _, s := range list {
		byID[s.ID] = s
	}
	if f := byID["failed"]; f.Answered || f.Turns != 1 || f.Prompt != "fix it" {
		t.Errorf("failed = %+v", f)
	}
	if o := byID["ok"]; !o.Answered || o.Turns != 3 || o.Model != "later-model" {
		t.Errorf("ok = %+v", o)
	}
}
