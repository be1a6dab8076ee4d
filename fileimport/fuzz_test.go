package fileimport

import (
	"testing"
	"time"
)

// FuzzRead feeds arbitrary bytes to every reader: reading never panics,
// a table it returns is square and within the limits, and understanding
// and mapping it never panic either.
func FuzzRead(f *testing.F) {
	f.Add("a.csv", []byte("Name,Birthday\nAnn,1980-03-15\n"))
	f.Add("a.csv", []byte("\ufeffa;b\n\"x;\"\"y\";2\n"))
	f.Add("a.tsv", []byte("Task\tDue\nx\t3/4/26 5pm\n"))
	f.Add("a.vcf", []byte("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nBDAY:--0315\r\nTEL:+1 555\r\nEND:VCARD\r\n"))
	f.Add("a.ics", []byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:x\r\nDTSTART;TZID=Europe/Berlin:20261014T190000\r\nRRULE:FREQ=DAILY;COUNT=3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	f.Add("a.ics", []byte("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nDUE:20261014\r\nPRIORITY:1\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"))
	f.Add("a.xlsx", []byte("PK\x03\x04"))
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		tab, err := Read(name, data, now)
		if err != nil {
			return
		}
		if len(tab.Rows) == 0 || len(tab.Rows) > MaxRows {
			t.Fatalf("%d rows", len(tab.Rows))
		}
		for _, r := range tab.Rows {
			if len(r) != len(tab.Header) {
				t.Fatalf("row of %d cells under %d columns", len(r), len(tab.Header))
			}
		}
		m := Understand(tab, nil)
		if len(m.Columns) != len(tab.Header) {
			t.Fatalf("%d columns mapped of %d", len(m.Columns), len(tab.Header))
		}
		for _, it := range Items(tab, m, time.UTC, now) {
			if it.Person != nil {
				it.Person.Facts()
			}
		}
	})
}

// FuzzParseDate: what is accepted is a real calendar date.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-03-15", "15.03.1980", "3/15/80", "--0315", "March 15, 1980", "15th of March 3pm", "2026-01-02T10:00:00+01:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, o := range []dayOrder{dayFirstUnknown, dayFirst, monthFirst} {
			d, ok := parseDate(s, o)
			if ok && !valid(max(d.Year, 2000), int(d.Month), d.Day) {
				t.Fatalf("parseDate(%q) = %+v", s, d)
			}
		}
	})
}
