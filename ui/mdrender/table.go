package mdrender

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// table draws a table: the cells of a column padded to its width and aligned as the header's row asks,
// " │ " between columns, a rule under the header. Columns take the width of their widest cell; when the
// whole is wider than the line, the widest columns give up columns first and their cells wrap.
func (r *renderer) table(n *east.Table, width int) []string {
	t := r.t
	var rows [][][]run
	header := -1
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			header = len(rows)
		}
		var cells [][]run
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			base := t.text
			if header == len(rows) {
				base = t.strong.over(t.text)
			}
			cells = append(cells, r.inlines(cell, base))
		}
		rows = append(rows, cells)
	}
	cols := len(n.Alignments)
	for _, row := range rows {
		cols = max(cols, len(row))
	}
	if cols == 0 {
		return nil
	}
	widths := make([]int, cols)
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], plainWidth(cell))
		}
	}
	sep := " " + t.tableBar + " "
	avail := width - 2 - (cols-1)*3 // a space at each end, " │ " between columns
	fitColumns(widths, max(avail, cols))

	sepDrawn := drawRuns([]run{{text: sep, style: t.text}})
	var out []string
	for ri, row := range rows {
		// Each cell wrapped to its column; the row is as tall as its tallest cell.
		cells := make([][]string, cols)
		height := 1
		for i := range cols {
			var c []run
			if i < len(row) {
				c = row[i]
			}
			cells[i] = wrapRuns(c, max(widths[i], 1))
			height = max(height, len(cells[i]))
		}
		for li := range height {
			var sb strings.Builder
			sb.WriteByte(' ')
			for i := range cols {
				if i > 0 {
					sb.WriteString(sepDrawn)
				}
				cell := ""
				if li < len(cells[i]) {
					cell = cells[i][li]
				}
				align := east.AlignNone
				if i < len(n.Alignments) {
					align = n.Alignments[i]
				}
				sb.WriteString(aligned(cell, widths[i], align, i == cols-1))
			}
			out = append(out, strings.TrimRight(sb.String(), " "))
		}
		if ri == header {
			var sb strings.Builder
			for i, w := range widths {
				if i > 0 {
					sb.WriteString(t.tableHz + crossOf(t) + t.tableHz)
				}
				sb.WriteString(strings.Repeat(t.tableHz, w))
			}
			out = append(out, drawRuns([]run{{text: t.tableHz + sb.String() + t.tableHz, style: t.text}}))
		}
	}
	return out
}

// crossOf is where the header's rule crosses a column's bar.
func crossOf(t *Theme) string {
	if t.tableBar == "│" {
		return "┼"
	}
	return t.tableBar
}

// fitColumns narrows the widest columns, one column at a time, until they fit avail.
func fitColumns(widths []int, avail int) {
	total := 0
	for _, w := range widths {
		total += w
	}
	for total > avail {
		widest := 0
		for i, w := range widths {
			if w > widths[widest] {
				widest = i
			}
		}
		if widths[widest] <= 1 {
			return
		}
		widths[widest]--
		total--
	}
}

// aligned pads a drawn cell to w columns as align asks; the last column is not padded on the right.
func aligned(cell string, w int, align east.Alignment, last bool) string {
	gap := max(w-ansi.StringWidth(cell), 0)
	switch align {
	case east.AlignRight:
		return strings.Repeat(" ", gap) + cell
	case east.AlignCenter:
		left := gap / 2
		right := gap - left
		if last {
			right = 0
		}
		return strings.Repeat(" ", left) + cell + strings.Repeat(" ", right)
	}
	if last {
		return cell
	}
	return cell + strings.Repeat(" ", gap)
}
