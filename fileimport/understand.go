package fileimport

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
)

// Confident is the confidence from which a column's mapping is taken
// without asking.
const Confident = 0.8

// Where a column's mapping came from.
const (
	FromHeader  = "header"
	FromValues  = "values"
	FromLearned = "learned"
	FromUser    = "user"
)

// Column is one column's mapping.
type Column struct {
	Index  int    `json:"index"`
	Header string `json:"header"`
	// Field is what the column means; "" when nothing suggested one.
	Field Field `json:"field,omitempty"`
	// Confidence is from 0 to 1; below Confident the user is asked.
	Confidence float64 `json:"confidence"`
	// Source says where the mapping came from (FromHeader, …).
	Source string `json:"source,omitempty"`
	// DateOrder is how the column writes numeric dates: DayFirst
	// (15/03/1980), MonthFirst (03/15/1980), Unsure when its values could
	// be either and only the user can say (04/03/1980), or "" when it has
	// no such dates or its separator decides (15.03.1980 is day first).
	DateOrder string `json:"date_order,omitempty"`
	// Sample is the column's first value, for questions.
	Sample string `json:"sample,omitempty"`
}

// Date orders of a column (Column.DateOrder).
const (
	DayFirst   = "dmy"
	MonthFirst = "mdy"
	Unsure     = "?"
)

// dateOrder is the order a column's profile shows.
func dateOrder(p profile) string {
	switch {
	case p.order == dayFirst:
		return DayFirst
	case p.order == monthFirst:
		return MonthFirst
	case p.ambiguous != "" && p.slashed > 0:
		return Unsure
	}
	return ""
}

// IsDate reports whether the field holds dates.
func (f Field) IsDate() bool { return f == Birthday || f == Due || f == Start || f == End || f == date }

// DateQuestion is the first date column whose day order is unsure, with
// a value that reads both ways.
func (m Mapping) DateQuestion() (Column, bool) {
	for _, c := range m.Columns {
		if c.Field.IsDate() && c.DateOrder == Unsure {
			return c, true
		}
	}
	return Column{}, false
}

// BothWays reads an ambiguous numeric date day first and month first,
// for the question that asks which.
func BothWays(v string) (dmy, mdy Date, ok bool) {
	d, ok1 := parseDate(v, dayFirst)
	m, ok2 := parseDate(v, monthFirst)
	return d, m, ok1 && ok2
}

// Sure reports whether the column needs no question.
func (c Column) Sure() bool { return c.Field != "" && c.Confidence >= Confident }

// Mapping is what a file holds and what each of its columns means.
type Mapping struct {
	Kind Kind `json:"kind"`
	// KindConfidence is how sure the kind is.
	KindConfidence float64  `json:"kind_confidence"`
	Columns        []Column `json:"columns"`
	// Signature identifies the file's layout (format and header), so a
	// mapping confirmed once is proposed for the next file like it.
	Signature string `json:"signature"`
}

// Learned is a mapping the user confirmed before for a file with the
// same Signature.
type Learned struct {
	Kind   Kind    `json:"kind"`
	Fields []Field `json:"fields"`
}

// Questions are the columns the user is asked about, in order.
func (m Mapping) Questions() []Column {
	var out []Column
	for _, c := range m.Columns {
		if !c.Sure() {
			out = append(out, c)
		}
	}
	return out
}

// Signature is the layout of a table: its format and normalised header
// (for files without a header, the number of columns).
func Signature(t Table) string {
	var b strings.Builder
	b.WriteString(string(t.Format))
	if t.Format == TSV {
		b.Reset()
		b.WriteString(string(CSV)) // a TSV and a CSV of the same columns are the same layout
	}
	if !t.HasHeader {
		b.WriteString("|columns:")
		b.WriteString(strings.Repeat("x", len(t.Header)))
	}
	for _, h := range t.Header {
		if t.HasHeader {
			b.WriteString("|" + normalise(h))
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:12])
}

// Understand maps a table's columns to fields and says what it holds. A
// learned mapping for the table's signature is proposed as it was
// confirmed; otherwise each column is judged by its header words and its
// values.
func Understand(t Table, learned *Learned) Mapping { return understand(t, learned, "") }

// UnderstandAs maps a table's columns as a file of the given kind (the
// user said what it holds).
func UnderstandAs(t Table, k Kind) Mapping {
	m := understand(t, nil, k)
	m.KindConfidence = 1
	return m
}

func understand(t Table, learned *Learned, kind Kind) Mapping {
	m := Mapping{Signature: Signature(t)}
	if learned != nil && len(learned.Fields) == len(t.Header) {
		m.Kind, m.KindConfidence = learned.Kind, 0.99
		for i, h := range t.Header {
			p := profileColumn(t.Rows, i)
			m.Columns = append(m.Columns, Column{Index: i, Header: h, Field: learned.Fields[i], Confidence: 0.99, Source: FromLearned, DateOrder: dateOrder(p), Sample: sampleOf(p)})
		}
		return m
	}
	for i, h := range t.Header {
		p := profileColumn(t.Rows, i)
		c := Column{Index: i, Header: h, DateOrder: dateOrder(p), Sample: sampleOf(p)}
		hf, byHeader := Field(""), false
		if t.HasHeader {
			hf, byHeader = headerField(h)
		}
		vf, vconf := valueField(p)
		switch {
		case p.filled == 0:
			c.Field, c.Confidence, c.Source = Ignore, 0.9, FromValues // an empty column
		case byHeader && agrees(hf, p):
			c.Field, c.Confidence, c.Source = hf, 0.95, FromHeader
			if structured(t.Format) {
				c.Confidence = 1
			}
		case byHeader:
			// The header says one thing and the values another: ask.
			c.Field, c.Confidence, c.Source = hf, 0.55, FromHeader
		case vf != "":
			c.Field, c.Confidence, c.Source = vf, vconf, FromValues
		}
		m.Columns = append(m.Columns, c)
	}
	m.Kind, m.KindConfidence = kindOf(m.Columns)
	if kind != "" {
		m.Kind = kind
	}
	resolve(&m)
	return m
}

// sampleOf is the value a question shows: an ambiguous date when there
// is one, so the date-order question can read it both ways.
func sampleOf(p profile) string {
	if p.ambiguous != "" && p.order == dayFirstUnknown {
		return p.ambiguous
	}
	return p.sample
}

func structured(f Format) bool { return f == VCard || f == ICal }

// agrees reports whether a column's values fit the field its header
// names: dates in a date column, emails in an email column.
func agrees(f Field, p profile) bool {
	switch f {
	case Birthday, Due, Start, End, date:
		return p.dates >= 0.6
	case Email:
		return p.email >= 0.6
	case Phone:
		return p.phone >= 0.6
	case AllDay, Status:
		return p.bool >= 0.6 || f == Status
	case Name, FirstName, LastName, Title:
		return p.dates < 0.5 && p.email < 0.5 && p.numbers < 0.5
	}
	return true
}

// valueField is the field a column's values suggest without a header,
// below Confident so the user confirms it.
func valueField(p profile) (Field, float64) {
	switch {
	case p.email >= 0.8:
		return Email, 0.75
	case p.dates >= 0.8:
		return date, 0.6
	case p.phone >= 0.8:
		return Phone, 0.7
	}
	return "", 0
}

// kindOf weighs the fields found: names with contact details or
// birthdays are people, titles with starts are events, titles with due
// dates or statuses are tasks, facts are facts.
func kindOf(cols []Column) (Kind, float64) {
	score := map[Kind]float64{}
	has := map[Field]bool{}
	for _, c := range cols {
		if c.Field == "" || c.Field == Ignore || c.Confidence < 0.5 {
			continue
		}
		has[c.Field] = true
		switch c.Field {
		case Name, FirstName, LastName:
			score[People] += 1
		case Birthday, Phone, Email, Address, Organization:
			score[People] += 2
		case Start, End, AllDay, Location:
			score[Events] += 2
		case Due, Priority, Status:
			score[Tasks] += 2
		case Title:
			score[Tasks]++
			score[Events]++
		case Fact:
			score[Facts] += 3
		case About:
			score[Facts]++
		case date:
			score[Events] += 0.5
			score[Tasks] += 0.5
			score[People] += 0.5
		}
	}
	if has[Title] && !has[Start] && !has[Due] {
		score[Tasks] += 0.5 // a bare to-do list
	}
	best, total := Kind(""), 0.0
	for _, k := range []Kind{People, Tasks, Events, Facts} {
		total += score[k]
		if score[k] > score[best] || best == "" && score[k] > 0 {
			best = k
		}
	}
	if best == "" {
		return Facts, 0.3 // lines of text are at least things to remember
	}
	return best, score[best] / total
}

// resolve gives kind-dependent columns their field (a date column is a
// birthday in a contact list, a due date in a to-do list) and demotes a
// second column for a single-valued field.
func resolve(m *Mapping) {
	seen := map[Field]bool{}
	for i := range m.Columns {
		c := &m.Columns[i]
		switch c.Field {
		case date:
			c.Field = map[Kind]Field{People: Birthday, Tasks: Due, Events: Start, Facts: Note}[m.Kind]
		case Name:
			if m.Kind == Tasks || m.Kind == Events {
				c.Field = Title
			}
		case Title:
			if m.Kind == People {
				c.Field = Note
				c.Confidence = min(c.Confidence, 0.6)
			}
		}
		if c.Field == "" || c.Field == Ignore || c.Field == Note {
			continue
		}
		if !slices.Contains(KindFields[m.Kind], c.Field) && c.Field != Description {
			// A field of another kind: kept as a note unless the user says.
			c.Field, c.Confidence = Note, min(c.Confidence, 0.6)
			continue
		}
		multi := c.Field == Phone || c.Field == Email || c.Field == Address || c.Field == Description || c.Field == Fact
		if seen[c.Field] && !multi {
			c.Field, c.Confidence = Note, 0.6
			continue
		}
		seen[c.Field] = true
	}
	// A to-do list whose only text column was unnamed: its first text
	// column is the title.
	if (m.Kind == Tasks || m.Kind == Events) && !seen[Title] {
		for i := range m.Columns {
			c := &m.Columns[i]
			if c.Field == "" || c.Field == Note {
				c.Field, c.Confidence = Title, 0.6
				break
			}
		}
	}
	if m.Kind == Facts && !seen[Fact] {
		for i := range m.Columns {
			c := &m.Columns[i]
			if c.Field == "" {
				c.Field, c.Confidence = Fact, 0.6
				break
			}
		}
	}
}
