package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/agent/fakeapi"
	"github.com/warden-cli/warden/permissions"
	"github.com/warden-cli/warden/tools"
)

type showParams struct {
	Name string `json:"name"`
}

// pictureAgent is an agent with a tool "show" that returns a picture named by its argument.
func pictureAgent(t *testing.T) (*Agent, *fakeapi.Server, *recorder) {
	t.Helper()
	server, rec := fakeapi.New(), &recorder{}
	t.Cleanup(server.Close)
	show := tools.New(tools.Spec[showParams]{
		Name: "show", Description: "Show a picture.",
		Access: func(env *tools.Env, p *showParams) (tools.Access, error) {
			return tools.Access{Kind: tools.AccessNone, Summary: p.Name}, nil
		},
		Run: func(ctx context.Context, env *tools.Env, call tools.Call, p *showParams) tools.Result {
			return tools.Result{Output: p.Name + " is a picture", Images: []tools.Image{{MIME: "image/png", Data: []byte("png of " + p.Name), Name: p.Name}}}
		},
	})
	ws := t.TempDir()
	engine, err := permissions.NewEngine(permissions.Policy{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{
		Provider: NewProvider(server.URL(), "sk-test", "fake-model"),
		Tools:    tools.NewRegistry(show, echoTool()), Env: tools.NewEnv(ws, t.TempDir()), Engine: engine,
		Approver: HeadlessApprover{}, Sink: rec.sink, System: "system prompt", MaxSteps: 5,
		Retry: RetryPolicy{Attempts: 2, Base: time.Millisecond, Max: time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	return a, server, rec
}

func runPrompt(t *testing.T, a *Agent, prompt string) TurnDone {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return a.Run(ctx, prompt)
}

func TestAPictureReachesTheModelAsAnImagePartAfterTheTurnsResults(t *testing.T) {
	a, server, _ := pictureAgent(t)
	server.Reply(
		fakeapi.ToolCall("c1", "show", `{"name":"a.png"}`).ToolCall("c2", "echo", `{"text":"between"}`).ToolCall("c3", "show", `{"name":"b.png"}`),
		fakeapi.Text("Two pictures."),
	)
	if done := runPrompt(t, a, "look"); done.IsError {
		t.Fatal(done.Text)
	}
	msgs := server.Requests()[1].Messages
	var roles []string
	for _, m := range msgs {
		roles = append(roles, m.Role)
	}
	// Nothing comes between the tool results of one turn: the pictures follow them all.
	if got := strings.Join(roles, " "); got != "system user assistant tool tool tool user" {
		t.Fatalf("roles = %s", got)
	}
	last := msgs[len(msgs)-1]
	if len(last.Images) != 2 {
		t.Fatalf("images = %+v", last.Images)
	}
	for i, want := range []string{"png of a.png", "png of b.png"} {
		mime, data, err := last.Images[i].Decode()
		if err != nil || mime != "image/png" || string(data) != want {
			t.Errorf("image %d = %s %q (%v)", i, mime, data, err)
		}
	}
	if !strings.Contains(last.Content, "a.png (from call c1)") || !strings.Contains(last.Content, "not written by the user") {
		t.Errorf("the pictures are not labelled: %q", last.Content)
	}
	if msgs[3].Content != "a.png is a picture" {
		t.Errorf("tool result = %q", msgs[3].Content)
	}
}

func TestAModelThatRefusesPicturesGetsTheTurnWithoutThemAndThePersonIsTold(t *testing.T) {
	a, server, rec := pictureAgent(t)
	server.RejectImages(400, "Invalid content type. image_url is only supported by certain models.")
	server.Reply(fakeapi.ToolCall("c1", "show", `{"name":"shot.png"}`), fakeapi.Text("I cannot see it."))
	done := runPrompt(t, a, "look at this")
	if done.IsError || done.Text != "I cannot see it." {
		t.Fatalf("turn = %+v", done)
	}
	reqs := server.Requests()
	if len(reqs) != 3 || len(reqs[1].Images()) != 1 || len(reqs[2].Images()) != 0 {
		t.Fatalf("%d requests; images in the second %d, in the third", len(reqs), len(reqs[1].Images()))
	}
	last := reqs[2].Messages[len(reqs[2].Messages)-1]
	if !strings.Contains(last.Content, "shot.png (from call c1)") || !strings.Contains(last.Content, "The picture was not sent") ||
		string(last.RawContent)[0] != '"' {
		t.Errorf("the model was not told, as plain text: %s", last.RawContent)
	}
	var told string
	for _, ev := range rec.all() {
		if n, ok := ev.(Notice); ok && strings.Contains(n.Message, "does not take pictures") {
			told = n.Message
		}
	}
	if !strings.Contains(told, "fake-model") || !strings.Contains(told, "image_url is only supported") {
		t.Errorf("the person was not told: %q", told)
	}

	// Later pictures for the same model are noted, not sent, and the server is not asked again in vain.
	server.Reply(fakeapi.ToolCall("c2", "show", `{"name":"next.png"}`), fakeapi.Text("Still text."))
	if done := runPrompt(t, a, "and this"); done.IsError {
		t.Fatal(done.Text)
	}
	reqs = server.Requests()
	if len(reqs) != 5 || len(reqs[4].Images()) != 0 {
		t.Fatalf("%d requests; the last with %d images", len(reqs), len(reqs[len(reqs)-1].Images()))
	}
	msgs := reqs[4].Messages
	if tool := msgs[len(msgs)-1]; tool.Role != "tool" || !strings.Contains(tool.Content, "The picture was not sent") {
		t.Errorf("last message = %+v", tool)
	}
}

func TestAClientErrorThatDoesNotSpeakOfPicturesIsNotTakenForARefusal(t *testing.T) {
	a, server, _ := pictureAgent(t)
	server.Reply(fakeapi.ToolCall("c1", "show", `{"name":"shot.png"}`), fakeapi.HTTPError(400, "tools[0].function.parameters is invalid"))
	done := runPrompt(t, a, "look")
	if !done.IsError || !strings.Contains(done.Text, "parameters is invalid") {
		t.Fatalf("turn = %+v", done)
	}
	if n := len(server.Requests()); n != 2 {
		t.Errorf("%d requests: the request was sent again without its picture", n)
	}
}

func TestRefusalsAreRecognisedInTheWordsOfManyServers(t *testing.T) {
	a, _, _ := pictureAgent(t)
	a.messages = append(a.messages, openai.ChatCompletionMessage{Role: "user", MultiContent: []openai.ChatMessagePart{
		{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{URL: "data:image/png;base64,AA=="}}}})
	for _, c := range []struct {
		status int
		msg    string
		want   bool
	}{
		{400, "image input is not supported - hint: if this is unexpected, you may need to provide the mmproj", true},
		{400, "At most 0 image(s) may be provided in one request.", true},
		{404, "No endpoints found that support image input", true},
		{422, "Failed to deserialize the JSON body into the target type: messages[1]: unknown variant `image_url`, expected `text`", true},
		{400, "'messages.1' : for 'role:user' the following must be satisfied[('messages.1.content' : value must be a string)]", true},
		{400, "Model does not support vision", true},
		{400, "max_tokens is too large", false},
		{500, "image decoder crashed", false},
		{401, "invalid image key", false},
	} {
		err := &ProviderError{Kind: ErrBadRequest, Status: c.status, Message: c.msg}
		if got := a.imageRefusal(err) != ""; got != c.want {
			t.Errorf("HTTP %d %q: refusal = %v, want %v", c.status, c.msg, got, c.want)
		}
	}
}

func TestPicturesCountInTheEstimateAndGoWhenOldOutputsAreElided(t *testing.T) {
	pic := openai.ChatCompletionMessage{Role: "user", MultiContent: []openai.ChatMessagePart{
		{Type: openai.ChatMessagePartTypeText, Text: imagesIntro},
		{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{URL: "data:image/png;base64," + strings.Repeat("A", 400_000)}}}}
	if n := estimateTokens([]openai.ChatCompletionMessage{pic}); n < imageTokens || n > imageTokens+100 {
		t.Errorf("a picture is estimated at %d tokens, not as its %d bytes of base64", n, 400_000)
	}
	a, _, _ := pictureAgent(t)
	a.messages = append(a.messages, openai.ChatCompletionMessage{Role: "user", Content: "look"}, pic,
		openai.ChatCompletionMessage{Role: "assistant", Content: "seen"})
	if n := a.elideToolOutputs(); n != 1 || hasImages(a.messages) {
		t.Errorf("elided %d; pictures left: %v", n, hasImages(a.messages))
	}
}
