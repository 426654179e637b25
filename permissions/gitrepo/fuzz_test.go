package gitrepo

import (
	"testing"
)

// FuzzParseConfig: no input makes the parser panic or loop, and a variable's key always has a name.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"[core]\n\tfsmonitor = x\n", "[a \"b\\\"c\"] d = \"e\\\\\" ; f\n", "[a.B]c", "\ufeff[a]\r\nb=c\\\n d", "[a]\nb = \"x"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parseConfig(data, func(line int, key, value string, noValue bool) {
			if key == "" || line < 1 {
				t.Fatalf("variable with key %q at line %d", key, line)
			}
		})
	})
}

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
