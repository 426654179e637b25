package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A base URL without a scheme fails at once with what to fix: no retry can help. (A host name that does
// not resolve is judged the same way, but whether it resolves depends on the machine's resolver.)
func TestUnfixableFailuresAreNotRetried(t *testing.T) {
	for _, tc := range []struct{ base, want string }{
		{"localhost:11434/v1", "add http:// or https://"},
		{"127.0.0.1:1/v1", "add http:// or https://"},
	} {
		rec := &recorder{}
		p := NewProvider(tc.base, "", "m")
		a := &Agent{opts: Options{Provider: p, Sink: rec.sink, Retry: RetryPolicy{Attempts: 4, Base: time.Millisecond, Max: time.Millisecond}}}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := a.streamWithRetry(ctx, nil, nil)
		cancel()
		var pe *ProviderError
		if !errors.As(err, &pe) || pe.Retryable || !strings.Contains(pe.Message, tc.want) {
			t.Errorf("%s: %v", tc.base, err)
		}
		for _, ev := range rec.all() {
			if n, ok := ev.(Notice); ok && n.Retrying {
				t.Errorf("%s: retried: %s", tc.base, n.Message)
			}
		}
	}
}
