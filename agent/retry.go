package agent

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// RetryPolicy says how often and how patiently a failed request is tried again. Rate limits, server errors,
// network errors and cut streams are retried; a refused key or a bad request is not.
type RetryPolicy struct {
	// Attempts is the total number of tries, the first included.
	Attempts int
	// Base is the first backoff; each later one doubles, with ±25% jitter, up to Max.
	Base, Max time.Duration
	// MaxRetryAfter caps how long a server's Retry-After can make Warden wait.
	MaxRetryAfter time.Duration
}

// DefaultRetry is used when Options.Retry is zero.
var DefaultRetry = RetryPolicy{Attempts: 4, Base: 500 * time.Millisecond, Max: 20 * time.Second, MaxRetryAfter: 2 * time.Minute}

// delay is the wait before try number next (2 for the first retry).
func (p RetryPolicy) delay(next int, pe *ProviderError) time.Duration {
	if pe.RetryAfter > 0 {
		return min(pe.RetryAfter, p.MaxRetryAfter)
	}
	d := float64(p.Base) * math.Pow(2, float64(next-2))
	d *= 0.75 + rand.Float64()/2
	return min(time.Duration(d), p.Max)
}

// streamWithRetry streams one completion, retrying transient failures. Each retry is announced with a
// Notice whose Retrying is set, so that the UI can drop the partial answer it showed.
func (a *Agent) streamWithRetry(ctx context.Context, schemas []openai.Tool, onDelta DeltaFunc) (*Completion, error) {
	policy := a.opts.Retry
	if policy.Attempts <= 0 {
		policy = DefaultRetry
	}
	for attempt := 1; ; attempt++ {
		comp, err := a.opts.Provider.Stream(ctx, a.messages, schemas, onDelta)
		if err == nil {
			return comp, nil
		}
		if ctx.Err() != nil {
			return comp, err // the partial answer, if any
		}
		var pe *ProviderError
		if !errors.As(err, &pe) || !pe.Retryable || attempt >= policy.Attempts {
			if pe != nil && pe.Retryable && attempt > 1 {
				return nil, &ProviderError{Kind: pe.Kind, Status: pe.Status,
					Message: fmt.Sprintf("%s (gave up after %d attempts)", pe.Message, attempt)}
			}
			return nil, err
		}
		wait := policy.delay(attempt+1, pe)
		a.emit(Notice{Message: fmt.Sprintf("retrying in %s (attempt %d of %d): %s", roundWait(wait), attempt+1, policy.Attempts, pe.Message), Retrying: true})
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

func roundWait(d time.Duration) string {
	if d < time.Second {
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
