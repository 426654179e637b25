package agent

import (
	"errors"
	"fmt"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"github.com/warden-cli/warden/tools"
)

// Pictures a call returns (read_file of a PNG, and so an @shot.png mention) reach the model as image parts
// of one user message that follows the turn's tool results: most servers take pictures only in user
// messages, and nothing may come between the tool results of one turn.
//
// A model that takes no pictures is told apart by its server's answer: a client error (400, 404, 415 or
// 422) to a request that carried pictures, whose message speaks of them (imageRefusal). Servers word it
// each their own way ("image input is not supported", "does not support images", "At most 0 image(s)",
// "No endpoints found that support image input", "unknown variant `image_url`, expected `text`",
// "content must be a string"), so the words are matched, never the status alone. The request then goes
// again with every picture replaced by a note, the person is told, and while the same model is in use
// later pictures are not sent but noted in the call's result.

// imageTokens is what one picture is counted as when the conversation's size is estimated: servers scale
// pictures to some 1,500 pixels a side, which costs a model between one and two thousand tokens.
const imageTokens = 1600

// shownImage is a picture a call returned, waiting for the turn's results to be complete.
type shownImage struct {
	call string
	img  tools.Image
}

// toolContent is what the model reads of a call's result: its output, and a note when its pictures will
// not be sent because the model refused pictures before.
func (a *Agent) toolContent(res tools.Result) string {
	if len(res.Images) == 0 || !a.refusesImages() {
		return res.Output
	}
	return res.Output + "\n(" + notSentNote + ")"
}

const notSentNote = "The picture was not sent: this model refused pictures earlier in the session."

// refusesImages says whether the model in use refused pictures in this session.
func (a *Agent) refusesImages() bool {
	return a.noImagesModel != "" && a.noImagesModel == a.opts.Provider.Model()
}

// addImages adds the pictures of a turn's results as one user message, unless the model refuses them.
func (a *Agent) addImages(shown []shownImage) {
	if len(shown) == 0 || a.refusesImages() {
		return
	}
	parts := []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText,
		Text: imagesIntro}}
	for _, s := range shown {
		parts = append(parts,
			openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: fmt.Sprintf("%s (from call %s):", s.img.Name, s.call)},
			openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{URL: s.img.DataURL()}})
	}
	a.addMessage(openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, MultiContent: parts})
}

// imagesIntro begins the message that carries a turn's pictures, so that the model, and a resumed
// session, can tell it from the person's words.
const imagesIntro = "[The pictures the tool calls above returned, as you asked for them; not written by the user]"

// isImagesMessage reports whether m is the message of a turn's pictures.
func isImagesMessage(m openai.ChatCompletionMessage) bool {
	return m.Role == openai.ChatMessageRoleUser && len(m.MultiContent) > 0 && m.MultiContent[0].Text == imagesIntro
}

// hasImages reports whether any message carries a picture.
func hasImages(msgs []openai.ChatCompletionMessage) bool {
	for _, m := range msgs {
		for _, p := range m.MultiContent {
			if p.ImageURL != nil {
				return true
			}
		}
	}
	return false
}

// imageRefusal returns the server's words when err is its refusal of the pictures the conversation
// carries, or "".
func (a *Agent) imageRefusal(err error) string {
	var pe *ProviderError
	if !errors.As(err, &pe) || !hasImages(a.messages) {
		return ""
	}
	switch pe.Status {
	case 400, 404, 415, 422:
	default:
		return ""
	}
	m := strings.ToLower(pe.Message)
	for _, s := range []string{"image", "vision", "multimodal", "multi-modal", "mmproj", "content must be a string",
		"expected `text`", "expected text", "must be a string", "content type"} {
		if strings.Contains(m, s) {
			return pe.Message
		}
	}
	return ""
}

// dropImages replaces every picture of the conversation with a note, for a model that refused them, and
// remembers that this model refuses pictures. The session's file keeps them: a resumed session learns the
// same way.
func (a *Agent) dropImages() {
	a.noImagesModel = a.opts.Provider.Model()
	for i := range a.messages {
		a.messages[i] = withoutImages(a.messages[i], "["+notSentNote+"]")
	}
	// The server's last count included the pictures.
	a.lastPrompt, a.lastPromptMsgs = 0, 0
}

// withoutImages is m with each picture replaced by note, as plain text: a server that takes no pictures
// may take no content parts either.
func withoutImages(m openai.ChatCompletionMessage, note string) openai.ChatCompletionMessage {
	if !hasImages([]openai.ChatCompletionMessage{m}) {
		return m
	}
	var b strings.Builder
	for _, p := range m.MultiContent {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		if p.ImageURL != nil {
			b.WriteString(note)
		} else {
			b.WriteString(p.Text)
		}
	}
	m.MultiContent, m.Content = nil, b.String()
	return m
}

// partsText is the text of a message's content parts, a picture counted as a mark, for estimates and
// summaries; it returns the number of pictures too.
func partsText(m openai.ChatCompletionMessage) (string, int) {
	var b strings.Builder
	n := 0
	for _, p := range m.MultiContent {
		if p.ImageURL != nil {
			n++
			b.WriteString("[picture]\n")
			continue
		}
		b.WriteString(p.Text + "\n")
	}
	return b.String(), n
}

// elideImages replaces the pictures of messages before end with a note, to save context; it returns how
// many messages it changed.
func (a *Agent) elideImages(end int) int {
	n := 0
	for i := range a.messages[:end] {
		if hasImages(a.messages[i : i+1]) {
			a.messages[i] = withoutImages(a.messages[i], "[picture elided to save context; read it again if you need it]")
			n++
		}
	}
	return n
}
