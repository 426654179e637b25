package files

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

func pngFile(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(w/2, h/2, color.NRGBA{R: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestReadFileOfAPictureShowsItToTheModel(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	data := pngFile(t, 64, 48)
	// Told by its bytes, not its name.
	h.write("shots/screen", data)
	res := h.run("read_file", map[string]any{"path": "shots/screen"})
	if res.IsError {
		t.Fatal(res.Output)
	}
	mustContain(t, res.Output, "shots/screen is a picture (PNG, 64×48", "shown to you as an image")
	if len(res.Images) != 1 || res.Images[0].MIME != "image/png" || string(res.Images[0].Data) != data || res.Images[0].Name != "shots/screen" {
		t.Fatalf("images = %+v", res.Images)
	}
	mustContain(t, res.Display, "Attached shots/screen for the model to see")
}

func TestReadFileScalesALargePictureDown(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("big.png", pngFile(t, 2400, 1600))
	res := h.run("read_file", map[string]any{"path": "big.png"})
	if res.IsError || len(res.Images) != 1 {
		t.Fatalf("%s (%d images)", res.Output, len(res.Images))
	}
	mustContain(t, res.Output, "2,400×1,600", "scaled down to 2,000×1,333")
	cfg, _, err := image.DecodeConfig(bytes.NewReader(res.Images[0].Data))
	if err != nil || cfg.Width != 2000 || cfg.Height != 1333 {
		t.Errorf("sent %d×%d (%v)", cfg.Width, cfg.Height, err)
	}
}

func TestReadFileOfADamagedPictureSaysWhy(t *testing.T) {
	t.Parallel()
	h := newFileHarness(t)
	h.write("cut.png", pngFile(t, 10, 10)[:20])
	got := h.fails("read_file", map[string]any{"path": "cut.png"})
	mustContain(t, got, "cut.png is a picture that cannot be shown to you", "header cannot be read")
	if strings.Contains(got, "\x89PNG") {
		t.Errorf("the refusal quotes the file: %q", got)
	}
}
