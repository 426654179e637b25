package ui

// A long day's conversation must not hold on to what it drew long ago. Every item keeps its render (its
// lines, an answer's rendered blocks, a panel's body) so that frames cost nothing for what did not change;
// and a command's panel keeps the tail of its output (up to maxKeptLines) and the result the model got.
// Kept for every item of a 5,000-turn day, that grew by some 65 KB a turn. Items far above the end are
// retired instead: their renders are dropped (drawn again, once, if the person scrolls back to them or the
// transcript is printed at exit) and a finished command whose whole output is in a file keeps only the
// last retiredKeptLines of it, which its expanded panel shows with a line saying where the rest is (the
// history's pager reads the whole from the file). What
// the person said and the model answered stays.

const (
	// retireAfter is how many of the newest items keep everything.
	retireAfter = 200
	// retiredKeptLines is what a retired command's panel keeps of an output that is whole in a file: its
	// collapsed view needs four lines; expanded, it says where the rest is.
	retiredKeptLines = 40
)

// retire drops what items older than the newest retireAfter keep only for speed.
func (c *conversation) retire() {
	for _, it := range c.items[:max(len(c.items)-retireAfter, 0)] {
		if it.streaming {
			continue
		}
		it.lines, it.key, it.md = nil, itemKey{}, mdBlocks{}
		if p := it.panel; p != nil && !p.active() {
			p.retire()
		}
	}
}

// retire drops a finished panel's body render, the result text the model got (the panel shows its
// output, not that), and all but the last retiredKeptLines of an output that is whole in a file.
func (p *panel) retire() {
	p.bodyLines = nil
	p.result.Output, p.result.Display = "", ""
	if p.result.OutputPath != "" {
		p.out.keepLast(retiredKeptLines)
	}
}

// keepLast drops all but the last n complete lines, into a slice of their own so that the rest is freed.
func (b *outBuffer) keepLast(n int) {
	drop := len(b.lines) - n
	if drop <= 0 {
		return
	}
	for _, l := range b.lines[:drop] {
		b.bytes -= len(l)
	}
	b.lines = append([]string(nil), b.lines[drop:]...)
	b.dropped += drop
	b.version++
}
