// Package images prepares pictures for the model: it tells PNG, JPEG, GIF and WebP from their first bytes,
// bounds what it reads and decodes, scales a large picture down and re-encodes it, so that what is sent
// stays within what servers accept and what the model can use.
//
// Decisions worth knowing:
//   - Nothing is decoded before its dimensions are read from its header (image.DecodeConfig): a picture
//     whose pixels would take more than maxDecodedBytes of memory is refused, whatever its file size, so
//     that a small file cannot claim a huge canvas.
//   - The pictures decoded at one moment share one budget of memory, process-wide (budget.go): calls in
//     parallel queue for it rather than multiply it, and an interrupt ends the wait.
//   - A picture is sent as it is when it is small enough (sides within MaxSide, at most maxSentBytes) and
//     not a GIF; otherwise it is decoded, scaled to fit MaxSide (fit), and written as PNG, or as
//     JPEG when it came as JPEG or when PNG stays too large. A GIF is always sent as a PNG of its first
//     frame, since servers refuse animated GIFs.
//   - Servers scale pictures down themselves past 1,500 to 2,000 pixels, so a larger side only costs
//     bytes and time.
//
// It imports the framework (tools) for the Image it makes, and must never import the tool packages,
// permissions, agent or ui.
package images

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // registers GIF with image.Decode, which returns its first frame
	"image/jpeg"
	"image/png"
	"io"
	"strings"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers WebP with image.Decode

	"github.com/warden-cli/warden/tools"
)

const (
	// MaxFileBytes is the largest file read as a picture.
	MaxFileBytes = 20_000_000
	// MaxSide is the longest side a picture is sent with.
	MaxSide = 2000
	// maxSentBytes bounds one picture as sent (before base64): the smallest limit of the common servers.
	maxSentBytes = 5_000_000
	// maxDecodedBytes bounds the memory one decoded picture may take; at four bytes a pixel, 64
	// megapixels.
	maxDecodedBytes = 256_000_000
)

// Picture is a picture ready for the model, with what the person and the model are told about it.
type Picture struct {
	tools.Image
	// Format is the format it was read in: "PNG", "JPEG", "GIF" or "WebP".
	Format string
	// Width and Height are its size as sent; SourceWidth and SourceHeight as read.
	Width, Height, SourceWidth, SourceHeight int
	// SourceBytes is the size of the file read.
	SourceBytes int64
}

// Scaled says the picture is sent smaller than it was read.
func (p Picture) Scaled() bool { return p.Width != p.SourceWidth || p.Height != p.SourceHeight }

// Describe says what the picture is and how it is sent: "PNG, 800×600, 12 KB" or "PNG, 8,000×5,000,
// 1.2 MB, scaled down to 2,000×1,250 (310 KB sent as JPEG)".
func (p Picture) Describe() string {
	s := fmt.Sprintf("%s, %s, %s", p.Format, dims(p.SourceWidth, p.SourceHeight), tools.HumanBytes(p.SourceBytes))
	sentAs := mimeFormat[p.MIME]
	switch {
	case p.Scaled():
		s += fmt.Sprintf(", scaled down to %s (%s sent as %s)", dims(p.Width, p.Height), tools.HumanBytes(int64(len(p.Data))), sentAs)
	case sentAs != p.Format:
		s += fmt.Sprintf(" (sent as %s, %s)", sentAs, tools.HumanBytes(int64(len(p.Data))))
	}
	return s
}

func dims(w, h int) string {
	return tools.Commas(int64(w)) + "×" + tools.Commas(int64(h))
}

var mimeFormat = map[string]string{"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WebP"}

// Sniff names the picture format the first bytes of a file begin, or returns "" for anything else.
func Sniff(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return "PNG"
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return "JPEG"
	case bytes.HasPrefix(head, []byte("GIF87a")), bytes.HasPrefix(head, []byte("GIF89a")):
		return "GIF"
	case len(head) >= 12 && bytes.HasPrefix(head, []byte("RIFF")) && string(head[8:12]) == "WEBP":
		return "WebP"
	}
	return ""
}

// Prepare reads a picture of size bytes from r, named name, and makes it ready for the model. An error
// says, for the model, why it cannot be sent and what would do instead. ctx ends its wait for the
// decoding budget.
func Prepare(ctx context.Context, r io.Reader, size int64, name string) (Picture, error) {
	if size > MaxFileBytes {
		return Picture{}, fmt.Errorf("it is %s, more than the %s Warden reads as a picture; make a smaller copy (scaled down, or cropped to what matters) and read that",
			tools.HumanBytes(size), tools.HumanBytes(MaxFileBytes))
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return Picture{}, err
	}
	if len(data) > MaxFileBytes {
		return Picture{}, fmt.Errorf("it grew past %s while it was read; read it again once it is written", tools.HumanBytes(MaxFileBytes))
	}
	format := Sniff(data)
	if format == "" {
		return Picture{}, errors.New("it is not a PNG, JPEG, GIF or WebP picture")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Picture{}, fmt.Errorf("its %s header cannot be read (%v); the file may be damaged or cut short", format, err)
	}
	p := Picture{Format: format, SourceWidth: cfg.Width, SourceHeight: cfg.Height, SourceBytes: int64(len(data))}
	p.Name = name
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Picture{}, fmt.Errorf("its header gives it no size (%s)", dims(cfg.Width, cfg.Height))
	}
	if need := decodedBytes(data, cfg); need > maxDecodedBytes {
		return Picture{}, fmt.Errorf("it is %s pixels (%.0f megapixels), more than Warden decodes (%s of memory, some %d megapixels); "+
			"make a smaller copy first (for example: convert %s -resize %dx%d small.png) and read that",
			dims(cfg.Width, cfg.Height), float64(cfg.Width)*float64(cfg.Height)/1e6, tools.HumanBytes(maxDecodedBytes),
			maxDecodedBytes/4/1_000_000, quoteArg(name), MaxSide, MaxSide)
	}
	if format != "GIF" && max(cfg.Width, cfg.Height) <= MaxSide && len(data) <= maxSentBytes {
		p.MIME, p.Data, p.Width, p.Height = formatMIME[format], data, cfg.Width, cfg.Height
		return p, nil
	}
	release, err := decoding.take(ctx, decodeCost(data, cfg))
	if err != nil {
		return Picture{}, err
	}
	defer release()
	img, _, err := decode(bytes.NewReader(data))
	if err != nil {
		return Picture{}, fmt.Errorf("it cannot be decoded as %s (%v); the file may be damaged or cut short", format, err)
	}
	img = fit(img, MaxSide)
	b := img.Bounds()
	p.Width, p.Height = b.Dx(), b.Dy()
	if format != "JPEG" {
		if out, err := encodePNG(img); err == nil && len(out) <= maxSentBytes {
			p.MIME, p.Data = "image/png", out
			return p, nil
		}
	}
	out, err := encodeJPEG(img)
	if err != nil {
		return Picture{}, fmt.Errorf("it could not be re-encoded to be sent: %v", err)
	}
	if len(out) > maxSentBytes {
		return Picture{}, fmt.Errorf("even scaled to %s it is %s, more than the %s a picture may be sent with; crop it to what matters and read that",
			dims(p.Width, p.Height), tools.HumanBytes(int64(len(out))), tools.HumanBytes(maxSentBytes))
	}
	p.MIME, p.Data = "image/jpeg", out
	return p, nil
}

// decode is image.Decode; a test counts the decodes under way through it.
var decode = image.Decode

var formatMIME = map[string]string{"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WebP": "image/webp"}

// bytesPerPixel is what one pixel of a picture in model m takes once decoded.
func bytesPerPixel(m color.Model) int64 {
	switch m {
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	case color.Gray16Model:
		return 2
	case color.GrayModel, color.AlphaModel:
		return 1
	}
	return 4 // RGBA, NRGBA, CMYK, a palette's pixels once drawn, YCbCr with its planes (at most 3)
}

// fit scales img down so that its longer side is at most side; a picture that fits is returned as it is.
// It halves the picture while it is more than twice too large, each pixel the mean of four (bilinear
// sampling at exactly half is that), then scales the rest of the way bilinearly: the quality of an area
// filter at the cost of a few passes, with no buffer larger than the first half. (A kernel filter such as
// Catmull-Rom keeps a buffer of 32 bytes per source row and destination column: for 40 megapixels
// scaled to 2,000 pixels, 320 MB.)
func fit(img image.Image, side int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if max(w, h) <= side {
		return img
	}
	for max(w, h) > 2*side {
		w, h = max(w/2, 1), max(h/2, 1)
		img = scaled(img, w, h)
	}
	w, h = fitSize(w, h, side)
	return scaled(img, w, h)
}

// fitSize is w×h scaled down, keeping its proportions, so that its longer side is at most side.
func fitSize(w, h, side int) (int, int) {
	switch {
	case max(w, h) <= side:
		return w, h
	case w >= h:
		return side, max(int(int64(h)*int64(side)/int64(w)), 1)
	}
	return max(int(int64(w)*int64(side)/int64(h)), 1), side
}

// scaled is img scaled to w×h. The destination is RGBA because x/image/draw's fast paths write RGBA.
func scaled(img image.Image, w, h int) image.Image {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, img.Bounds(), xdraw.Src, nil)
	return dst
}

func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	return buf.Bytes(), err
}

// encodeJPEG writes img as a JPEG, transparent parts on white, as a page would show them.
func encodeJPEG(img image.Image) ([]byte, error) {
	b := img.Bounds()
	flat := image.NewRGBA(b)
	draw.Draw(flat, b, image.White, image.Point{}, draw.Src)
	draw.Draw(flat, b, img, b.Min, draw.Over)
	var buf bytes.Buffer
	err := jpeg.Encode(&buf, flat, &jpeg.Options{Quality: 85})
	return buf.Bytes(), err
}

// quoteArg quotes a name for the example command when it needs it.
func quoteArg(s string) string {
	if s == "" {
		return "picture.png"
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == '/') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
