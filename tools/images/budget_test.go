package images

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countDecodes makes decode count the bytes of the decodes under way, each at the cost of its picture,
// and returns the most that were ever under way at once.
func countDecodes(t *testing.T) (peak func() int64) {
	var now, most atomic.Int64
	t.Cleanup(func(old func(io.Reader) (image.Image, string, error)) func() {
		return func() { decode = old }
	}(decode))
	decode = func(r io.Reader) (image.Image, string, error) {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, "", err
		}
		cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return nil, "", err
		}
		cost := decodeCost(data, cfg)
		n := now.Add(cost)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		defer now.Add(-cost)
		return image.Decode(bytes.NewReader(data))
	}
	return most.Load
}

// gifOf is a w×h GIF: a GIF is always decoded (it is sent as a PNG of its first frame), and a blank one
// is quick to make even under the race detector.
func gifOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gif.Encode(&buf, image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.White, color.Black}), nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestPicturesReadInParallelShareOneBudgetOfMemory(t *testing.T) {
	data := gifOf(t, 1000, 800)
	cfg, _, _ := image.DecodeConfig(bytes.NewReader(data))
	cost := decodeCost(data, cfg)
	old := decoding
	decoding = newBudget(cost + cost/2) // room for one such picture at a time
	t.Cleanup(func() { decoding = old })
	peak := countDecodes(t)

	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			p, err := Prepare(context.Background(), bytes.NewReader(data), int64(len(data)), "big.gif")
			if err == nil && (p.Width != 1000 || p.MIME != "image/png") {
				err = errors.New("not made ready")
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := peak(); got > decoding.size || got == 0 {
		t.Errorf("the decodes under way at once took %d bytes; the budget is %d (one picture: %d)", got, decoding.size, cost)
	}
}

func TestAPictureWaitingForTheBudgetEndsOnAnInterrupt(t *testing.T) {
	data := gifOf(t, 40, 30)
	old := decoding
	decoding = newBudget(1 << 20)
	t.Cleanup(func() { decoding = old })
	release, err := decoding.take(context.Background(), 1<<20) // another call is decoding
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Prepare(ctx, bytes.NewReader(data), int64(len(data)), "small.gif")
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the call still waits after the interrupt")
	}
}

func TestTheCostOfAPictureIsWhatItsDecodeTakesAtItsPeak(t *testing.T) {
	small := decodeCost(nil, image.Config{Width: 800, Height: 600, ColorModel: nil})
	if small != 800*600*4+800*600+2*800*600*4 {
		t.Errorf("800×600: %d", small)
	}
	if largest := decodeCost(nil, image.Config{Width: 8000, Height: 8000}); largest != decoding.size {
		t.Errorf("the largest picture costs %d, the budget is %d", largest, decoding.size)
	}
}
