package fileimport

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/hearthbot/hearth"
)

// readXLSX reads the first sheet that has rows. Dates stored as serial
// numbers come out as the cell's format shows them, with the short date
// format made ISO (2006-01-02), so a date is never read as a number.
// Unzipping is bounded, so a small file cannot expand without limit.
func readXLSX(data []byte) (Table, error) {
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit: 8 * MaxBytes, UnzipXMLSizeLimit: 4 * MaxBytes, ShortDatePattern: "yyyy-mm-dd",
	})
	if err != nil {
		return Table{}, hearth.Invalidf("the file is not a readable Excel workbook: %v", shortErr(err))
	}
	defer f.Close()
	var t Table
	read := ""
	for _, sheet := range f.GetSheetList() {
		rows, err := sheetRows(f, sheet)
		if err != nil {
			return Table{}, err
		}
		if len(rows) == 0 {
			continue
		}
		if read != "" {
			t.Notes = append(t.Notes, fmt.Sprintf("I read the sheet %q only; %q and any after it are not imported", read, sheet))
			break
		}
		read = sheet
		width := 0
		for _, r := range rows {
			width = max(width, len(r))
		}
		rows = square(rows, width)
		t = Table{Format: XLSX}
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
		if t.Rows == nil {
			t.Rows = [][]string{}
		}
	}
	if len(t.Header) == 0 {
		return Table{}, hearth.Invalidf("the workbook has no rows to import")
	}
	return t, nil
}

func sheetRows(f *excelize.File, sheet string) ([][]string, error) {
	it, err := f.Rows(sheet)
	if err != nil {
		return nil, hearth.Invalidf("the sheet %q can't be read: %v", sheet, shortErr(err))
	}
	defer it.Close()
	var rows [][]string
	for it.Next() {
		cols, err := it.Columns()
		if err != nil {
			return nil, hearth.Invalidf("the sheet %q can't be read: %v", sheet, shortErr(err))
		}
		if blank(cols) {
			continue
		}
		if len(rows) > MaxRows {
			return nil, tooManyRows()
		}
		for i := range cols {
			cols[i] = strings.TrimSpace(cols[i])
		}
		rows = append(rows, cols)
	}
	if err := it.Error(); err != nil {
		return nil, hearth.Invalidf("the sheet %q can't be read: %v", sheet, shortErr(err))
	}
	return rows, nil
}

// shortErr keeps a library's error to its first line, for a reply.
func shortErr(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}
