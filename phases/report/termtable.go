package report

import (
	"strings"

	east "github.com/yuin/goldmark/extension/ast"
)

// table lays a GFM table out in columns separated by " | ", its header
// underlined. Columns wider than the line shares are narrowed, widest
// first, and their cells wrap.
func (r *termRenderer) table(t *east.Table, first, rest string, width int) {
	var rows [][][]piece
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells [][]piece
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			st := ""
			if _, head := row.(*east.TableHeader); head {
				st = styleBold
			}
			cells = append(cells, r.inlines(cell, st))
		}
		rows = append(rows, cells)
	}
	cols := len(t.Alignments)
	widths := make([]int, cols)
	for _, row := range rows {
		for c := 0; c < cols && c < len(row); c++ {
			widths[c] = max(widths[c], word(row[c]).width())
		}
	}
	if !fitColumns(widths, width-3*(cols-1)) {
		r.records(rows, first, rest, width)
		return
	}

	sep, cross, dash := " | ", "-+-", "-"
	if r.opt.Color {
		sep, cross, dash = " │ ", "─┼─", "─"
	}
	prefix := first
	for i, row := range rows {
		r.tableRow(row, widths, t.Alignments, prefix, rest, sep)
		prefix = rest
		if i == 0 {
			var rule []string
			for _, w := range widths {
				rule = append(rule, strings.Repeat(dash, w))
			}
			r.line(rest, strings.Join(rule, cross))
		}
	}
}

// minColumn is the narrowest a column gets, so a word stays readable.
const minColumn = 6

// fitColumns narrows the widest columns until they fit in total, each
// keeping at least minColumn; false when they cannot.
func fitColumns(widths []int, total int) bool {
	sum := func() int {
		s := 0
		for _, w := range widths {
			s += w
		}
		return s
	}
	for sum() > total {
		widest := 0
		for i, w := range widths {
			if w > widths[widest] {
				widest = i
			}
		}
		if widths[widest] <= minColumn {
			return false
		}
		widths[widest]--
	}
	return true
}

// records is the layout of a table too wide for the terminal even with
// narrowed columns: each row a list of "header: value" lines.
func (r *termRenderer) records(rows [][][]piece, first, rest string, width int) {
	if len(rows) == 0 {
		return
	}
	header := rows[0]
	for i, row := range rows[1:] {
		if i > 0 {
			r.line(rest, "")
		}
		for c, cell := range row {
			var label []piece
			if c < len(header) {
				label = append(label, header[c]...)
				label = append(label, piece{text: ": ", style: styleBold})
			}
			r.wrapped(append(label, cell...), first, rest, width)
			first = rest
		}
	}
}

// tableRow writes one row, as many lines as its tallest wrapped cell.
func (r *termRenderer) tableRow(row [][]piece, widths []int, align []east.Alignment, first, rest, sep string) {
	cells := make([][][]piece, len(widths))
	height := 1
	for c := range widths {
		if c < len(row) {
			cells[c] = wrap(words(row[c]), widths[c])
		}
		height = max(height, len(cells[c]))
	}
	for l := 0; l < height; l++ {
		var parts []string
		for c, w := range widths {
			var line []piece
			if l < len(cells[c]) {
				line = cells[c][l]
			}
			pad := w - word(line).width()
			text := r.paint(line)
			switch {
			case c < len(align) && align[c] == east.AlignRight:
				text = strings.Repeat(" ", max(pad, 0)) + text
			case c < len(align) && align[c] == east.AlignCenter:
				text = strings.Repeat(" ", max(pad/2, 0)) + text + strings.Repeat(" ", max(pad-pad/2, 0))
			default:
				text += strings.Repeat(" ", max(pad, 0))
			}
			parts = append(parts, text)
		}
		p := rest
		if l == 0 {
			p = first
		}
		r.line(p, strings.Join(parts, sep))
	}
}
