package tools

import (
	"fmt"
	"strings"
)

// How the tools write numbers for the model and the person, one way everywhere.

// Commas writes n with thousands separators, which a reader (and a model) counts more reliably.
func Commas(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Commas(-n)
	}
	var b strings.Builder
	for i, d := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	return b.String()
}

// HumanBytes writes a byte count the way a person reads it ("1.5 MB").
func HumanBytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}

// Plural writes n with the word for one or for many: "1 line", "2,000 lines".
func Plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Commas(n) + " " + many
}
