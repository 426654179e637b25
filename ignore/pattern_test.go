package ignore

import "testing"

func TestParsePattern(t *testing.T) {
	tests := []struct {
		line    string
		ok      bool
		glob    string
		negated bool
		dirOnly bool
		base    bool
	}{
		{"", false, "", false, false, false},
		{"# comment", false, "", false, false, false},
		{"\\#hash", true, "\\#hash", false, false, true},
		{"!keep", true, "keep", true, false, true},
		{"\\!bang", true, "\\!bang", false, false, true},
		{"build/", true, "build", false, true, true},
		{"/top", true, "top", false, false, false},
		{"a/b/", true, "a/b", false, true, false},
		{"trail   ", true, "trail", false, false, true},
		{"esc\\ ", true, "esc\\ ", false, false, true},
		{"esc\\  ", true, "esc\\ ", false, false, true},
		{"crlf\r", true, "crlf", false, false, true},
	}
	for _, tt := range tests {
		p, ok := ParsePattern(tt.line)
		if ok != tt.ok {
			t.Errorf("ParsePattern(%q) ok = %v", tt.line, ok)
			continue
		}
		if !ok {
			continue
		}
		if p.glob != tt.glob || p.negated != tt.negated || p.dirOnly != tt.dirOnly || p.basename != tt.base {
			t.Errorf("ParsePattern(%q) = glob %q negated %v dirOnly %v basename %v", tt.line, p.glob, p.negated, p.dirOnly, p.basename)
		}
	}
}
