package respond

import (
	"strings"

	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// canDo is the one line that says what Hearth can do, ending every
// out-of-scope reply.
const canDo = "I can keep your tasks, calendar, notes and lists, email drafts and reminders, and remember things for you."

// outOfScope is one kind of request Hearth cannot carry out: the words
// that reveal it and how the reply names it.
type outOfScope struct {
	cues []string
	what string // "look up directions"
}

// outOfScopeKinds are checked in order; the first whose cue the message
// contains names what Hearth cannot do.
var outOfScopeKinds = []outOfScope{
	{[]string{"directions", "route", "navigate", "traffic", "drive to", "get to", "way to", "nearest", "closest", "near me", "nearby", "map"}, "look up directions or places"},
	{[]string{"weather", "forecast", "rain", "snow", "temperature", "umbrella", "sunny", "sunset", "sunrise"}, "check the weather"},
	{[]string{"play", "song", "music", "playlist", "album", "podcast", "spotify", "volume", "radio"}, "play music or media"},
	{[]string{"recipe", "cook", "bake", "roast", "boil", "grill", "calories", "substitute"}, "look up recipes"},
	{[]string{"code", "python", "javascript", "sql", "regex", "function", "bug", "error", "git", "script", "program"}, "help with code"},
	{[]string{"balance", "bank", "transfer", "deposit", "credit card", "debit card", "card", "venmo", "paycheck", "credit score", "account", "mortgage", "loan"}, "get into bank accounts or move money"},
	{[]string{"stock", "stocks", "bitcoin", "market", "price of", "exchange rate", "invest"}, "look up prices or markets"},
	{[]string{"order", "buy", "purchase", "amazon", "package", "delivery", "return", "shipment", "subscription"}, "shop, order or track packages"},
	{[]string{"flight", "flights", "hotel", "train", "ticket", "tickets", "uber", "lyft", "taxi", "cab", "ride", "table for", "reserve", "reservation", "rental car"}, "book travel, rides or tables"},
	{[]string{"on tv", "on telly", "on television", "on netflix", "tv guide", "tv listings"}, "look up what's on TV"},
	{[]string{"lights", "light", "thermostat", "heat", "lock", "unlock", "door", "oven", "fan", "tv", "vacuum", "sprinklers"}, "control devices in your home"},
	{[]string{"call", "text", "facetime", "whatsapp", "slack", "message", "phone", "dm"}, "make calls or send texts"},
	{[]string{"translate", "how do you say", "in spanish", "in french", "in german", "in italian", "in japanese"}, "translate"},
	{[]string{"news", "headlines", "score", "game", "won", "election"}, "look up news or scores"},
}

// outOfScopeReply answers a request Hearth cannot carry out: honestly,
// with what it can do instead. Nothing was stored.
func (r *TemplateResponder) outOfScopeReply(in stage.RespondInput) string {
	lc := words.ASCIILower(in.Text)
	for _, k := range outOfScopeKinds {
		if hasCue(lc, k.cues...) {
			return "I can't " + k.what + ". " + canDo
		}
	}
	if strings.HasSuffix(strings.TrimSpace(lc), "?") || hasCue(lc, "who", "what", "when", "where", "why", "how", "which", "tell me about", "define", "explain") {
		return r.variant(in.Text, "knowledge",
			"I can't look that up offline. "+canDo,
			"That's outside what I can check offline, sorry! "+canDo)
	}
	return r.variant(in.Text, "outofscope",
		"That's not something I can do. "+canDo,
		"Sorry, I can't help with that one. "+canDo)
}

// englishOnly is the one line for a message in another language.
const englishOnly = "Sorry — I only understand English for now. Could you say that in English?"
