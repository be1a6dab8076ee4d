package fileimport

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/hearthbot/hearth"
)

var now = time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)

func utf16le(t *testing.T, s string) []byte {
	t.Helper()
	b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func latin1(t *testing.T, s string) []byte {
	t.Helper()
	b, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func xlsxFile(t *testing.T, rows [][]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRead(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		data     func(t *testing.T) []byte
		format   Format
		encoding string
		header   []string
		rows     [][]string
	}{
		{
			name: "utf-8 with a BOM, semicolons", file: "kontakte.csv",
			data: func(*testing.T) []byte {
				return []byte("\ufeffName;Geburtstag;Telefon\nJürgen Weiß;15.03.1980;+49 30 1234567\n")
			},
			format: CSV, encoding: "utf-8",
			header: []string{"Name", "Geburtstag", "Telefon"},
			rows:   [][]string{{"Jürgen Weiß", "15.03.1980", "+49 30 1234567"}},
		},
		{
			name: "latin-1", file: "contacts.csv",
			data:   func(t *testing.T) []byte { return latin1(t, "Nom,Anniversaire\nHélène Dupré,02/04/1975\n") },
			format: CSV, encoding: "windows-1252",
			header: []string{"Nom", "Anniversaire"},
			rows:   [][]string{{"Hélène Dupré", "02/04/1975"}},
		},
		{
			name: "utf-16 tabs", file: "tasks.txt",
			data: func(t *testing.T) []byte {
				return utf16le(t, "Task\tDue\r\nPay rent\t2026-12-01\r\nCall plumber\t\r\n")
			},
			format: TSV, encoding: "utf-16le",
			header: []string{"Task", "Due"},
			rows:   [][]string{{"Pay rent", "2026-12-01"}, {"Call plumber", ""}},
		},
		{
			name: "no header row", file: "list.csv",
			data:   func(*testing.T) []byte { return []byte("ann@example.com,1980-01-02\nbob@example.com,1975-05-06\n") },
			format: CSV, encoding: "utf-8",
			header: []string{"Column 1", "Column 2"},
			rows:   [][]string{{"ann@example.com", "1980-01-02"}, {"bob@example.com", "1975-05-06"}},
		},
		{
			name: "quoted commas and ragged rows", file: "x.csv",
			data: func(*testing.T) []byte {
				return []byte("Title,Location,Start\n\"Dinner, with Sam\",\"Rome\"\nLunch,Home,2026-12-02 12:30,extra\n")
			},
			format: CSV, encoding: "utf-8",
			header: []string{"Title", "Location", "Start", "Column 4"},
			rows:   [][]string{{"Dinner, with Sam", "Rome", "", ""}, {"Lunch", "Home", "2026-12-02 12:30", "extra"}},
		},
		{
			name: "xlsx", file: "birthdays.xlsx",
			data: func(t *testing.T) []byte {
				return xlsxFile(t, [][]any{{"Name", "Birthday"}, {"Ann", "1980-03-15"}, {"Bob", 42}})
			},
			format: XLSX,
			header: []string{"Name", "Birthday"},
			rows:   [][]string{{"Ann", "1980-03-15"}, {"Bob", "42"}},
		},
		{
			name: "vcard", file: "contacts.vcf",
			data: func(*testing.T) []byte {
				return []byte("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann Lee\r\nN:Lee;Ann;;;\r\nBDAY:1980-03-15\r\nTEL;TYPE=CELL:+1 555 0100\r\nTEL;TYPE=HOME:+1 555 0101\r\nEMAIL:ann@example.com\r\nADR;TYPE=HOME:;;1 Main St;Springfield;IL;62701;USA\r\nEND:VCARD\r\n" +
					"BEGIN:VCARD\r\nVERSION:4.0\r\nN:Smith;Bob;;;\r\nBDAY:--0704\r\nEND:VCARD\r\n")
			},
			format: VCard, header: VCardHeader,
			rows: [][]string{
				{"Ann Lee", "1980-03-15", "+1 555 0100; +1 555 0101", "ann@example.com", "1 Main St, Springfield, IL, 62701, USA", "", ""},
				{"Bob Smith", "--0704", "", "", "", "", ""},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(tt.file, tt.data(t), now)
			if err != nil {
				t.Fatal(err)
			}
			if got.Format != tt.format || got.Encoding != tt.encoding {
				t.Errorf("format %s, encoding %q; want %s, %q", got.Format, got.Encoding, tt.format, tt.encoding)
			}
			if fmt.Sprint(got.Header) != fmt.Sprint(tt.header) {
				t.Errorf("header %q; want %q", got.Header, tt.header)
			}
			if fmt.Sprintf("%q", got.Rows) != fmt.Sprintf("%q", tt.rows) {
				t.Errorf("rows %q; want %q", got.Rows, tt.rows)
			}
		})
	}
}

func TestReadICal(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" +
		// Weekly in Berlin across the end of summer time (Oct 25, 2026),
		// with one week left out.
		"BEGIN:VEVENT\r\nUID:1\r\nSUMMARY:Choir\r\nDTSTART;TZID=Europe/Berlin:20261014T190000\r\nDTEND;TZID=Europe/Berlin:20261014T203000\r\n" +
		"RRULE:FREQ=WEEKLY;COUNT=4\r\nEXDATE;TZID=Europe/Berlin:20261021T190000\r\nLOCATION:Church hall\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:2\r\nSUMMARY:Holiday\r\nDTSTART;VALUE=DATE:20261224\r\nDTEND;VALUE=DATE:20261227\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:3\r\nSUMMARY:Call\r\nDTSTART:20261201T090000Z\r\nDURATION:PT30M\r\nEND:VEVENT\r\n" +
		"BEGIN:VEVENT\r\nUID:4\r\nSUMMARY:Floating\r\nDTSTART:20261202T080000\r\nEND:VEVENT\r\n" +
		"END:VCALENDAR\r\n"
	got, err := Read("cal.ics", []byte(ics), time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Choir", "2026-10-14T19:00:00+02:00", "2026-10-14T20:30:00+02:00", "", "Church hall", ""},
		{"Choir", "2026-10-28T19:00:00+01:00", "2026-10-28T20:30:00+01:00", "", "Church hall", ""},
		{"Choir", "2026-11-04T19:00:00+01:00", "2026-11-04T20:30:00+01:00", "", "Church hall", ""},
		{"Holiday", "2026-12-24", "2026-12-27", "yes", "", ""},
		{"Call", "2026-12-01T09:00:00Z", "2026-12-01T09:30:00Z", "", "", ""},
		{"Floating", "2026-12-02T08:00:00", "", "", "", ""},
	}
	if fmt.Sprintf("%q", got.Rows) != fmt.Sprintf("%q", want) {
		t.Errorf("rows\n%q\nwant\n%q", got.Rows, want)
	}
	m := Understand(got, nil)
	if m.Kind != Events || len(m.Questions()) != 0 {
		t.Fatalf("mapping %+v; want events, no questions", m)
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	items := Items(got, m, berlin, now)
	if e := items[5].Event; e == nil || !e.Start.Equal(time.Date(2026, 12, 2, 8, 0, 0, 0, berlin)) || !e.End.Equal(e.Start.Add(time.Hour)) {
		t.Errorf("floating event %+v; want 08:00 Berlin for an hour", items[5].Event)
	}
	if e := items[3].Event; e == nil || !e.AllDay || !e.End.Equal(time.Date(2026, 12, 27, 0, 0, 0, 0, berlin)) {
		t.Errorf("all-day event %+v", items[3].Event)
	}
}

func TestReadRefuses(t *testing.T) {
	big := bytes.Repeat([]byte("a,b\n"), MaxBytes/4+1)
	var many strings.Builder
	many.WriteString("Task\n")
	for i := range MaxRows + 1 {
		fmt.Fprintf(&many, "t%d\n", i)
	}
	tests := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"too large", "a.csv", big, "more than the 10.0 MB"},
		{"too many rows", "a.csv", []byte(many.String()), "more than 50000 rows"},
		{"empty", "a.csv", []byte(" \n"), "empty"},
		{"unknown format", "a.pdf", []byte("%PDF-1.4"), "I import CSV"},
		{"broken workbook", "a.xlsx", []byte("PK\x03\x04 not really a zip"), "not a readable Excel workbook"},
		{"broken calendar", "a.ics", []byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:x\r\n"), "calendar file is broken"},
		{"event without start", "a.ics", []byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"), "has no start"},
		{"broken contacts", "a.vcf", []byte("BEGIN:VCARD\r\nFN:Ann\r\n"), "contacts file is broken"},
		{"bad quotes", "a.csv", []byte("a,b\n\"x\"y\"z,1\n"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(tt.file, tt.data, now)
			if tt.want == "" {
				return // read leniently or refused: either is fine, no panic
			}
			if !errors.Is(err, hearth.ErrInvalid) || !strings.Contains(hearth.ErrorMessage(err), tt.want) {
				t.Errorf("error %v; want an invalid-input error saying %q", err, tt.want)
			}
		})
	}
}

func TestReadICalTodos(t *testing.T) {
	ics := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" +
		"BEGIN:VTODO\r\nUID:1\r\nSUMMARY:File taxes\r\nDUE;VALUE=DATE:20270415\r\nPRIORITY:1\r\nSTATUS:NEEDS-ACTION\r\nEND:VTODO\r\n" +
		"BEGIN:VTODO\r\nUID:2\r\nSUMMARY:Renew passport\r\nSTATUS:COMPLETED\r\nEND:VTODO\r\n" +
		"END:VCALENDAR\r\n"
	tab, err := Read("todo.ics", []byte(ics), now)
	if err != nil {
		t.Fatal(err)
	}
	m := Understand(tab, nil)
	if m.Kind != Tasks || len(m.Questions()) != 0 {
		t.Fatalf("mapping %+v; want to-dos without questions", m)
	}
	items := Items(tab, m, time.UTC, now)
	if tk := items[0].Task; tk == nil || tk.Title != "File taxes" || tk.Priority != 3 || !tk.AllDay || tk.Due.Format(time.DateOnly) != "2027-04-15" || tk.Status != hearth.TaskOpen {
		t.Errorf("first to-do %+v", items[0].Task)
	}
	if tk := items[1].Task; tk == nil || tk.Status != hearth.TaskDone {
		t.Errorf("second to-do %+v; want done", items[1].Task)
	}
}
