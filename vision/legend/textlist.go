package legend

import "sort"

// Lists of terms set in several term/meaning column pairs ("AB anchor bolt
// IN inch"): their columns, and each row split into its entries.

func textOnly(row []item) bool {
	for _, it := range row {
		if it.g != nil {
			return false
		}
	}
	return true
}

// textColumns finds the columns of a text-only list set as several
// term/meaning column pairs ("AB anchor bolt   IN inch"): the left edges
// shared by the text blocks of many text-only rows. It returns their x
// (left to right) when there are at least four such columns and the rows
// mostly hold an even number of blocks, else nil (a single pair of
// columns is read by the row rule already).
func textColumns(bands map[int][]item, roots []int, tol int) []int {
	var xs []int
	rows, even := 0, 0
	for _, rt := range roots {
		row := bands[rt]
		if !textOnly(row) || len(row) < 2 {
			continue
		}
		rows++
		if len(row)%2 == 0 {
			even++
		}
		for _, it := range row {
			xs = append(xs, it.r.Min.X)
		}
	}
	if rows < 3 || even*4 < rows*3 {
		return nil
	}
	sort.Ints(xs)
	var cols []int
	for i := 0; i < len(xs); {
		j := i
		for j < len(xs) && xs[j]-xs[i] <= tol {
			j++
		}
		if (j-i)*3 >= rows { // a third of the rows start a block here
			cols = append(cols, xs[i])
		}
		i = j
	}
	if len(cols) < 4 || len(cols)%2 != 0 {
		return nil
	}
	return cols
}

// textRowEntries splits a text-only row of a multi-column list into its
// term/meaning pairs: an entry starts at each block in an even column
// (the first, third…).
func (p *page) textRowEntries(row []item, cols []int) []Entry {
	var out []Entry
	var cur []item
	flush := func() {
		if e, _, ok := p.entry(cur); ok {
			out = append(out, e)
		}
		cur = nil
	}
	for _, it := range row {
		if p.textColumn(it.r.Min.X, cols)%2 == 0 && len(cur) > 0 {
			flush()
		}
		cur = append(cur, it)
	}
	flush()
	return out
}

// textColumn is the column of a multi-column list (textColumns) that an
// item starting at x stands in.
func (p *page) textColumn(x int, cols []int) int {
	c := 0
	for i, cx := range cols {
		if cx <= x+p.px(1) {
			c = i
		}
	}
	return c
}

// termGraphics reports a row of a multi-column list whose graphics all
// stand where its terms do, each starting at a term column and ending
// before its meaning's: terms OCR could not read as text ("&", "Ø", "℄"
// drawn as glyphs, or read as marks), each still the start of its entry.
func (p *page) termGraphics(row []item, cols []int) bool {
	for _, it := range row {
		if it.g == nil {
			continue
		}
		c := p.textColumn(it.r.Min.X, cols)
		if c%2 != 0 || abs(it.r.Min.X-cols[c]) > p.px(1) || it.r.Max.X > cols[c+1] {
			return false
		}
	}
	return true
}
