package fileimport

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
)

// Limits of one import. A file over them is refused with a message that
// says so, before anything is written.
const (
	// MaxBytes is the largest file read.
	MaxBytes = 10 << 20
	// MaxRows is the most rows (records, contacts, event occurrences) read.
	MaxRows = 50_000
)

// Format is the kind of file a Table was read from.
type Format string

// The formats Read understands.
const (
	CSV   Format = "csv"
	TSV   Format = "tsv"
	XLSX  Format = "xlsx"
	VCard Format = "vcard"
	ICal  Format = "ical"
)

// Table is a file's content as rows of text cells under a header. Every
// row has exactly len(Header) cells. Structured formats (vCard,
// iCalendar) are read into the fixed headers of their fields (see
// VCardHeader, ICalHeader), so one mapping serves every format.
type Table struct {
	Format Format
	// Header names the columns; a file without a header row gets
	// "Column 1", "Column 2", … and HasHeader false.
	Header    []string
	HasHeader bool
	Rows      [][]string
	// Encoding is the text encoding a CSV or TSV file was read in
	// ("utf-8", "utf-16le", "windows-1252"), "" for the others.
	Encoding string
	// Notes says what reading noticed (a sheet skipped, time zones that
	// were not understood), for the summary.
	Notes []string
}

// Read reads a file by its name and content. A file larger than MaxBytes
// or with more than MaxRows rows, an unknown format and a broken file are
// hearth.ErrInvalid errors whose message says why, fit for the user. now
// is the instant recurring calendar events are expanded around.
func Read(name string, data []byte, now time.Time) (t Table, err error) {
	if len(data) > MaxBytes {
		return Table{}, hearth.Invalidf("the file is %s, more than the %s I can import at once", sizeWords(int64(len(data))), sizeWords(MaxBytes))
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return Table{}, hearth.Invalidf("the file is empty")
	}
	f, ok := Detect(name, data)
	if !ok {
		return Table{}, hearth.Invalidf("I can't read %q: I import CSV, TSV, Excel (.xlsx), contacts (.vcf) and calendars (.ics)", path.Base(name))
	}
	// The format libraries are not all fuzz-proof (go-ical's decoder
	// indexes past a line's end on some malformed parameters): a panic in
	// one is a broken file, not a crashed turn.
	defer func() {
		if r := recover(); r != nil {
			t, err = Table{}, hearth.Invalidf("the file is broken: I couldn't read it as %s", strings.ToUpper(string(f)))
		}
	}()
	switch f {
	case CSV, TSV:
		t, err = readDelimited(data, f)
	case XLSX:
		t, err = readXLSX(data)
	case VCard:
		t, err = readVCard(data)
	case ICal:
		t, err = readICal(data, now)
	}
	if err != nil {
		return Table{}, err
	}
	if len(t.Rows) == 0 {
		return Table{}, hearth.Invalidf("the file has no rows to import")
	}
	return t, nil
}

// Detect names a file's format by its extension, or by its first bytes
// when the extension says nothing.
func Detect(name string, data []byte) (Format, bool) {
	switch strings.ToLower(path.Ext(name)) {
	case ".csv":
		return CSV, true
	case ".tsv", ".tab":
		return TSV, true
	case ".xlsx", ".xlsm":
		return XLSX, true
	case ".vcf", ".vcard":
		return VCard, true
	case ".ics", ".ical", ".ifb":
		return ICal, true
	}
	head := strings.ToUpper(string(bytes.TrimLeft(data[:min(len(data), 512)], "\ufeff \r\n\t")))
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return XLSX, true
	case strings.HasPrefix(head, "BEGIN:VCARD"):
		return VCard, true
	case strings.HasPrefix(head, "BEGIN:VCALENDAR"):
		return ICal, true
	case strings.HasSuffix(strings.ToLower(name), ".txt") || path.Ext(name) == "":
		if bytes.IndexByte(data[:min(len(data), 4096)], 0) >= 0 && !hasUTF16BOM(data) {
			return "", false // binary
		}
		return CSV, true // the delimiter is detected
	}
	return "", false
}

func sizeWords(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", (n+1023)/1024)
}

// tooManyRows is the refusal of a file over MaxRows.
func tooManyRows() error {
	return hearth.Invalidf("the file has more than %d rows, more than I can import at once; split it into smaller files", MaxRows)
}

// square pads or cuts every row to n cells.
func square(rows [][]string, n int) [][]string {
	for i, r := range rows {
		switch {
		case len(r) < n:
			rows[i] = append(r, make([]string, n-len(r))...)
		case len(r) > n:
			rows[i] = r[:n]
		}
	}
	return rows
}

// Importable reports whether a file's name or media type is one Read
// understands, for channels that decide at ingress whether a shared file
// is meant to be imported (a photo with a caption is not).
func Importable(name, mime string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".csv", ".tsv", ".tab", ".xlsx", ".xlsm", ".vcf", ".vcard", ".ics", ".ical":
		return true
	}
	mt, _, _ := strings.Cut(strings.ToLower(mime), ";")
	switch strings.TrimSpace(mt) {
	case "text/csv", "text/tab-separated-values", "text/vcard", "text/x-vcard", "text/calendar",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
		return true
	}
	return false
}
