package images

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"
)

// picture is a w×h picture with something drawn on it, so that encoders cannot make it nothing.
func picture(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y += 7 {
		for x := 0; x < w; x += 5 {
			img.Set(x, y, color.NRGBA{R: uint8(x), G: uint8(y), B: 200, A: 255})
		}
	}
	return img
}

func pngOf(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func prepare(t *testing.T, data []byte) (Picture, error) {
	t.Helper()
	return Prepare(bytes.NewReader(data), int64(len(data)), "shot.png")
}

func TestASmallPictureIsSentAsItIs(t *testing.T) {
	data := pngOf(t, picture(800, 600))
	p, err := prepare(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if p.MIME != "image/png" || !bytes.Equal(p.Data, data) || p.Scaled() || p.Width != 800 || p.Height != 600 {
		t.Errorf("got %s %d×%d scaled=%v, %d bytes of %d", p.MIME, p.Width, p.Height, p.Scaled(), len(p.Data), len(data))
	}
	if !strings.HasPrefix(p.DataURL(), "data:image/png;base64,iVBORw0KGgo") {
		t.Errorf("data URL starts %.40q", p.DataURL())
	}
	if d := p.Describe(); d != "PNG, 800×600, "+strings.TrimSpace(d[len("PNG, 800×600, "):]) || strings.Contains(d, "scaled") {
		t.Errorf("Describe() = %q", d)
	}
}

func TestALargePictureIsScaledToFitItsLongerSide(t *testing.T) {
	p, err := prepare(t, pngOf(t, picture(2100, 900)))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := image.DecodeConfig(bytes.NewReader(p.Data))
	if err != nil {
		t.Fatalf("what is sent does not decode: %v", err)
	}
	if p.Width != 2000 || p.Height != 857 || got.Width != 2000 || got.Height != 857 || !p.Scaled() {
		t.Errorf("sent as %d×%d (decodes as %d×%d)", p.Width, p.Height, got.Width, got.Height)
	}
	if !strings.Contains(p.Describe(), "2,100×900") || !strings.Contains(p.Describe(), "scaled down to 2,000×857") {
		t.Errorf("Describe() = %q", p.Describe())
	}
	// Far past the side, it is halved first, then scaled the rest of the way.
	for _, c := range []struct{ w, h, wantW, wantH int }{{260, 130, 100, 50}, {100, 420, 23, 100}, {1000, 3, 100, 1}, {90, 60, 90, 60}} {
		b := fit(picture(c.w, c.h), 100).Bounds()
		if b.Dx() != c.wantW || b.Dy() != c.wantH {
			t.Errorf("%d×%d fits as %d×%d, want %d×%d", c.w, c.h, b.Dx(), b.Dy(), c.wantW, c.wantH)
		}
	}
}

func TestAScaledJPEGStaysAJPEG(t *testing.T) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, picture(2400, 800), nil); err != nil {
		t.Fatal(err)
	}
	p, err := prepare(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if p.MIME != "image/jpeg" || p.Format != "JPEG" || p.Width != 2000 || p.Height != 666 {
		t.Errorf("got %s from %s, %d×%d", p.MIME, p.Format, p.Width, p.Height)
	}
}

// withSize is a PNG whose header claims w×h: a file of a few hundred bytes can say it is huge.
func withSize(t *testing.T, w, h uint32) []byte {
	data := pngOf(t, picture(2, 2))
	// The IHDR chunk: length (4), "IHDR" (4), width, height, ..., its CRC over type and data.
	ihdr := data[8:]
	binary.BigEndian.PutUint32(ihdr[8:], w)
	binary.BigEndian.PutUint32(ihdr[12:], h)
	binary.BigEndian.PutUint32(ihdr[8+13:], crc32.ChecksumIEEE(ihdr[4:8+13]))
	return data
}

func TestAPictureTooLargeToDecodeIsRefusedUnread(t *testing.T) {
	_, err := prepare(t, withSize(t, 100_000, 100_000))
	if err == nil || !strings.Contains(err.Error(), "100,000×100,000 pixels") || !strings.Contains(err.Error(), "smaller copy") {
		t.Fatalf("err = %v", err)
	}
}

func TestAFileLargerThanTheLimitIsRefusedUnread(t *testing.T) {
	_, err := Prepare(strings.NewReader("never read"), 25_000_000, "huge.png")
	if err == nil || !strings.Contains(err.Error(), "it is 25.0 MB, more than the 20.0 MB") {
		t.Fatalf("err = %v", err)
	}
}

func TestAGIFIsSentAsAPNGOfItsFirstFrame(t *testing.T) {
	pal := color.Palette{color.White, color.Black}
	anim := &gif.GIF{Image: []*image.Paletted{image.NewPaletted(image.Rect(0, 0, 40, 30), pal), image.NewPaletted(image.Rect(0, 0, 40, 30), pal)}, Delay: []int{10, 10}}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		t.Fatal(err)
	}
	p, err := prepare(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if p.MIME != "image/png" || p.Format != "GIF" || p.Width != 40 || !strings.Contains(p.Describe(), "sent as PNG") {
		t.Errorf("got %s from %s: %s", p.MIME, p.Format, p.Describe())
	}
}

func TestAWebPIsRead(t *testing.T) {
	data, err := os.ReadFile("testdata/blue-purple-pink.lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	p, err := prepare(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if p.MIME != "image/webp" || p.Width != 150 || p.Height != 100 {
		t.Errorf("got %s %d×%d", p.MIME, p.Width, p.Height)
	}
}

func TestWhatIsNotAPictureOrIsDamagedIsRefusedWithAReason(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"text", []byte("hello"), "not a PNG, JPEG, GIF or WebP"},
		{"a BMP", []byte("BM\x00\x00\x00\x00"), "not a PNG, JPEG, GIF or WebP"},
		{"a PNG cut after its signature", []byte("\x89PNG\r\n\x1a\n"), "header cannot be read"},
		{"a PNG with no pixels", pngOf(t, picture(3000, 10))[:200], "cannot be decoded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := prepare(t, c.data)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want it to say %q", err, c.want)
			}
		})
	}
}

func TestSniffKnowsTheFourFormatsByTheirFirstBytes(t *testing.T) {
	for head, want := range map[string]string{
		"\x89PNG\r\n\x1a\nrest": "PNG", "\xff\xd8\xff\xe0": "JPEG", "GIF89a": "GIF", "GIF87a": "GIF",
		"RIFF\x00\x00\x00\x00WEBPVP8 ": "WebP", "RIFF\x00\x00\x00\x00WAVE": "", "\x89PNG": "", "": "", "%PDF-1.7": "",
	} {
		if got := Sniff([]byte(head)); got != want {
			t.Errorf("Sniff(%q) = %q, want %q", head, got, want)
		}
	}
}

// BenchmarkScaleA40MegapixelPicture measures making a 40-megapixel PNG ready, against decoding it alone,
// which no way of sending it can spare.
func BenchmarkScaleA40MegapixelPicture(b *testing.B) {
	data := pngOf(b, picture(8000, 5000))
	var prepare, decode time.Duration
	n := 0
	for b.Loop() {
		start := time.Now()
		if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
		decode += time.Since(start)
		start = time.Now()
		if _, err := Prepare(bytes.NewReader(data), int64(len(data)), "big.png"); err != nil {
			b.Fatal(err)
		}
		prepare += time.Since(start)
		n++
	}
	b.ReportMetric(float64(prepare.Milliseconds())/float64(n), "prepare-ms")
	b.ReportMetric(float64(prepare)/float64(decode), "ratio")
}
