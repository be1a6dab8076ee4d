package nlu

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
	"github.com/hearthbot/hearth/pipeline/nlu/internal/linear"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

//go:embed data/model.txt
var modelText string

// Classifier classifies messages. It is immutable after New and safe for
// concurrent use.
type Classifier struct {
	model *linear.Model
	// intentIdx maps the model's intent outputs to Intents.
	intents []Intent
	domains []Domain
	// chat and oos are the outputs of Chat and of the abstain class (oos
	// is -1 for a model without one).
	chat, oos int
}

// New loads the embedded model. It fails only if the embedded model file
// is corrupt, which the package tests rule out for a released build.
func New() (*Classifier, error) {
	m, err := linear.Read(strings.NewReader(modelText))
	if err != nil {
		return nil, fmt.Errorf("nlu: load model: %w", err)
	}
	c := &Classifier{model: m, oos: -1}
	for i, s := range m.Intents {
		switch Intent(s) {
		case outOfScope:
			c.oos = i
		case Chat:
			c.chat = i
		}
		if !slices.Contains(Intents, Intent(s)) && Intent(s) != outOfScope {
			return nil, fmt.Errorf("nlu: load model: unknown intent %q", s)
		}
		c.intents = append(c.intents, Intent(s))
	}
	for _, s := range m.Domains {
		if !slices.Contains(Domains, Domain(s)) {
			return nil, fmt.Errorf("nlu: load model: unknown domain %q", s)
		}
		c.domains = append(c.domains, Domain(s))
	}
	return c, nil
}

// scores is the model's view of one message.
type scores struct {
	intent []float64 // probabilities, in c.intents order
	domain []float64 // independent probabilities, in c.domains order
}

// score runs the linear model on the tokens of a message.
func (c *Classifier) score(tokens []string, question bool) scores {
	m := c.model
	var buf [16]float64
	logits := buf[:m.Outputs()]
	copy(logits, m.Bias)
	features.Each(tokens, question, func(f []byte) { m.Add(logits, f) })
	ni := len(c.intents)
	s := scores{intent: logits[:ni:ni], domain: logits[ni:]}
	linear.Softmax(s.intent, m.Temperature)
	for i, x := range s.domain {
		s.domain[i] = linear.Sigmoid(x)
	}
	return s
}

// Classify understands one message. recent holds the last few turns of the
// conversation, oldest first, not including text (empty, not nil, for a
// conversation's first message); ref is the current instant in the user's
// time zone, for the date slot.
//
// The previous bot turn decides short answers: after a question or a turn
// with options, "yes", "2" or "the first one" are Followup; after a bot
// turn that asked nothing, or in a new conversation, they are Chat. With
// recent nil the context is unknown (labelled data without it) and an
// answer-like message is taken as Followup, since it only makes sense as
// a reply.
func (c *Classifier) Classify(text string, recent []Turn, ref time.Time) Result {
	var tokBuf [features.MaxTokens]string
	tokens, question := features.Tokens(tokBuf[:0], text)
	if len(tokens) == 0 {
		return Result{Intent: Chat, Domains: []Domain{}, Confidence: 0.5}
	}
	if OtherLanguage(text) {
		// Hearth understands English for now: the reply says so, and
		// nothing is planned from words it cannot read.
		return Result{Intent: Chat, Domains: []Domain{}, Confidence: 0.95}
	}
	s := c.score(tokens, question)
	var pOOS float64 // the abstain class's own share, before abstain folds it into Chat
	if c.oos >= 0 {
		pOOS = s.intent[c.oos]
	}
	oos := c.abstain(s.intent)
	best := argmax(s.intent)
	res := Result{Intent: c.intents[best], Confidence: s.intent[best], OutOfScope: oos && c.intents[best] == Chat}

	ctx := lastBotTurn(recent)
	ans := answerKind(tokens)
	if ctx.known && !ctx.open && len(recent) > 0 && recent[len(recent)-1].FromBot && pointsBack(tokens) {
		// "cancel it", "mark that done", "move it to 11" after a reply
		// about an item: a followup that changes that item, not small
		// talk. RequiresAction makes the runner plan it as a request.
		res.Intent, res.Confidence, res.OutOfScope, ans = Followup, max(res.Confidence, 0.9), false, notAnswer
		res.Domains = []Domain{Task}
		res.RequiresAction = true
		res.Slots = extractSlots(text, tokens, res, ctx, ref)
		return res
	}
	if n := len(recent); ctx.known && !ctx.open && !question && ans == notAnswer && n >= 2 && recent[n-1].FromBot && !recent[n-2].FromBot && OnlyTime(text, ref) {
		// A time alone right after a reply: after a request ("remind me
		// to call mom", "I have a haircut Friday"), when that item is —
		// the planners read which; after a question ("what's on
		// today?"), the same question for then.
		res.Confidence, res.OutOfScope, ans = max(res.Confidence, 0.9), false, notAnswer
		if prev := c.Classify(recent[n-2].Text, nil, ref); prev.Intent == RequestAction {
			res.Intent, res.Domains, res.RequiresAction = Followup, []Domain{Task}, true
		} else {
			res.Intent, res.Domains, res.RequiresAction = AskInfo, []Domain{Calendar, Task}, false
		}
		res.Slots = extractSlots(text, tokens, res, ctx, ref)
		return res
	}
	if ctx.known && len(recent) > 0 && recent[len(recent)-1].FromBot && addsMore(tokens) && res.Intent == RequestAction {
		// "also add rye bread and lemons" after Hearth added to a list or
		// made a task: more of the same, a followup that acts. The
		// domains are the classifier's (a list, tasks).
		res.Intent, res.RequiresAction = Followup, true
		res.Domains = c.pickDomains(RequestAction, c.clauseDomains(text, s.domain))
		if len(recent) >= 2 && !recent[len(recent)-2].FromBot {
			// "add sponges as well" goes where the request it continues
			// went, whatever its own few words suggest.
			if prev := c.Classify(recent[len(recent)-2].Text, nil, ref); (prev.Intent == RequestAction || prev.Intent == AskInfo) && len(prev.Domains) > 0 {
				res.Domains = prev.Domains
			}
		}
		if aboutList(recent[len(recent)-1].Text) {
			// "Add socks to it" after "… to your packing list": the list.
			res.Domains = []Domain{Keep}
		}
		res.Slots = extractSlots(text, tokens, res, ctx, ref)
		return res
	}
	if n := len(recent); !question && ctx.known && n >= 2 && recent[n-1].FromBot && moreOf(tokens) && c.listRequestBefore(recent, ref) {
		// "And bread" after "put eggs on the shopping list" (or after
		// "what's on the shopping list?"): more for the same list.
		res.Intent, res.Domains, res.RequiresAction, res.OutOfScope = Followup, []Domain{Keep}, true, false
		res.Confidence = max(res.Confidence, 0.9)
		res.Slots = extractSlots(text, tokens, res, ctx, ref)
		return res
	}
	switch {
	case ctx.open && (ans != notAnswer || res.Intent == Followup):
		res.Intent, res.Confidence = Followup, max(res.Confidence, 0.95)
		if ans == notAnswer && res.Confidence < 0.95 {
			res.Confidence = 0.9
		}
	case ctx.open && len(ctx.options) > 0 && pickByText(tokens, ctx.options) > 0:
		res.Intent, res.Confidence = Followup, 0.9
	case !ctx.known && ans != notAnswer && res.Intent != RequestAction:
		// Unknown context: a bare "ok" or "the second one" only makes
		// sense as a reply.
		res.Intent, res.Confidence = Followup, max(res.Confidence, 0.9)
	case ctx.known && !ctx.open && (res.Intent == Followup || ans != notAnswer && res.Intent != RequestAction):
		// The same words with nothing to answer are small talk.
		res.Intent, res.Confidence = Chat, 0.9
	}
	res.Domains = c.pickDomains(res.Intent, c.clauseDomains(text, s.domain))
	if (res.Intent == Chat || res.Intent == DiscussWork || res.Intent == AskInfo && (slices.Equal(res.Domains, []Domain{Memory}) || slices.Equal(res.Domains, []Domain{Calendar}))) && question && dueQuestion(tokens) {
		// "What's due this month?", "what's due in January?": a question
		// about the tasks, whatever span it names; the model has seen
		// only some spans ("what's due on the 15th?" it took for the
		// calendar). "What's due this week?" asks what is due, not for
		// help with a week's load.
		res.Intent, res.Domains, res.Confidence = AskInfo, []Domain{Task}, max(res.Confidence, 0.8)
	}
	if d, ok := askedForAll(tokens, question); ok && (res.Intent == AskInfo || res.Intent == Chat || res.Intent == Followup) {
		// "Show me my lists", "what drafts do I have?": the user's notes
		// or drafts, whatever else the model heard in "show me".
		res.Intent, res.Domains, res.Confidence = AskInfo, []Domain{d}, max(res.Confidence, 0.8)
	}
	if doneQuestion(tokens) && (res.Intent == Chat || res.Intent == AskInfo) {
		// "What did I get done yesterday?" asks the tasks completed.
		res.Intent, res.Domains, res.Confidence = AskInfo, []Domain{Task}, max(res.Confidence, 0.8)
	}
	if question && res.Intent != RequestAction && (slices.Contains(tokens, "allergic") || slices.Contains(tokens, "allergies") || slices.Contains(tokens, "allergy")) {
		// "Am I allergic to anything?" asks what was told, not whether
		// the calendar is free ("am I …").
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = AskInfo, []Domain{Memory}, max(res.Confidence, 0.8), false
	}
	if !question && res.Intent != RequestAction && runOut(tokens) {
		// "We're out of coffee": for the shopping list (the planner
		// asks before adding).
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Keep}, max(res.Confidence, 0.8), false
	}
	if !question && visitComing(tokens) && len(timex.Find(text, ref, timex.Options{})) > 0 {
		// "The plumber is coming Tuesday between 8 and 12": a visit for
		// the calendar, not a fact to keep.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Calendar}, max(res.Confidence, 0.8), false
	}
	if !question && res.Intent == RequestAction && awayUntil(tokens) {
		// "We're out of the house until 6": news, not a task to make.
		res.Intent, res.Domains, res.RequiresAction = Chat, []Domain{}, false
	}
	if !question && res.Intent == RequestAction && slices.Equal(res.Domains, []Domain{Task}) && pastNews(tokens) {
		// "I painted the fence": news of something done, not a task to
		// make (the task it completes, if any, is found with the user's
		// tasks).
		res.Intent, res.Domains = Chat, []Domain{}
	}
	if !question && res.Intent != RequestAction && ageTold(tokens, text) {
		// "Mia is 7 years old": a fact to keep, not something Hearth
		// cannot do.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Memory}, max(res.Confidence, 0.8), false
	}
	if !question && res.Intent != RequestAction && (aboutMe(tokens) || aboutSomeone(tokens) || roleTold(tokens, text)) {
		// "My favorite color is green", "I'm allergic to peanuts", "Tom's
		// favourite colour is blue": told to be known, as "my shoe size
		// is 42" is.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Memory}, max(res.Confidence, 0.8), false
	}
	if !question && res.Intent != RequestAction && likesSomething(tokens, text) {
		// "Tom loves jazz": to be known, as "my favorite color is green"
		// is (and what to give Tom comes from it).
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Memory}, max(res.Confidence, 0.8), false
	}
	if !question && res.Intent != RequestAction && startsList(tokens) {
		// "Start a packing list": a list of one's own, empty for now.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Keep}, max(res.Confidence, 0.8), false
	}
	if !question && (res.Intent == Chat || res.Intent == Followup) && emailSomeone(tokens) {
		// "Email Sam": a request to write to Sam, what it says asked next.
		res.Intent, res.Domains, res.Confidence = RequestAction, []Domain{Email}, max(res.Confidence, 0.8)
	}
	if !question && (movesBy(tokens) || lengthChanged(text) || unticks(tokens) && res.Intent != RequestAction) {
		// "Push the dentist back an hour", "make it 2 hours long", "untick
		// the report": a task or an event changed (the task planner hands
		// an event over), however the model heard the words.
		if res.Intent != RequestAction || !slices.Contains(res.Domains, Task) && !slices.Contains(res.Domains, Calendar) || tokens[0] == "snooze" {
			res.Domains = []Domain{Task} // a snooze is a reminder's
		}
		res.Intent, res.Confidence, res.OutOfScope = RequestAction, max(res.Confidence, 0.8), false
	}
	if !question && res.Intent == Chat && errand(tokens, 0) && len(tokens) > 1 && (beforeBirthday(tokens) || len(timex.Find(text, ref, timex.Options{})) > 0) {
		// "Buy milk tomorrow", "pay rent on Friday", "buy a card before
		// Mum's birthday": the user's own errand with a date, a to-do
		// (see errandVerbs), however much the model heard a purchase
		// Hearth cannot make.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Task}, max(res.Confidence, 0.8), false
	}
	if !question && res.Intent == Chat && writesNote(tokens) {
		// "Write a note: bring snacks on Friday": a note, whatever the
		// model made of what it says.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Keep}, max(res.Confidence, 0.8), false
	}
	if _, _, ok := EventNote(text); ok || eventPlaced(text, ref) {
		// "Add a note to the dentist appointment: …", "lunch is at Luigi's".
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Calendar}, max(res.Confidence, 0.8), false
	}
	_, drafts := ReadDraftRef(text)
	if drafts = drafts && !question; drafts {
		// "Delete that draft", "scrap the email to Sam", "send the draft
		// to Sam": a draft, not a task called "draft", whatever the model
		// made of "delete".
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Email}, max(res.Confidence, 0.8), false
	}
	if !question && clearsDay(tokens) {
		// "Cancel everything on Friday": the day's events (the calendar
		// planner asks before cancelling them), whatever the model made
		// of "everything".
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Calendar}, max(res.Confidence, 0.8), false
	}
	if nextUp(tokens) && res.Intent != RequestAction {
		// "What's next?": the next event or task, whichever comes first.
		res.Intent, res.Domains, res.Confidence = AskInfo, []Domain{Calendar, Task}, max(res.Confidence, 0.8)
	}
	if question && res.Intent != RequestAction && leftQuestion(tokens) && !c.listRequestBefore(recent, ref) {
		// "What's left?": the open tasks (after a list, the model's own
		// reading stands).
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = AskInfo, []Domain{Task}, max(res.Confidence, 0.8), false
	}
	if question && res.Intent != RequestAction && packQuestion(tokens) {
		// "What's left to pack?" asks the packing list.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = AskInfo, []Domain{Keep}, max(res.Confidence, 0.8), false
	}
	if res.Intent != RequestAction && myTime(tokens) {
		// "How's my day looking?", "show me my week": the events and
		// the tasks due then, however the model heard it.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = AskInfo, []Domain{Calendar, Task}, max(res.Confidence, 0.8), false
	}
	if question && res.Intent != RequestAction && agendaOn(tokens) && len(timex.Find(text, ref, timex.Options{})) > 0 {
		// "What's on this week?", "anything on Friday?": the events and
		// the tasks due then, where the model heard a request for help
		// with the week, or the tasks alone.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = AskInfo, []Domain{Calendar, Task}, max(res.Confidence, 0.8), false
	}
	if res.Intent == AskInfo && slices.Equal(res.Domains, []Domain{Calendar}) && agendaQuestion(tokens) {
		// "What do I have tomorrow?", "how does my week look?": the
		// events and the tasks due then.
		res.Domains = append(res.Domains, Task)
	}
	if res.Intent == AskInfo && slices.Equal(res.Domains, []Domain{Task}) && remindOf(tokens) && agendaQuestion(tokens) {
		// "Remind me what I have tomorrow" asks the same.
		res.Domains = []Domain{Calendar, Task}
	}
	if _, _, yearly := birthdaysAsked(tokens, question); yearly || question && (possessionAsked(tokens) || personAsked(tokens) || reHowOld.MatchString(text)) {
		// "What car do I have?", "any birthdays soon?": memory's.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = AskInfo, []Domain{Memory}, max(res.Confidence, 0.8), false
	}
	if res.Intent == RequestAction && slices.Contains(res.Domains, Memory) && birthdayErrand(tokens) {
		// "Remind me the day before Sam's birthday": a reminder dated by
		// the birthday, not a fact about it.
		res.Domains = []Domain{Task}
	}
	if res.Intent == AskInfo && !question && remindRequest(tokens) && !remindOf(tokens) {
		// A bare "remind me" or "remind me tomorrow" asks for a reminder
		// (what about is asked next); "remind me what's on Friday" asks
		// about Friday.
		res.Intent, res.Domains = RequestAction, []Domain{Task}
	}
	if res.Intent == RequestAction && remindRequest(tokens) && slices.Contains(res.Domains, Calendar) && !slices.Contains(res.Domains, Task) {
		// "Remind me about the call with Tomas on Thursday at 3pm" asks
		// for a reminder, which is a task, though it names a call.
		res.Domains = slices.Clone(res.Domains)
		res.Domains[slices.Index(res.Domains, Calendar)] = Task
	}
	if res.Intent == RequestAction && slices.Equal(res.Domains, []Domain{Keep}) && noteLookup(tokens) {
		// "Find my note on the trip" changes nothing: it asks for a note.
		res.Intent = AskInfo
	}
	if !question && res.Intent != AskInfo && (travelStatement(tokens, text) || awayTold(tokens) || tokens[requestHead(tokens)] == "block") && len(timex.Find(text, ref, timex.Options{})) > 0 {
		// "I'm flying to New York on Monday", "block out Friday afternoon
		// for focus time": for the calendar, not a task so called.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = RequestAction, []Domain{Calendar}, max(res.Confidence, 0.8), false
	}
	if res.Intent == AskInfo && !question && slices.Contains(res.Domains, Calendar) && eventStatement(tokens) {
		// "I have a doctor's appointment next Tuesday at 3pm" tells of an
		// event to keep; "Do I have …?" asks about one.
		res.Intent = RequestAction
	}
	if question && res.Intent == AskInfo && onTelly(tokens) {
		// "What's on TV tonight?" asks the television's schedule, which
		// Hearth does not have, not the user's calendar.
		res.Intent, res.Domains, res.OutOfScope, res.Reason = Chat, []Domain{}, true, "the television's schedule"
	}
	if _, ok := FreeFor(text); ok && res.Intent != RequestAction {
		// "Find me an hour on Friday": the calendar's free time.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = AskInfo, []Domain{Calendar}, max(res.Confidence, 0.8), false
	}
	if _, what, ok := EventAsked(text); ok {
		// "Who's coming to Mia's play?", "where's lunch?": an event's (a
		// place or a length may be a thing's), not something Hearth cannot do.
		res.Intent, res.Domains, res.Confidence, res.OutOfScope = AskInfo, askedOf[what], max(res.Confidence, 0.8), false
	}
	if !question && res.Intent == AskInfo && slices.Contains(res.Domains, Calendar) && datedStatement(tokens) {
		// "Mia's school play is on Friday at 6pm": an event told, to
		// keep, not a question about Friday.
		res.Intent, res.Domains = RequestAction, []Domain{Calendar}
	}
	res.OutOfScope = res.OutOfScope && res.Intent == Chat
	res.RequiresAction = res.Intent == RequestAction
	res.Slots = extractSlots(text, tokens, res, ctx, ref)
	if res.Intent == RequestAction && !drafts && !roleTold(tokens, text) && !detailChanged(text, ref) {
		// The capability gate: a request is kept only if it asks for
		// something Hearth can do (capability.go); a draft is Hearth's.
		if ok, why := capable(tokens, question, res.Slots.When != nil || beforeBirthday(tokens), pOOS); !ok {
			res.Intent, res.Domains, res.RequiresAction = Chat, []Domain{}, false
			res.OutOfScope, res.Reason, res.Confidence = true, why, gateConfidence
			res.Slots = extractSlots(text, tokens, res, ctx, ref)
		}
	}
	return res
}

// abstainShare is how much of the probability the abstain class must hold
// for a message the model would otherwise take as a request or a
// question about the user's data to be out of scope instead. It was
// chosen on the project's own held-out rows (testdata/heldout.jsonl):
// lower, and in-scope requests start to be refused (session 5 tried 0.25:
// one out-of-scope request fewer acted on in each of two new sets, but
// "Where is the spare key?", a question to memory, became out of scope).
const abstainShare = 0.3

// abstain folds the abstain class into Chat in p (which then sums over
// the five intents) and reports whether the message is out of scope: the
// abstain class beats Chat and either wins or holds abstainShare.
func (c *Classifier) abstain(p []float64) bool {
	if c.oos < 0 {
		return false
	}
	po, pc := p[c.oos], p[c.chat]
	p[c.chat], p[c.oos] = po+pc, 0
	if po <= pc {
		return false
	}
	best := argmax(p)
	if best == c.chat {
		return true
	}
	if po >= abstainShare {
		// The request or question is likelier than not something
		// Hearth cannot do: answer it as chat.
		p[best], p[c.chat] = p[c.chat], p[best]
		return true
	}
	return false
}

// maxClauses caps how many clauses of a message are scored on their own.
const maxClauses = 4

// clauseDomains returns the domain probabilities of a message that asks
// for several things ("I just closed on my house! Add a celebration
// dinner Saturday"): each clause is scored on its own, and a domain
// counts if the whole message or any request clause makes it likely. A
// request clause always contributes its most likely domain, since it must
// be about something, and the first request clause's domain comes first. For a one-clause message this is just whole.
func (c *Classifier) clauseDomains(text string, whole []float64) []float64 {
	if len(text) > maxSlotBytes {
		text = text[:maxSlotBytes]
	}
	parts := requestClauses(text)
	if len(parts) < 2 {
		return whole
	}
	out := make([]float64, len(whole))
	copy(out, whole)
	var tokBuf [features.MaxTokens]string
	first := -1 // the first request clause's domain leads the list
	for i, p := range parts {
		if i == maxClauses {
			break
		}
		toks, q := features.Tokens(tokBuf[:0], p)
		if len(toks) == 0 {
			continue
		}
		s := c.score(toks, q)
		in := c.intents[argmax(s.intent)]
		if in != RequestAction && in != AskInfo {
			continue
		}
		best := argmax(s.domain)
		if first < 0 {
			first = best
		}
		for j, x := range s.domain {
			if j == best {
				x = max(x, 0.5)
			}
			out[j] = max(out[j], x)
		}
	}
	if first >= 0 {
		// Said first, planned first: "I just closed on my house! Add a
		// dinner Saturday" is a memory, then an event.
		out[first] = slices.Max(out) + 1e-6
	}
	return out
}

// pickDomains keeps the domains the model is at least even odds on, most
// likely first; an intent about the user's data always gets at least its
// most likely domain.
func (c *Classifier) pickDomains(in Intent, p []float64) []Domain {
	out := []Domain{}
	if in == Chat || in == Followup {
		return out
	}
	order := make([]int, len(p))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case p[a] > p[b]:
			return -1
		case p[a] < p[b]:
			return 1
		}
		return 0
	})
	for _, i := range order {
		if p[i] >= 0.5 {
			out = append(out, c.domains[i])
		}
	}
	if len(out) == 0 {
		out = append(out, c.domains[order[0]])
	}
	return out
}

func argmax(p []float64) int {
	best := 0
	for i, x := range p {
		if x > p[best] {
			best = i
		}
	}
	return best
}
