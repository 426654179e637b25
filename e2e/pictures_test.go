package e2e

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-cli/warden/agent/fakeapi"
)

// writePNG writes a w×h PNG with a red dot in its middle and returns its bytes.
func writePNG(t *testing.T, path string, w, h int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	img.SetGray(w/2, h/2, color.Gray{Y: 255})
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return buf.Bytes()
}

// sentImages decodes the image parts of a request, with the role of the message each came in.
func sentImages(t *testing.T, req fakeapi.Request) (roles []string, pictures [][]byte) {
	t.Helper()
	for _, m := range req.Messages {
		for _, img := range m.Images {
			mime, data, err := img.Decode()
			if err != nil || !strings.HasPrefix(mime, "image/") {
				t.Fatalf("an image part that does not decode: %s (%v)", mime, err)
			}
			roles, pictures = append(roles, m.Role), append(pictures, data)
		}
	}
	return roles, pictures
}

func TestReadFileOfAPNGReachesTheModelAsAnImagePart(t *testing.T) {
	r := newRun(t)
	want := writePNG(t, filepath.Join(r.workspace, "shot.png"), 64, 48)
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("r1", "read_file", `{"path":"shot.png"}`), fakeapi.Text("A dot."))
	out, stderr, code := r.exec("-p", "what is in shot.png?", "--base-url", server.URL(), "--model", "m")
	if code != 0 || out != "A dot.\n" {
		t.Fatalf("exit %d, out %q: %s", code, out, stderr)
	}
	reqs := server.Requests()
	if n := len(reqs[0].Images()); n != 0 {
		t.Errorf("the first request carried %d images", n)
	}
	roles, pictures := sentImages(t, reqs[1])
	if len(pictures) != 1 || !bytes.Equal(pictures[0], want) || roles[0] != "user" {
		t.Fatalf("sent %d pictures in %v", len(pictures), roles)
	}
	msgs := reqs[1].Messages
	if tool := msgs[len(msgs)-2]; tool.Role != "tool" || !strings.Contains(tool.Content, "shot.png is a picture (PNG, 64×48") {
		t.Errorf("the call's result: %+v", tool)
	}
}

func TestA40MegapixelPictureIsScaledDownBeforeItIsSent(t *testing.T) {
	r := newRun(t)
	writePNG(t, filepath.Join(r.workspace, "huge.png"), 8000, 5000)
	out, _, _ := fileCall(t, r, "read_file", `{"path":"huge.png"}`)
	if !strings.Contains(out, "8,000×5,000") || !strings.Contains(out, "scaled down to 2,000×1,250") {
		t.Errorf("the model is not told: %s", out)
	}
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.ToolCall("r1", "read_file", `{"path":"huge.png"}`), fakeapi.Text("big"))
	if _, stderr, code := r.exec("-p", "look", "--base-url", server.URL(), "--model", "m"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, pictures := sentImages(t, server.Requests()[1])
	if len(pictures) != 1 {
		t.Fatalf("%d pictures sent", len(pictures))
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(pictures[0]))
	if err != nil || cfg.Width != 2000 || cfg.Height != 1250 {
		t.Errorf("sent %d×%d (%v)", cfg.Width, cfg.Height, err)
	}
}

func TestAServerThatRejectsPicturesGetsTheTextOnlyTurnAndThePersonANote(t *testing.T) {
	r := newRun(t)
	writePNG(t, filepath.Join(r.workspace, "shot.png"), 64, 48)
	server := fakeapi.New()
	defer server.Close()
	server.RejectImages(400, "Invalid content type. image_url is only supported by certain models.")
	server.Reply(fakeapi.ToolCall("r1", "read_file", `{"path":"shot.png"}`), fakeapi.Text("I cannot see pictures."))
	out, stderr, code := r.exec("-p", "what is in shot.png?", "--base-url", server.URL(), "--model", "text-only")
	if code != 0 || out != "I cannot see pictures.\n" {
		t.Fatalf("exit %d, out %q: %s", code, out, stderr)
	}
	if !strings.Contains(stderr, "the model text-only does not take pictures") || !strings.Contains(stderr, "image_url is only supported") {
		t.Errorf("the person is not told: %q", stderr)
	}
	reqs := server.Requests()
	if len(reqs) != 3 || len(reqs[1].Images()) != 1 || len(reqs[2].Images()) != 0 {
		t.Fatalf("%d requests", len(reqs))
	}
	last := reqs[2].Messages[len(reqs[2].Messages)-1]
	if !strings.Contains(last.Content, "The picture was not sent") {
		t.Errorf("the model is not told: %+v", last)
	}
}

func TestAnAtMentionedOrPastedPictureReachesTheModel(t *testing.T) {
	r := newRun(t)
	mentioned := writePNG(t, filepath.Join(r.workspace, "shot.png"), 64, 48)
	pasted := writePNG(t, filepath.Join(r.workspace, "drops", "Screen Shot.png"), 32, 32)
	server := fakeapi.New()
	defer server.Close()
	server.Reply(fakeapi.Text("A dot in the middle."), fakeapi.Text("A smaller dot."))
	tr := startTerminal(t, r, "--base-url", server.URL(), "--model", "m")
	tr.waitFor("Ask Warden")
	tr.typeText("@shot.png what is in it?\r")
	tr.waitFor("Attached shot.png for the model to see", "A dot in the middle.")
	reqs, err := server.WaitRequests(1, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, pictures := sentImages(t, reqs[0]); len(pictures) != 1 || !bytes.Equal(pictures[0], mentioned) {
		t.Fatalf("sent %d pictures", len(pictures))
	}
	// A terminal pastes a dropped file's path, its blank escaped.
	dropped := strings.ReplaceAll(filepath.Join(r.workspace, "drops", "Screen Shot.png"), " ", `\ `)
	tr.typeText("\x1b[200~" + dropped + "\x1b[201~")
	tr.waitFor(`@"drops/Screen Shot.png"`)
	tr.typeText("and this?\r")
	tr.waitFor("Attached drops/Screen Shot.png for the model to see", "A smaller dot.")
	reqs, err = server.WaitRequests(2, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, pictures := sentImages(t, reqs[1])
	if len(pictures) != 2 || !bytes.Equal(pictures[1], pasted) {
		t.Errorf("sent %d pictures", len(pictures))
	}
}
