package fileimport

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/hearthbot/hearth"
)

// readDelimited reads CSV or TSV: the encoding, the delimiter and the
// header row are detected (a .tsv file still has its delimiter checked,
// as spreadsheets save "CSV" with semicolons or tabs).
func readDelimited(data []byte, f Format) (Table, error) {
	text, enc, err := decodeText(data)
	if err != nil {
		return Table{}, err
	}
	delim := detectDelimiter(text, f)
	if delim == '\t' {
		f = TSV
	} else {
		f = CSV
	}
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = delim
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = false
	var rows [][]string
	width := 0
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return Table{}, hearth.Invalidf("the file is not valid %s: line %d: %v", strings.ToUpper(string(f)), pe.Line, pe.Err)
			}
			return Table{}, hearth.Invalidf("the file is not valid %s: %v", strings.ToUpper(string(f)), err)
		}
		if blank(rec) {
			continue
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if len(rows) > MaxRows { // the header is one more than MaxRows
			return Table{}, tooManyRows()
		}
		rows = append(rows, rec)
		width = max(width, len(rec))
	}
	if len(rows) == 0 {
		return Table{}, hearth.Invalidf("the file has no rows to import")
	}
	rows = square(rows, width)
	t := Table{Format: f, Encoding: enc}
	if isHeader(rows) {
		t.Header, t.HasHeader, t.Rows = rows[0], true, rows[1:]
		for i, h := range t.Header {
			if h == "" {
				t.Header[i] = fmt.Sprintf("Column %d", i+1)
			}
		}
	} else {
		t.Header, t.Rows = numberedHeader(width), rows
	}
	if len(t.Rows) > MaxRows {
		return Table{}, tooManyRows()
	}
	return t, nil
}

// decodeText turns a file's bytes into text: a UTF-8 or UTF-16 byte
// order mark decides; otherwise valid UTF-8 is UTF-8, and anything else
// is read as Windows-1252, the superset of Latin-1 that spreadsheets on
// Windows write.
func decodeText(data []byte) (text, encoding string, err error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
	case hasUTF16BOM(data):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		name := "utf-16le"
		if data[0] == 0xFE {
			dec = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
			name = "utf-16be"
		}
		out, err := dec.Bytes(data)
		if err != nil {
			return "", "", hearth.Invalidf("the file says it is UTF-16 but is not: %v", err)
		}
		return string(out), name, nil
	}
	if utf8.Valid(data) {
		return string(data), "utf-8", nil
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", "", hearth.Invalidf("the file looks binary, not text")
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(data)
	if err != nil {
		return "", "", hearth.Invalidf("the file's text encoding is not one I know: %v", err)
	}
	return string(out), "windows-1252", nil
}

func hasUTF16BOM(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF})
}

// detectDelimiter picks the delimiter that splits the first lines into
// the same number of fields (more than one), preferring the one that
// gives the most; a tab for .tsv and a comma otherwise when none does.
func detectDelimiter(text string, f Format) rune {
	lines := firstLines(text, 20)
	best, bestScore := ',', 0
	if f == TSV {
		best = '\t'
	}
	for _, d := range []rune{',', ';', '\t', '|'} {
		counts := make([]int, 0, len(lines))
		for _, l := range lines {
			counts = append(counts, countOutsideQuotes(l, d))
		}
		if len(counts) == 0 || counts[0] == 0 {
			continue
		}
		same := 0
		for _, c := range counts {
			if c == counts[0] {
				same++
			}
		}
		// Consistent lines count most; the number of fields breaks ties.
		score := same*100 + counts[0]
		if score > bestScore {
			best, bestScore = d, score
		}
	}
	return best
}

func firstLines(text string, n int) []string {
	var out []string
	for len(out) < n && text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

func countOutsideQuotes(line string, d rune) int {
	n, quoted := 0, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted = !quoted
		case r == d && !quoted:
			n++
		}
	}
	return n
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// isHeader reports whether the first row names the columns: none of its
// cells looks like a value (a date, a number, an email, a phone number),
// and it is not the only row, or a cell is a known header word.
func isHeader(rows [][]string) bool {
	first := rows[0]
	known, filled := 0, 0
	for _, c := range first {
		if c == "" {
			continue
		}
		filled++
		if _, ok := headerField(c); ok {
			known++
		}
		if looksLikeValue(c) {
			return false
		}
	}
	if known > 0 {
		return true
	}
	// One column of words, or one row, says nothing about a header: a
	// shopping list's first item is not its name.
	if filled == 0 || len(rows) == 1 || len(first) == 1 {
		return false
	}
	// A row of labels above rows that hold values in the same columns.
	for i, c := range first {
		if c != "" && i < len(rows[1]) && looksLikeValue(rows[1][i]) {
			return true
		}
	}
	return filled == len(first)
}

func numberedHeader(n int) []string {
	h := make([]string, n)
	for i := range h {
		h[i] = fmt.Sprintf("Column %d", i+1)
	}
	return h
}
