package signin

import (
	"context"
	"fmt"

	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
)

// Command is the signin command: "/signin" (or "sign me in to the web
// chat") in a chat the person already uses answers with a one-time link
// that signs them in to the web chat. It is private: Slack runs it only
// in the person's direct message with Hearth.
func (s *Service) Command() commands.Command {
	return commands.Command{
		Name: "signin", Private: true,
		Help:     "a one-time link (15 minutes) that signs you in to the web chat",
		Examples: []string{"sign me in to the web chat", "web chat link"},
		Match: func(norm string) bool {
			switch norm {
			case "sign me in to the web chat", "sign me in to the webchat", "web chat link", "webchat link", "sign in link", "sign-in link":
				return true
			}
			return false
		},
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			link, err := s.NewLink(ctx, r.User.ID)
			if err != nil {
				return pipeline.Answer{}, false, fmt.Errorf("signin command: %w", err)
			}
			return pipeline.Reply("Open this link within 15 minutes to sign in to the web chat (it works once): " + link +
				"\nOnce in, add a passkey so you can sign in without a link next time."), true, nil
		}),
	}
}
