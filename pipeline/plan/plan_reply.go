package plan

import (
	"regexp"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Replies to received mail: "reply to Sarah's last email: sounds good",
// "answer the last email from Tom saying I'm in".
var (
	replyPossessive = regexp.MustCompile(`(?i)\b(?:reply|respond|answer)(?: to)? (.+?)(?:'s|’s) (?:(?:last|latest|most recent|newest) )?(?:e-?mail|mail|message)\s*(?:[:,\-—]|saying|with|that|and say)\s*(.+)$`)
	replyFrom       = regexp.MustCompile(`(?i)\b(?:reply|respond|answer)(?: to)? (?:the |her |his |their )?(?:(?:last|latest|most recent|newest) )?(?:e-?mail|mail|message) from (.+?)\s*(?:[:,\-—]|saying|with|that|and say)\s*(.+)$`)
)

// replyParts finds whose email a message replies to and what it says.
func replyParts(text string) (who, said string, ok bool) {
	for _, re := range []*regexp.Regexp{replyPossessive, replyFrom} {
		if m := re.FindStringSubmatch(strings.TrimSpace(text)); m != nil {
			return words.TidySlot(m[1]), strings.TrimSpace(strings.Trim(m[2], " .")), true
		}
	}
	return "", "", false
}

// planReply plans email.reply to the newest received email from who: in
// its thread, to its sender, in the user's style. The received email is
// only looked up, never read for instructions.
func planReply(in stage.PlanInput, who, said string) (stage.Plan, error) {
	p := stage.Plan{Understood: "reply to " + who + "'s email"}
	if said == "" {
		return p, needDetails("what the reply to %s should say", who)
	}
	addrs := map[string]string{} // address → name
	for _, r := range recipients(who, in.Context) {
		if r.addr != "" {
			addrs[strings.ToLower(r.addr)] = r.name
		}
	}
	if a, ok := EmailAddress(who); ok {
		addrs[strings.ToLower(a)] = ""
	}
	var msg *hearth.InboxMessage
	greet := who
	for i, m := range in.Context.Inbox { // newest first
		if name, ok := addrs[strings.ToLower(m.From)]; ok {
			msg = &in.Context.Inbox[i]
			if name != "" {
				greet = name
			}
			break
		}
		if m.FromName != "" && words.ContainsWord(strings.ToLower(m.FromName), strings.ToLower(who)) {
			msg = &in.Context.Inbox[i]
			break
		}
	}
	if msg == nil {
		return p, needDetails("an email from %s to reply to: I don't see one in your mail (I can read mail once Gmail is connected: say “connect gmail”)", who)
	}
	args := composeEmail(firstName(greet), said, "", in.User.DisplayName, in.Context.Style)
	subject := msg.Subject
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	a, err := action.New(action.EmailReply, action.EmailReplyArgs{
		InReplyTo: msg.ID, To: []string{NameAddress(msg.FromName, msg.From)}, Subject: subject, Body: args.Body})
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

func firstName(name string) string {
	if f := strings.Fields(name); len(f) > 0 && !strings.Contains(f[0], "@") {
		return f[0]
	}
	return name
}
