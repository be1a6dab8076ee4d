package hybrid

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// domainKinds are the action kinds each domain's prompt may plan.
var domainKinds = map[nlu.Domain][]action.Kind{
	nlu.Task:     {action.TaskCreate, action.TaskUpdate, action.TaskComplete, action.TaskDelete},
	nlu.Memory:   {action.MemoryStore, action.MemoryUpdate, action.MemoryForget},
	nlu.Calendar: {action.CalendarList, action.CalendarCreate, action.CalendarUpdate, action.CalendarDelete},
	nlu.Email:    {action.EmailDraft, action.EmailSend},
	nlu.Keep:     {action.NoteCreate, action.NoteAppend, action.NoteCheck, action.NoteRemove, action.NoteDelete},
}

// planSchema is the plan prompt's answer for kinds. A payload is a JSON
// string, decoded and validated against its kind's schema afterwards:
// strict structured output cannot express "payload matches the schema of
// kind", and one nested schema per kind would make every prompt long.
func planSchema(kinds []action.Kind) json.RawMessage {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	b, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"understood": map[string]any{"type": "string"},
			"actions": map[string]any{"type": "array", "items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"kind":    map[string]any{"type": "string", "enum": names},
					"payload": map[string]any{"type": "string"},
				},
				"required":             []string{"kind", "payload"},
				"additionalProperties": false,
			}},
		},
		"required":             []string{"understood", "actions"},
		"additionalProperties": false,
	})
	return b
}

// ModelPlanner is the hybrid planner of one domain: the offline plan when
// the request is fully specified and simple, the model's otherwise, and
// the offline plan again when the model fails.
type ModelPlanner struct {
	// Models is the model configuration; Models.Chat answers.
	Models *Models
	// Domain is the domain planned: its prompt and action kinds.
	Domain nlu.Domain
	// Offline is the domain's rule-based planner, asked first.
	Offline stage.Planner
}

var _ stage.Planner = ModelPlanner{}

// Planners wraps each offline planner in a ModelPlanner.
func (m *Models) Planners(offline map[nlu.Domain]stage.Planner) map[nlu.Domain]stage.Planner {
	out := make(map[nlu.Domain]stage.Planner, len(offline))
	for d, p := range offline {
		out[d] = ModelPlanner{Models: m, Domain: d, Offline: p}
	}
	return out
}

// Plan plans the domain's part of the request.
func (p ModelPlanner) Plan(ctx context.Context, in stage.PlanInput) (stage.Plan, error) {
	stageName := "plan_" + string(p.Domain)
	off, offErr := p.Offline.Plan(ctx, in)
	// A question ("which Sarah?") comes from the user's own data: the
	// offline planner asks it better than a model guesses.
	if offErr == nil && (off.Question != nil || simplePlan(off.Actions)) {
		skip(ctx, stageName, skipSimple)
		return off, nil
	}
	kinds := domainKinds[p.Domain]
	if len(kinds) == 0 {
		return off, offErr
	}
	pr, err := planPrompt(p.Models, p.Domain, kinds, in)
	if err != nil {
		skip(ctx, stageName, "over_budget")
		return off, offErr
	}
	pr.stage = stageName
	resp, err := p.Models.ask(ctx, pr)
	if err != nil {
		return off, offErr
	}
	plan, err := decodePlan(resp.JSON, kinds, in)
	if err != nil {
		p.Models.log().InfoContext(ctx, "model plan rejected; using the offline plan", "stage", stageName, "error", err)
		if u := MeterOf(ctx); u != nil {
			u.mu.Lock()
			if n := len(u.calls); n > 0 {
				u.calls[n-1].Error = "invalid_plan"
			}
			u.mu.Unlock()
		}
		return off, offErr
	}
	if len(plan.Actions) == 0 && (len(off.Actions) > 0 || off.Question != nil) {
		return off, offErr
	}
	if plan.Understood == "" {
		plan.Understood = off.Understood
	}
	if len(plan.Actions) == 0 {
		return plan, fmt.Errorf("plan %s: %w: the model found nothing to do", p.Domain, stage.ErrNeedDetails)
	}
	plan.Actions = append(addressesKept(off.Actions, plan.Actions), plan.Actions...)
	return plan, nil
}

// addressesKept are the offline plan's memories of an address (one the
// user's contacts gave) that the model's emails still go to: the model
// plans emails only, and the address is remembered all the same.
func addressesKept(offline, model []action.Action) []action.Action {
	mailed := map[string]bool{}
	for _, a := range model {
		if e, err := action.Decode[action.EmailArgs](a); err == nil && (a.Kind == action.EmailSend || a.Kind == action.EmailDraft) {
			for _, addr := range e.Addresses() {
				mailed[addr] = true
			}
		}
	}
	var out []action.Action
	for _, a := range offline {
		if a.Kind != action.MemoryStore {
			continue
		}
		if m, err := action.Decode[action.MemoryStoreArgs](a); err == nil && m.Attribute == hearth.AttrEmail && mailed[strings.ToLower(strings.TrimSpace(m.Value))] {
			out = append(out, a)
		}
	}
	return out
}

// simplePlan is a fully specified simple request the offline planner got
// whole: tasks with a time, memories, notes.
func simplePlan(acts []action.Action) bool {
	if len(acts) == 0 {
		return false
	}
	for _, a := range acts {
		switch a.Kind {
		case action.NoteCreate, action.NoteAppend, action.NoteCheck, action.NoteRemove, action.NoteRename:
		case action.ReminderUpdate, action.ReminderCancel:
			// A recurring reminder the user named, its new rule read by
			// the grammar that made it; models get no reminder kinds.
		case action.EmailDiscard:
			// A draft the user named, found among their drafts; models
			// get no discard kind.
		case action.EmailSend:
			// A saved draft the user named, sent as it is; a new email
			// is the model's to write.
			if e, err := action.Decode[action.EmailArgs](a); err != nil || e.DraftID == 0 {
				return false
			}
		case action.MemoryStore:
			// A fact about someone the offline reader could not take
			// apart ("Emma has been into dinosaurs since her birthday")
			// goes to the model, which extracts its entity, attribute and
			// validity to the same typed schema; the offline plan stays
			// the fallback.
			m, err := action.Decode[action.MemoryStoreArgs](a)
			if err != nil || m.Entity == nil && m.About != "" && m.Relationship == nil {
				return false
			}
		case action.TaskCreate:
			t, err := action.Decode[action.TaskCreateArgs](a)
			if err != nil || t.Title == "" || t.Due.IsZero() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// decodePlan turns the model's answer into validated actions. Anything
// wrong rejects the whole plan: kinds outside the domain, payloads that
// fail their schema, ids or email addresses the context does not hold.
func decodePlan(raw json.RawMessage, kinds []action.Kind, in stage.PlanInput) (stage.Plan, error) {
	var got struct {
		Understood string `json:"understood"`
		Actions    []struct {
			Kind    action.Kind `json:"kind"`
			Payload string      `json:"payload"`
		} `json:"actions"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		return stage.Plan{}, fmt.Errorf("plan answer: %w", err)
	}
	plan := stage.Plan{Understood: strings.TrimSpace(got.Understood), Model: true}
	for i, a := range got.Actions {
		if !slices.Contains(kinds, a.Kind) {
			return stage.Plan{}, fmt.Errorf("action %d: kind %q is not this domain's", i, a.Kind)
		}
		act := action.Action{Kind: a.Kind, Payload: json.RawMessage(a.Payload)}
		if err := act.Validate(); err != nil {
			return stage.Plan{}, fmt.Errorf("action %d: %w", i, err)
		}
		if err := grounded(act, in); err != nil {
			return stage.Plan{}, fmt.Errorf("action %d: %w", i, err)
		}
		act, err := relabel(act, in.Context)
		if err != nil {
			return stage.Plan{}, fmt.Errorf("action %d: %w", i, err)
		}
		plan.Actions = append(plan.Actions, act)
	}
	return plan, nil
}

// grounded checks that an action refers only to what the user or the
// context named: the ids of items shown, and email addresses (recipients,
// attendees) written by the user or known from their memories. Quoted data (an email body, an
// event description) does not count: text found only there is refused,
// so an injected address can never be a recipient.
func grounded(a action.Action, in stage.PlanInput) error {
	var p struct {
		ID        int64    `json:"id"`
		To        []string `json:"to"`
		Attendees []string `json:"attendees"`
		Update    struct {
			Attendees []string `json:"attendees"`
		} `json:"update"`
	}
	json.Unmarshal(a.Payload, &p) //nolint:errcheck // validated already
	if p.ID != 0 && !knownID(a.Kind, p.ID, in.Context) {
		return fmt.Errorf("%s: id %d is not in the context", a.Kind, p.ID)
	}
	if e, err := action.Decode[action.EmailArgs](a); err == nil && (a.Kind == action.EmailSend || a.Kind == action.EmailDraft) && e.DraftID != 0 {
		// A saved draft is sent when the user names it (the offline
		// planner), never because a model chose one.
		return fmt.Errorf("%s: a saved draft the user did not name", a.Kind)
	}
	if a.Kind == action.MemoryStore {
		// Coordinates only as the user wrote them, never a model's guess.
		m, err := action.Decode[action.MemoryStoreArgs](a)
		if err == nil && m.Place != nil && !strings.Contains(in.Text, strconv.FormatFloat(m.Place.Lat, 'f', -1, 64)) {
			return fmt.Errorf("%s: coordinates the user did not give", a.Kind)
		}
	}
	trusted := strings.ToLower(in.Text)
	for _, m := range in.Context.Memories {
		trusted += "\n" + strings.ToLower(m.Content)
	}
	// The address book's entries for a name the user wrote: the user's
	// own contacts, looked up by that name.
	for _, es := range in.Context.Contacts {
		for _, e := range es {
			trusted += "\n" + strings.ToLower(e.Email)
		}
	}
	// Invitations reach people too: attendees are held to the same rule.
	for _, to := range slices.Concat(p.To, p.Attendees, p.Update.Attendees) {
		// "Sarah <sarah@example.com>": the address is what must be known.
		if a, err := mail.ParseAddress(to); err == nil {
			to = a.Address
		}
		// Whole words only: "ann@x.com" written must not admit "ann@x.co".
		if to = strings.ToLower(strings.TrimSpace(to)); to == "" || !words.ContainsWord(trusted, to) {
			return fmt.Errorf("%s: recipient %q is not one the user named", a.Kind, to)
		}
	}
	return nil
}

// noteRelabeled returns a with the title in its payload (ref points at
// it, and gives the note's id) set to that note's own title in notes.
func noteRelabeled[T any](a action.Action, notes []hearth.Note, ref func(*T) (id int64, title *string)) (action.Action, error) {
	p, err := action.Decode[T](a)
	if err != nil {
		return a, err
	}
	id, title := ref(&p)
	if i := slices.IndexFunc(notes, func(n hearth.Note) bool { return n.ID == id }); i >= 0 {
		*title = notes[i].Title
	}
	return action.New(a.Kind, p)
}

// relabel names the item an action refers to by the record's own title or
// content. The reply and the approval prompt ("Shall I cancel “X”?") show
// the payload's label, and a model could name one item while pointing at
// another: the user must approve what will actually happen.
func relabel(a action.Action, c stage.Context) (action.Action, error) {
	switch a.Kind {
	case action.TaskComplete, action.TaskDelete:
		p, err := action.Decode[action.TaskRefArgs](a)
		if err != nil {
			return a, err
		}
		if i := slices.IndexFunc(c.Tasks, func(t hearth.Task) bool { return t.ID == p.ID }); i >= 0 {
			p.Title = c.Tasks[i].Title
		}
		return action.New(a.Kind, p)
	case action.CalendarDelete:
		p, err := action.Decode[action.EventRefArgs](a)
		if err != nil {
			return a, err
		}
		if i := slices.IndexFunc(c.Events, func(e hearth.CalendarEvent) bool { return e.ID == p.ID }); i >= 0 {
			p.Title = c.Events[i].Title
		}
		return action.New(a.Kind, p)
	case action.CalendarUpdate:
		// Whether others see the event's notes change decides whether it
		// is asked about first: the context says, never the model; an
		// event it does not hold counts as shared.
		p, err := action.Decode[action.EventUpdateArgs](a)
		if err != nil {
			return a, err
		}
		p.Shared = true
		if i := slices.IndexFunc(c.Events, func(e hearth.CalendarEvent) bool { return e.ID == p.ID }); i >= 0 {
			p.Title, p.Shared = c.Events[i].Title, len(c.Events[i].Attendees) > 0
		}
		return action.New(a.Kind, p)
	case action.NoteCheck:
		return noteRelabeled(a, c.Notes, func(p *action.NoteCheckArgs) (int64, *string) { return p.ID, &p.Title })
	case action.NoteRemove:
		return noteRelabeled(a, c.Notes, func(p *action.NoteRemoveArgs) (int64, *string) { return p.ID, &p.Title })
	case action.NoteDelete:
		// Whether the list is the family's decides whether deleting it is
		// asked about first: the context says, never the model; a note it
		// does not hold counts as the family's.
		p, err := action.Decode[action.NoteRefArgs](a)
		if err != nil {
			return a, err
		}
		p.Family = true
		if i := slices.IndexFunc(c.Notes, func(n hearth.Note) bool { return n.ID == p.ID }); i >= 0 {
			p.Title, p.Family = c.Notes[i].Title, c.Notes[i].Family
		}
		return action.New(a.Kind, p)
	case action.MemoryStore:
		// A relationship a model reads is inferred: a candidate the user
		// confirms, never confirmed by the model's say-so.
		p, err := action.Decode[action.MemoryStoreArgs](a)
		if err != nil || p.Relationship == nil || !p.Relationship.Confirmed {
			return a, err
		}
		p.Relationship.Confirmed = false
		return action.New(a.Kind, p)
	case action.MemoryForget:
		p, err := action.Decode[action.MemoryRefArgs](a)
		if err != nil {
			return a, err
		}
		if i := slices.IndexFunc(c.Memories, func(m hearth.Memory) bool { return m.ID == p.ID }); i >= 0 {
			p.Content = c.Memories[i].Content
		}
		return action.New(a.Kind, p)
	}
	return a, nil
}

func knownID(k action.Kind, id int64, c stage.Context) bool {
	switch strings.SplitN(string(k), ".", 2)[0] {
	case "task":
		return slices.ContainsFunc(c.Tasks, func(t hearth.Task) bool { return t.ID == id })
	case "calendar":
		return slices.ContainsFunc(c.Events, func(e hearth.CalendarEvent) bool { return e.ID == id })
	case "memory":
		return slices.ContainsFunc(c.Memories, func(m hearth.Memory) bool { return m.ID == id })
	case "note":
		return slices.ContainsFunc(c.Notes, func(n hearth.Note) bool { return n.ID == id })
	}
	return false
}

func planPrompt(m *Models, d nlu.Domain, kinds []action.Kind, in stage.PlanInput) (prompt, error) {
	type kindDoc struct {
		Kind   action.Kind
		Schema string
	}
	var docs []kindDoc
	for _, k := range kinds {
		s, err := action.Schema(k)
		if err != nil {
			return prompt{}, err
		}
		b, err := json.Marshal(s)
		if err != nil {
			return prompt{}, fmt.Errorf("schema of %s: %w", k, err)
		}
		docs = append(docs, kindDoc{Kind: k, Schema: string(b)})
	}
	// The domain's rules may use the user's mail style (plan_email).
	rules, err := render("plan_"+string(d)+".tmpl", in.Context.Style)
	if err != nil {
		return prompt{}, err
	}
	system, err := render("plan.tmpl", map[string]any{
		"Domain": d, "Now": in.Context.Now.Format(time.RFC3339 + " Monday"), "Zone": stage.UserZone(in.Context).String(),
		"Kinds": docs, "DataRule": llm.DataRule, "DomainRules": rules,
	})
	if err != nil {
		return prompt{}, err
	}
	msg := "The user's message: " + in.Text
	budget := m.Budgets.planOf(d)
	fixed := EstimateTokens(system) + EstimateTokens(msg) + 8
	if fixed > budget {
		return prompt{}, errOverBudget
	}
	items := append(recentItems(in.Context), contextItems(in.Context, d)...)
	kept, dropped, total := fit(budget, fixed, items)
	user := msg
	if len(kept) > 0 {
		user = "Context:\n" + strings.Join(kept, "\n") + "\n\n" + msg
	}
	return prompt{tokens: total, budget: budget, dropped: dropped, req: llm.Request{
		Messages:  []llm.Message{{Role: llm.RoleSystem, Text: system}, {Role: llm.RoleUser, Text: user}},
		Schema:    planSchema(kinds),
		MaxTokens: 400,
	}}, nil
}

// recentItems are the last messages before this one, newest first (the
// highest priority), each quoted: a bot message may repeat quoted data.
func recentItems(c stage.Context) []string {
	var out []string
	for i := len(c.Recent) - 1; i >= 0 && len(out) < intentTurns; i-- {
		m := c.Recent[i]
		out = append(out, llm.Quote("earlier message from "+string(m.From), m.Text))
	}
	if len(out) > 0 {
		// The last transcript line is usually this very message.
		out = out[1:]
	}
	return out
}

// contextItems renders what the context stage gathered, most relevant to
// domain d first. Everything that may come from outside the user's own
// words (titles, descriptions, bodies, notes) goes through llm.Quote.
func contextItems(c stage.Context, d nlu.Domain) []string {
	var tasks, events, memories, notes, drafts []string
	for _, t := range c.Tasks {
		label := fmt.Sprintf("task id=%d", t.ID)
		if !t.Due.IsZero() {
			label += " due=" + t.Due.In(stage.UserZone(c)).Format(time.RFC3339)
		}
		tasks = append(tasks, llm.Quote(label, joinNonEmpty(t.Title, t.Notes)))
	}
	for _, e := range c.Events {
		label := fmt.Sprintf("event id=%d start=%s end=%s", e.ID, e.Start.In(stage.UserZone(c)).Format(time.RFC3339), e.End.In(stage.UserZone(c)).Format(time.RFC3339))
		events = append(events, llm.Quote(label, joinNonEmpty(e.Title, e.Location, e.Description)))
	}
	for _, m := range c.Memories {
		memories = append(memories, llm.Quote(fmt.Sprintf("memory id=%d about=%s", m.ID, m.About), m.Content))
	}
	for _, n := range c.Notes {
		var items []string
		for _, it := range n.Items {
			if it.Done {
				items = append(items, it.Text+" (ticked off)")
			} else {
				items = append(items, it.Text)
			}
		}
		label := fmt.Sprintf("note id=%d", n.ID)
		if n.Family {
			label += " family"
		}
		notes = append(notes, llm.Quote(label, joinNonEmpty(n.Title, n.Body, strings.Join(items, ", "))))
	}
	for _, e := range c.Drafts {
		drafts = append(drafts, llm.Quote(fmt.Sprintf("email id=%d to=%s", e.ID, strings.Join(e.To, ",")), joinNonEmpty(e.Subject, e.Body)))
	}
	// The memory graph around the people named: what Hearth was told, and
	// notes that may quote anything, so quoted too.
	graph := graphItems(c)
	// Address book entries are the user's data, not their words: quoted.
	for _, name := range slices.Sorted(maps.Keys(c.Contacts)) {
		for _, e := range c.Contacts[name] {
			memories = append(memories, llm.Quote("contact for "+strconv.Quote(name), e.Name+" <"+e.Email+">"))
		}
	}
	order := map[nlu.Domain][][]string{
		nlu.Task:     {tasks, events, memories, graph, notes, drafts},
		nlu.Calendar: {events, tasks, memories, graph, notes, drafts},
		nlu.Memory:   {memories, graph, tasks, events, notes, drafts},
		nlu.Email:    {memories, graph, drafts, events, tasks, notes},
		nlu.Keep:     {notes, memories, graph, tasks, events, drafts},
	}[d]
	if order == nil {
		order = [][]string{memories, graph, events, tasks, notes, drafts}
	}
	var out []string
	for _, group := range order {
		out = append(out, group...)
	}
	return out
}

// graphItems renders the context's relationships (names, relation and
// label, the scale words, description, state) and graph notes, each as
// quoted data.
func graphItems(c stage.Context) []string {
	var out []string
	seen := map[int64]bool{}
	for _, r := range slices.Concat(c.Relationships, c.Related) {
		if seen[r.ID] {
			continue
		}
		seen[r.ID] = true
		label := fmt.Sprintf("relationship id=%d %s", r.ID, r.State)
		text := r.FromName + " " + r.Scale().Relation + " " + r.ToName
		if r.Label != "" {
			text += " (" + r.Label + ")"
		}
		text += "; attitude: " + r.AttitudeWord() + "; proximity: " + r.ProximityWord()
		var notes []string
		for _, n := range r.Notes {
			notes = append(notes, n.Body)
		}
		out = append(out, llm.Quote(label, joinNonEmpty(text, r.Description, strings.Join(notes, "\n"))))
	}
	for _, n := range slices.Concat(c.GraphNotes, c.RelatedNotes) {
		label := fmt.Sprintf("note on %s", n.About)
		if !n.ExpiresAt.IsZero() {
			label += " until " + n.ExpiresAt.In(stage.UserZone(c)).Format(time.DateOnly)
		}
		out = append(out, llm.Quote(label, n.Body))
	}
	return out
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n")
}
