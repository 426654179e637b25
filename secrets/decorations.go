package secrets

import "strings"

// Editors and people keep copies of the file they work on beside it, under the file's name decorated:
// vim's swap files (.NAME.swp, then .swo, .swn… as more sessions open it), Emacs's auto-save (#NAME#)
// and backup (NAME~, NAME.~1~) files, Kate's swap file (.NAME.kate-swp), nano's emergency save
// (NAME.save), and the copies people make by hand or tools leave behind (NAME.bak, .orig, .old,
// .backup). A copy holds what the file held: the swap file of an open .npmrc holds its token. So the
// catalogue judges a decorated name as the name it decorates, here and nowhere else.

// maxDecorations bounds how many decorations are taken off one name (.env.bak~ is two).
const maxDecorations = 3

// undecorated returns the names base is to be judged as: base itself when it is no copy, else every
// name it may be a copy of, each decoration taken off (and not base, whose decorated form could pass for
// another name: .env.example~ is a copy of .env.example, not an .env file). vim's swap file of .env is
// ..env.swp, and of id_rsa .id_rsa.swp, so a swap file's leading dot is both kept and taken off.
func undecorated(base string) []string {
	cur := []string{base}
	for range maxDecorations {
		var next []string
		stripped := false
		for _, n := range cur {
			if s := stripDecoration(n); len(s) > 0 {
				next, stripped = append(next, s...), true
			} else {
				next = append(next, n)
			}
		}
		if !stripped {
			break
		}
		cur = next
	}
	return cur
}

// backupSuffixes are what people and tools append to a copy.
var backupSuffixes = []string{".bak", ".orig", ".old", ".backup", ".save", ".kate-swp"}

// stripDecoration returns the names n is a decoration of, one decoration taken off, or none.
func stripDecoration(n string) []string {
	lower := strings.ToLower(n)
	switch {
	case len(n) > 2 && n[0] == '#' && n[len(n)-1] == '#':
		return []string{n[1 : len(n)-1]}
	case len(n) > 1 && strings.HasSuffix(n, "~"):
		// NAME~ and NAME.~N~.
		s := n[:len(n)-1]
		if i := strings.LastIndex(s, ".~"); i > 0 && allDigits(s[i+2:]) {
			s = s[:i]
		}
		return []string{s}
	case vimSwap(lower):
		s := n[:len(n)-4]
		if s == "" {
			return nil
		}
		if strings.HasPrefix(s, ".") && len(s) > 1 {
			return []string{s, s[1:]}
		}
		return []string{s}
	}
	for _, suf := range backupSuffixes {
		if strings.HasSuffix(lower, suf) && len(n) > len(suf) {
			s := n[:len(n)-len(suf)]
			if suf == ".kate-swp" && strings.HasPrefix(s, ".") && len(s) > 1 {
				return []string{s, s[1:]}
			}
			return []string{s}
		}
	}
	return nil
}

// vimSwap reports a vim swap file's suffix: .swp, then downwards to .swa, then .svz… (vim tries them in
// turn while older ones exist); .swp through .sw[a-p] covers all but the rarest.
func vimSwap(lower string) bool {
	if len(lower) < 5 || lower[len(lower)-4:len(lower)-1] != ".sw" {
		return false
	}
	c := lower[len(lower)-1]
	return c >= 'a' && c <= 'p'
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
