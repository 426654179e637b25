package fakeapi_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// withImage is a chat request whose user message carries text and one image part.
func withImage(data string) string {
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte(data))
	return `{"model":"m","stream":true,"messages":[{"role":"user","content":[` +
		`{"type":"text","text":"what is this?"},{"type":"image_url","image_url":{"url":"` + url + `","detail":"auto"}}]}]}`
}

func TestTheServerRecordsImageParts(t *testing.T) {
	s := fakeapi.New()
	defer s.Close()
	s.Reply(fakeapi.Text("a picture"))
	if r := post(t, context.Background(), s, withImage("\x89PNG fake")); r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	req := s.Requests()[0]
	imgs := req.Images()
	if len(imgs) != 1 || imgs[0].Detail != "auto" || req.Messages[0].Content != "what is this?" {
		t.Fatalf("images %+v, content %q", imgs, req.Messages[0].Content)
	}
	mime, data, err := imgs[0].Decode()
	if err != nil || mime != "image/png" || string(data) != "\x89PNG fake" {
		t.Errorf("Decode() = %q, %q, %v", mime, data, err)
	}
	if _, _, err := (fakeapi.Image{URL: "https://example.com/x.png"}).Decode(); err == nil {
		t.Error("a URL that is not a data: URL decoded")
	}
}

func TestAServerThatRejectsImagesAnswersOnlyTheRequestsThatCarryOne(t *testing.T) {
	s := fakeapi.New()
	defer s.Close()
	s.RejectImages(400, "this model does not support image input")
	s.Reply(fakeapi.Text("text only"))
	r := post(t, context.Background(), s, withImage("x"))
	if r.status != 400 || !strings.Contains(r.body, "does not support image input") {
		t.Fatalf("with an image: status %d: %s", r.status, r.body)
	}
	if s.Pending() != 1 {
		t.Error("the rejected request took the queued reply")
	}
	r = post(t, context.Background(), s, `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	if r.status != 200 || s.Pending() != 0 {
		t.Fatalf("without an image: status %d: %s", r.status, r.body)
	}
	if n := len(s.Requests()); n != 2 {
		t.Errorf("%d requests recorded", n)
	}
}

func TestAScriptCanRejectImages(t *testing.T) {
	sc, err := fakeapi.ParseScript([]byte(`{"reject_images": "model does not support images", "rules": [{"steps": [{"text": "ok"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s := fakeapi.New()
	defer s.Close()
	sc.Install(s)
	if r := post(t, context.Background(), s, withImage("x")); r.status != 400 || !strings.Contains(r.body, "does not support images") {
		t.Errorf("with an image: %d %s", r.status, r.body)
	}
	if r := post(t, context.Background(), s, chatBody(true, "hi")); r.status != 200 {
		t.Errorf("without: %d %s", r.status, r.body)
	}
}
