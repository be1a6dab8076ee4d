package imports

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/fileimport"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline"
)

// plan is an import's working state, stored with it.
type plan struct {
	Mapping fileimport.Mapping `json:"mapping"`
	// KindSure is set once the kind is confident or confirmed.
	KindSure bool `json:"kind_sure,omitempty"`
	// Learned is set when the mapping came from an earlier import.
	Learned bool `json:"learned,omitempty"`
	// Matches is "merge" or "skip" once the user chose what to do with
	// rows that match existing items.
	Matches string `json:"matches,omitempty"`
	// Tier is the tier chosen for facts whose words decide none; 0 until
	// asked (then the usual personal).
	Tier hearth.Tier `json:"tier,omitempty"`
	// Dropped names the columns left out when the step budget ran out.
	Dropped []string `json:"dropped,omitempty"`
}

// session is one turn's work on one import.
type session struct {
	im  *Importer
	t   pipeline.Turn
	rec hearth.Import
	p   plan
	loc *time.Location
	now time.Time
	tab fileimport.Table
	// steps is rec.Steps as read, for the conditional save; rec.Steps
	// counts this turn's answer too.
	steps  int
	writes []pipeline.Write
}

// step saves the plan and answers with the import's next question, or
// its summary. lead opens the reply.
func (s *session) step(ctx context.Context, lead string) (pipeline.Answer, error) {
	text, buttons, err := s.next(ctx)
	if err != nil {
		return pipeline.Answer{}, err
	}
	return s.answer(strings.TrimSpace(lead+"\n\n"+text), buttons), nil
}

// answer is the reply with the plan saved in the turn's transaction.
func (s *session) answer(text string, buttons []hearth.Button) pipeline.Answer {
	body, _ := json.Marshal(s.p)
	rec, steps, st := s.rec, s.steps, s.im.cfg.Store
	rec.Plan = body
	ans := pipeline.Answer{Replies: []hearth.Outbound{{Text: text, Buttons: buttons}}, Writes: s.writes}
	ans.Add(func(ctx context.Context, tx pgx.Tx) error {
		ok, err := st.SaveImportTx(ctx, tx, rec, steps)
		if err == nil && !ok {
			// Another answer moved the import on first; this turn's
			// reply is stale, so it is retried against the new state.
			err = hearth.Errorf(hearth.EConflict, "import %d changed meanwhile", rec.ID)
		}
		return err
	})
	return ans
}

// next is the import's next question, or, when nothing is left to ask,
// its summary with Approve and Cancel (the import is then ready).
func (s *session) next(ctx context.Context) (string, []hearth.Button, error) {
	id := strconv.FormatInt(s.rec.ID, 10)
	m := &s.p.Mapping
	if !s.p.KindSure {
		var bs []hearth.Button
		for _, k := range []fileimport.Kind{fileimport.People, fileimport.Tasks, fileimport.Events, fileimport.Facts} {
			bs = append(bs, hearth.Button{ID: ButtonPrefix + id + ":kind:" + string(k), Label: kindLabel(k)})
		}
		return fmt.Sprintf("What does %s hold? It looks most like %s to me.", fileName(s.rec.FileName), kindWords(m.Kind)), bs, nil
	}
	if qs := m.Questions(); len(qs) > 0 {
		if s.rec.Steps >= s.im.cfg.MaxSteps {
			for _, c := range qs {
				s.setField(c.Index, fileimport.Ignore)
				s.p.Dropped = append(s.p.Dropped, c.Header)
			}
		} else {
			return s.question(qs[0], len(qs))
		}
	}
	if c, ok := m.DateQuestion(); ok {
		return dateQuestion(id, c)
	}
	a, err := s.analyse(ctx)
	if err != nil {
		return "", nil, err
	}
	if a.matched > 0 && s.p.Matches == "" {
		return fmt.Sprintf("%s of these match what you already have (%s). Shall I update those with the file's details, or skip them?", rowsWord(a.matched), a.example),
			[]hearth.Button{
				{ID: ButtonPrefix + id + ":match:merge", Label: "Update them"},
				{ID: ButtonPrefix + id + ":match:skip", Label: "Skip them"},
			}, nil
	}
	if a.unsureTiers > 0 && s.p.Tier == 0 {
		return fmt.Sprintf("%s don't say how private they are. Who in your family may see them (you always do)?", factsWord(a.unsureTiers)),
			[]hearth.Button{
				{ID: ButtonPrefix + id + ":tier:1", Label: "Only me"},
				{ID: ButtonPrefix + id + ":tier:2", Label: "Those I share personal things with"},
				{ID: ButtonPrefix + id + ":tier:3", Label: "The whole family"},
			}, nil
	}
	s.rec.State = hearth.ImportReady
	return s.summary(a), []hearth.Button{
		{ID: ButtonPrefix + id + ":approve", Label: "Approve"},
		{ID: ButtonPrefix + id + ":cancel", Label: "Cancel"},
	}, nil
}

// question asks what one column means: the suggested field first, then
// the kind's other fields not taken yet, a note, or nothing.
func (s *session) question(c fileimport.Column, left int) (string, []hearth.Button, error) {
	id := strconv.FormatInt(s.rec.ID, 10)
	m := s.p.Mapping
	taken := map[fileimport.Field]bool{}
	for _, o := range m.Columns {
		if o.Sure() {
			taken[o.Field] = true
		}
	}
	var fields []fileimport.Field
	if c.Field != "" && c.Field != fileimport.Note && c.Field != fileimport.Ignore {
		fields = append(fields, c.Field)
	}
	for _, f := range fileimport.KindFields[m.Kind] {
		if len(fields) >= 3 {
			break
		}
		multi := f == fileimport.Phone || f == fileimport.Email || f == fileimport.Address || f == fileimport.Description
		if !slices.Contains(fields, f) && (!taken[f] || multi) {
			fields = append(fields, f)
		}
	}
	prefix := ButtonPrefix + id + ":col:" + strconv.Itoa(c.Index) + ":"
	var bs []hearth.Button
	for _, f := range fields {
		bs = append(bs, hearth.Button{ID: prefix + string(f), Label: "It's the " + f.Label()})
	}
	bs = append(bs, hearth.Button{ID: prefix + string(fileimport.Note), Label: "Keep as a note"},
		hearth.Button{ID: prefix + string(fileimport.Ignore), Label: "Ignore it"})
	if left > 1 {
		bs = append(bs, hearth.Button{ID: ButtonPrefix + id + ":rest:" + string(fileimport.Ignore), Label: fmt.Sprintf("Ignore it and the %d others", left-1)})
	}
	var b strings.Builder
	// A file's words are untrusted text: escaped, they show as written.
	fmt.Fprintf(&b, "What is the column “%s”", markdown.Escape(c.Header))
	if c.Sample != "" {
		fmt.Fprintf(&b, " (for example “%s”)", markdown.Escape(clip(c.Sample, 60)))
	}
	b.WriteString("?")
	if c.Field != "" && c.Field != fileimport.Ignore {
		fmt.Fprintf(&b, " I think it's %s, but I'm not sure.", fieldWords(c.Field))
	}
	return b.String(), bs, nil
}

// dateQuestion asks how a column writes its dates, showing one of its
// values read both ways.
func dateQuestion(id string, c fileimport.Column) (string, []hearth.Button, error) {
	prefix := ButtonPrefix + id + ":order:" + strconv.Itoa(c.Index) + ":"
	d, m, ok := fileimport.BothWays(c.Sample)
	dayLabel, monthLabel := "Day first (31/12)", "Month first (12/31)"
	if ok {
		dayLabel, monthLabel = d.String(), m.String()
	}
	return fmt.Sprintf("How are the dates in “%s” written? Is “%s”…", markdown.Escape(c.Header), markdown.Escape(c.Sample)), []hearth.Button{
		{ID: prefix + fileimport.DayFirst, Label: strings.TrimSpace(dayLabel)},
		{ID: prefix + fileimport.MonthFirst, Label: strings.TrimSpace(monthLabel)},
	}, nil
}

func (s *session) setField(col int, f fileimport.Field) {
	for i := range s.p.Mapping.Columns {
		if s.p.Mapping.Columns[i].Index == col {
			s.p.Mapping.Columns[i].Field = f
			s.p.Mapping.Columns[i].Confidence = 1
			s.p.Mapping.Columns[i].Source = fileimport.FromUser
		}
	}
}

// learned is the mapping to remember for files like this one.
func (s *session) learned() json.RawMessage {
	l := fileimport.Learned{Kind: s.p.Mapping.Kind}
	for _, c := range s.p.Mapping.Columns {
		f := c.Field
		if !c.Sure() {
			f = fileimport.Ignore
		}
		l.Fields = append(l.Fields, f)
	}
	b, _ := json.Marshal(l)
	return b
}

// intro opens the first reply about a file.
func intro(t fileimport.Table, p plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "I read %s: %s.", rowsWord(len(t.Rows)), kindWords(p.Mapping.Kind))
	if p.Learned {
		b.WriteString(" I've mapped its columns the way you confirmed last time.")
	}
	for _, n := range t.Notes {
		b.WriteString(" " + n + ".")
	}
	return b.String()
}

func kindLabel(k fileimport.Kind) string {
	return map[fileimport.Kind]string{fileimport.People: "People", fileimport.Tasks: "To-dos", fileimport.Events: "Events", fileimport.Facts: "Things to remember"}[k]
}

func kindWords(k fileimport.Kind) string {
	return map[fileimport.Kind]string{fileimport.People: "a list of people", fileimport.Tasks: "a to-do list", fileimport.Events: "calendar events", fileimport.Facts: "things to remember"}[k]
}

func fieldWords(f fileimport.Field) string {
	switch f {
	case fileimport.Note:
		return "a note"
	case fileimport.Fact, fileimport.About:
		return f.Label()
	}
	return "the " + f.Label()
}

func rowsWord(n int) string {
	if n == 1 {
		return "1 row"
	}
	return strconv.Itoa(n) + " rows"
}

func factsWord(n int) string {
	if n == 1 {
		return "1 fact"
	}
	return strconv.Itoa(n) + " facts"
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// tierUnsure reports whether a fact's words decide no tier.
func tierUnsure(content string) bool {
	_, sure := memory.Tier(content)
	return !sure
}
