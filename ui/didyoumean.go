package ui

import "strings"

// A mistyped command gets a suggestion: the command a typo or two away (/stauts is /status, /hlep is
// /help), else the first the menu would offer for what was typed.

// maxTypos is how many edits away a command may be and still be suggested; a short word allows fewer,
// so that /ab does not suggest every two-letter difference.
func maxTypos(typed string) int { return min(2, max(len([]rune(typed))/3, 1)) }

// didYouMean is the command the person most likely meant by typed, or "" when none is near.
func (s *commandSet) didYouMean(typed string) string {
	typed = strings.ToLower(typed)
	best, bestD := "", maxTypos(typed)+1
	for _, c := range s.all() {
		if d := typos(typed, strings.ToLower(c.Name)); d < bestD {
			best, bestD = c.Name, d
		}
	}
	if best != "" {
		return best
	}
	if near := s.match(typed); len(near) > 0 {
		return near[0].Name
	}
	return ""
}

// typos is the number of insertions, deletions, changes and swaps of neighbours that turn a into b (the
// optimal string alignment distance).
func typos(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
