package images

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/jpeg"
	"os"
	"runtime"
	"strings"
	"testing"
)

// What Go's decoder allocates for a progressive JPEG is its pixels and, until the last scan, 4 bytes a pixel
// of every component: the estimate covers it, and is more than the pixels alone, which is all a picture's
// cost counted before (a progressive greyscale JPEG took five times its estimate).
func TestAProgressiveJPEGsCostCoversWhatItsDecodingAllocates(t *testing.T) {
	for _, name := range []string{"progressive-gray.jpg", "progressive-420.jpg"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := jpeg.Decode(bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		allocated := int64(after.TotalAlloc - before.TotalAlloc)
		pixels := int64(cfg.Width) * int64(cfg.Height) * bytesPerPixel(cfg.ColorModel)
		got := decodedBytes(data, cfg)
		if allocated <= pixels {
			t.Fatalf("%s: decoding allocated %d bytes, no more than its pixels (%d): the fixture is not progressive", name, allocated, pixels)
		}
		if got < allocated*9/10 {
			t.Errorf("%s: estimated %d bytes, decoding allocated %d", name, got, allocated)
		}
	}
}

func TestOnlyAProgressiveFrameAddsItsComponents(t *testing.T) {
	gray, _ := os.ReadFile("testdata/progressive-gray.jpg")
	colour, _ := os.ReadFile("testdata/progressive-420.jpg")
	var baseline bytes.Buffer
	if err := jpeg.Encode(&baseline, image.NewGray(image.Rect(0, 0, 16, 16)), nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want int64
	}{
		{"progressive greyscale", gray, 1},
		{"progressive 4:2:0 colour (1.5 components, rounded up)", colour, 2},
		{"baseline", baseline.Bytes(), 0},
		{"not a JPEG", []byte("\x89PNG\r\n\x1a\n"), 0},
		{"a progressive frame header cut short", []byte{0xff, 0xd8, 0xff, 0xc2, 0x00, 0x04, 0x08, 0x00}, 4},
	} {
		if got := progressiveShare(tc.data); got != tc.want {
			t.Errorf("%s: %d full components, want %d", tc.name, got, tc.want)
		}
	}
}

// resized is the JPEG data with the size its frame header gives set to w×h: its header reads as a picture
// of that size, whose decoding fails once it runs out of data.
func resized(t *testing.T, data []byte, w, h int) []byte {
	t.Helper()
	out := bytes.Clone(data)
	for i := 2; i+9 < len(out); {
		n := int(binary.BigEndian.Uint16(out[i+2:]))
		if out[i+1] == 0xc2 || out[i+1] == 0xc0 {
			binary.BigEndian.PutUint16(out[i+5:], uint16(h))
			binary.BigEndian.PutUint16(out[i+7:], uint16(w))
			return out
		}
		i += 2 + n
	}
	t.Fatal("no frame header")
	return nil
}

// A progressive greyscale JPEG of 16,000×16,000 pixels is 256 MB of pixels, within the bound of one picture,
// but 1.28 GB while it decodes: it is refused before anything is decoded. Before, its cost was counted as
// its pixels and eight such calls at once took 3.9 GB.
func TestAProgressiveJPEGIsRefusedByWhatItsDecodingTakes(t *testing.T) {
	gray, err := os.ReadFile("testdata/progressive-gray.jpg")
	if err != nil {
		t.Fatal(err)
	}
	big := resized(t, gray, 16000, 16000)
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(big)); err != nil || cfg.Width != 16000 {
		t.Fatalf("the header reads as %v (%v)", cfg, err)
	}
	_, err = Prepare(context.Background(), bytes.NewReader(big), int64(len(big)), "big.jpg")
	if err == nil || !strings.Contains(err.Error(), "more than Warden decodes") {
		t.Fatalf("Prepare = %v, want it refused by its size", err)
	}
}
