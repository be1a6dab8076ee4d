package fileimport

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
)

func TestSynonymsAreUnique(t *testing.T) {
	seen := map[string]Field{}
	for f, words := range synonyms {
		for _, w := range words {
			if g, dup := seen[w]; dup {
				t.Errorf("%q is a header word of both %s and %s", w, g, f)
			}
			if normalise(w) != w {
				t.Errorf("%q is not normalised (%q)", w, normalise(w))
			}
			seen[w] = f
		}
	}
}

func TestUnderstand(t *testing.T) {
	tests := []struct {
		name      string
		csv       string
		kind      Kind
		fields    []Field
		questions int
	}{
		{"english contacts", "Full Name,Date of Birth,Mobile,E-mail,Home Address\nAnn Lee,1980-03-15,+1 555 0100,ann@example.com,1 Main St\n",
			People, []Field{Name, Birthday, Phone, Email, Address}, 0},
		{"german birthdays", "Vorname;Nachname;Geburtstag;Notizen\nJürgen;Weiß;15.03.1980;mag Tee\n",
			People, []Field{FirstName, LastName, Birthday, Note}, 0},
		{"spanish tasks", "Tarea,Fecha límite,Prioridad,Estado\nPagar alquiler,01/12/2026,alta,no\n",
			Tasks, []Field{Title, Due, Priority, Status}, 0},
		{"french events", "Titre,Début,Fin,Lieu\nDîner,2026-12-24 19:00,2026-12-24 23:00,Lyon\n",
			Events, []Field{Title, Start, End, Location}, 0},
		{"dutch to-dos", "Taak,Vervaldatum\nBellen,2026-12-01\n", Tasks, []Field{Title, Due}, 0},
		{"facts", "About,Fact\nEmma,Emma loves horses\n", Facts, []Field{About, Fact}, 0},
		{"unknown column is asked", "Name,Birthday,Shoe size\nAnn,1980-03-15,38\n", People, []Field{Name, Birthday, ""}, 1},
		{"no header: values decide, and are asked", "ann@example.com,Ann,1980-03-15\nbob@example.com,Bob,1975-05-06\n",
			People, []Field{Email, "", Birthday}, 3},
		{"header and values disagree", "Name,Birthday\nAnn,sometime\nBob,unknown\n", People, []Field{Name, Birthday}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab, err := Read("f.csv", []byte(tt.csv), now)
			if err != nil {
				t.Fatal(err)
			}
			m := Understand(tab, nil)
			if m.Kind != tt.kind {
				t.Errorf("kind %s; want %s", m.Kind, tt.kind)
			}
			for i, want := range tt.fields {
				if got := m.Columns[i].Field; got != want {
					t.Errorf("column %q → %q (%.2f); want %q", m.Columns[i].Header, got, m.Columns[i].Confidence, want)
				}
			}
			if got := len(m.Questions()); got != tt.questions {
				t.Errorf("%d questions; want %d: %+v", got, tt.questions, m.Columns)
			}
		})
	}
}

func TestUnderstandLearned(t *testing.T) {
	tab, err := Read("f.csv", []byte("Col A,Col B\nAnn,38\n"), now)
	if err != nil {
		t.Fatal(err)
	}
	m := Understand(tab, &Learned{Kind: People, Fields: []Field{Name, Note}})
	if m.Kind != People || len(m.Questions()) != 0 || m.Columns[0].Source != FromLearned || m.Columns[1].Field != Note {
		t.Errorf("mapping %+v; want the learned one, sure", m)
	}
	// A learned mapping of another width is not this file's.
	m = Understand(tab, &Learned{Kind: People, Fields: []Field{Name}})
	if m.Columns[0].Source == FromLearned {
		t.Error("a learned mapping of another width was used")
	}
	if Signature(tab) == "" || Signature(tab) != m.Signature {
		t.Error("signature")
	}
	tsv, _ := Read("f.tsv", []byte("col a\tCOL B\nAnn\t38\n"), now)
	if Signature(tsv) != Signature(tab) {
		t.Error("the same columns as TSV have another signature")
	}
}

func TestItems(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	tab, err := Read("f.csv", []byte("Name;Geburtstag;Telefon;Allergien\nJürgen Weiß;15.03.1980;+49 30 1234567;Penicillin\n;1.1.2000;;\nAnn;--0704;;\n"), now)
	if err != nil {
		t.Fatal(err)
	}
	m := Understand(tab, nil)
	m.Columns[3].Field = Note
	items := Items(tab, m, berlin, now)
	if len(items) != 3 || items[1].Skip != "no name" || items[1].Row != 3 {
		t.Fatalf("items %+v", items)
	}
	facts := items[0].Person.Facts()
	want := []struct {
		content string
		tier    hearth.Tier
	}{
		{"Jürgen Weiß's birthday is March 15, 1980", hearth.TierPersonal},
		{"Jürgen Weiß's phone number is +49 30 1234567", hearth.TierPersonal},
		{"Jürgen Weiß — Allergien: Penicillin", hearth.TierPersonal},
	}
	if len(facts) != len(want) {
		t.Fatalf("facts %+v", facts)
	}
	for i, w := range want {
		if facts[i].Content != w.content || facts[i].Tier != w.tier || facts[i].About != "Jürgen Weiß" {
			t.Errorf("fact %d: %+v; want %q tier %d", i, facts[i], w.content, w.tier)
		}
	}
	if f := items[2].Person.Facts(); f[0].Content != "Ann's birthday is July 4" {
		t.Errorf("yearless birthday: %q", f[0].Content)
	}

	tasks, _ := Read("t.csv", []byte("Task,Due,Priority,Done\nPay rent,2026-12-01,high,no\nCall,12/03/2026 17:30,,yes\n,2026-01-01,,\nFix,someday,,\n"), now)
	tm := Understand(tasks, nil)
	ti := Items(tasks, tm, berlin, now)
	if tk := ti[0].Task; tk == nil || !tk.AllDay || !tk.Due.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, berlin)) || tk.Priority != 3 || tk.Status != hearth.TaskOpen {
		t.Errorf("task 1: %+v", ti[0].Task)
	}
	if tk := ti[1].Task; tk == nil || tk.AllDay || !tk.Due.Equal(time.Date(2026, 12, 3, 17, 30, 0, 0, berlin)) || tk.Status != hearth.TaskDone {
		t.Errorf("task 2: %+v", ti[1].Task)
	}
	if ti[2].Skip != "no title" || !strings.Contains(ti[3].Skip, "due date I can't read") {
		t.Errorf("skips: %q, %q", ti[2].Skip, ti[3].Skip)
	}
}

func TestParseDate(t *testing.T) {
	tests := []struct {
		in    string
		order dayOrder
		y, m  int
		d     int
		ok    bool
	}{
		{"2026-03-15", dayFirstUnknown, 2026, 3, 15, true},
		{"15.03.1980", dayFirstUnknown, 1980, 3, 15, true},
		{"03/15/1980", dayFirstUnknown, 1980, 3, 15, true},
		{"04/03/1980", dayFirst, 1980, 3, 4, true},
		{"04/03/1980", monthFirst, 1980, 4, 3, true},
		{"4/3/80", dayFirstUnknown, 1980, 4, 3, true},
		{"19800315", dayFirstUnknown, 1980, 3, 15, true},
		{"--0315", dayFirstUnknown, 0, 3, 15, true},
		{"March 15, 1980", dayFirstUnknown, 1980, 3, 15, true},
		{"15th of March", dayFirstUnknown, 0, 3, 15, true},
		{"Mar 15 2026 3:30pm", dayFirstUnknown, 2026, 3, 15, true},
		{"2026-02-30", dayFirstUnknown, 0, 0, 0, false},
		{"12345678", dayFirstUnknown, 0, 0, 0, false},
		{"hello", dayFirstUnknown, 0, 0, 0, false},
		{"15.03/1980", dayFirstUnknown, 0, 0, 0, false},
	}
	for _, tt := range tests {
		d, ok := parseDate(tt.in, tt.order)
		if ok != tt.ok || ok && (d.Year != tt.y || int(d.Month) != tt.m || d.Day != tt.d) {
			t.Errorf("parseDate(%q) = %+v, %v; want %d-%d-%d, %v", tt.in, d, ok, tt.y, tt.m, tt.d, tt.ok)
		}
	}
}

func TestDateOrder(t *testing.T) {
	tests := []struct {
		values []string
		want   string
	}{
		{[]string{"03/04/1980", "15/03/1980"}, DayFirst},
		{[]string{"03/04/1980", "03/15/1980"}, MonthFirst},
		{[]string{"03/04/1980", "05/06/1980"}, Unsure},
		{[]string{"03.04.1980", "05.06.1980"}, ""},
		{[]string{"1980-04-03"}, ""},
		{[]string{"01/01/1980"}, ""},
	}
	for _, tt := range tests {
		csv := "Name,Birthday\n"
		for i, v := range tt.values {
			csv += fmt.Sprintf("P%d,%s\n", i, v)
		}
		tab, err := Read("p.csv", []byte(csv), now)
		if err != nil {
			t.Fatal(err)
		}
		m := Understand(tab, nil)
		if got := m.Columns[1].DateOrder; got != tt.want {
			t.Errorf("%v: order %q; want %q", tt.values, got, tt.want)
		}
		if _, ask := m.DateQuestion(); ask != (tt.want == Unsure) {
			t.Errorf("%v: date question %v", tt.values, ask)
		}
	}
}
