package google

import (
	"context"

	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
)

// OffCommand is what "connect google" (and Gmail, Keep, "google status")
// answers on a Hearth whose operator has not set Google up: a person asking
// to connect deserves to hear why they cannot, not small talk. It is hidden
// from help, which lists only what works here.
func OffCommand() commands.Command {
	return commands.Command{
		Name: "google_off", Hidden: true,
		Help:     "say that Google is not set up on this Hearth",
		Examples: []string{"connect google", "connect gmail", "google status"},
		Match: phrase("connect google", "connect my google", "connect to google", "link google", "link my google",
			"connect gmail", "connect my gmail", "link gmail", "connect keep", "connect google keep",
			"google status", "is google connected", "disconnect google"),
		Handler: commands.HandlerFunc(func(context.Context, commands.Request) (pipeline.Answer, bool, error) {
			return pipeline.Reply("Google isn't set up on this Hearth, so I can't connect your account. " +
				"Whoever runs it can turn it on (HEARTH_GOOGLE_CLIENT_ID, HEARTH_GOOGLE_CLIENT_SECRET and " +
				"HEARTH_ENCRYPTION_KEY; the README says how). Meanwhile I keep your calendar, notes and " +
				"email drafts myself."), true, nil
		}),
	}
}
