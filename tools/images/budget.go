package images

import (
	"context"
	"fmt"
	"image"

	"golang.org/x/sync/semaphore"
)

// How much memory the pictures being decoded at one moment take, in the whole process. Each picture is
// bounded on its own (maxDecodedBytes), but read_file calls run in parallel, and the model can ask for
// sixteen large pictures in one turn: sixteen 8,000×8,000 PNGs once took 5.3 GB. A decode therefore
// takes its share of one budget, process-wide like the memory it guards, before it begins, and gives it
// back once its picture is encoded again; pictures past the budget wait their turn, in order, and an
// interrupt ends the wait.

// budget is memory shared by the decodes under way.
type budget struct {
	size int64
	sem  *semaphore.Weighted
}

func newBudget(size int64) *budget { return &budget{size: size, sem: semaphore.NewWeighted(size)} }

// decoding is the process's budget: exactly what the largest picture Warden decodes takes (decodeCost),
// so that such a picture decodes alone while smaller ones share.
var decoding = newBudget(maxDecodedBytes + maxDecodedBytes/4 + 2*MaxSide*MaxSide*4)

// decodeCost is what decoding the picture data, of the header cfg, and making it ready takes at its peak:
// what its decoding holds (decodedBytes: its pixels, a progressive JPEG's coefficients), the first halving
// of fit (a quarter of the pixels) and, at the end, the picture as sent and the flattened copy encodeJPEG
// draws of it.
func decodeCost(data []byte, cfg image.Config) int64 {
	pixels := int64(cfg.Width) * int64(cfg.Height) * bytesPerPixel(cfg.ColorModel)
	w, h := fitSize(cfg.Width, cfg.Height, MaxSide)
	return decodedBytes(data, cfg) + pixels/4 + 2*int64(w)*int64(h)*4
}

// take waits for cost bytes of b (all of it, for a cost past its size); the function it returns gives
// them back.
func (b *budget) take(ctx context.Context, cost int64) (release func(), err error) {
	cost = min(cost, b.size)
	if err := b.sem.Acquire(ctx, cost); err != nil {
		return nil, fmt.Errorf("it was waiting for other pictures to be decoded when the call was interrupted: %w", err)
	}
	return func() { b.sem.Release(cost) }, nil
}
