package tools

import "testing"

func TestCommasAndHumanBytes(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 4999800: "4,999,800", -1234: "-1,234"} {
		if got := Commas(n); got != want {
			t.Errorf("Commas(%d) = %q, want %q", n, got, want)
		}
	}
	if got := HumanBytes(38888896); got != "38.9 MB" {
		t.Errorf("humanBytes = %q", got)
	}
}
