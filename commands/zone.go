package commands

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hearthbot/hearth/pipeline"
)

// reZoneSet reads "set my time zone to Europe/Paris", "change my timezone
// to Chicago", "my time zone is CET" (normalised): the zone named.
var reZoneSet = regexp.MustCompile(`^(?:(?:set|change|switch|update|move) my time ?zone to|my time ?zone is(?: now)?|use the time ?zone) (.+)$`)

// reZoneAsk reads "what's my time zone", "which time zone am I in".
var reZoneAsk = regexp.MustCompile(`^(?:what(?:'s| is) my time ?zone|(?:which|what) time ?zone am i in|(?:which|what) time ?zone (?:are|do) you (?:use|using|have) for me)$`)

// ZoneCommand is the time-zone command: "set my time zone to
// Europe/Paris" (or "/timezone Paris") changes the zone every date and
// time of the user's is read and shown in, after a move or for a long
// trip; "what's my time zone?" (or "/timezone") says it. The zone is
// named as to the first-contact question: a city, a country, an
// abbreviation, an offset or an IANA name (pipeline.ZonesNamed). A name
// with several zones is answered with them, to say one.
func ZoneCommand(st pipeline.TimezoneSetter) Command {
	return Command{
		Name: "timezone", Args: "[ZONE]",
		Help:     "the time zone your dates and times are in",
		Examples: []string{"set my time zone to Europe/Paris", "what's my time zone"},
		Match: func(norm string) bool {
			return reZoneSet.MatchString(norm) || reZoneAsk.MatchString(norm)
		},
		Handler: HandlerFunc(func(ctx context.Context, r Request) (pipeline.Answer, bool, error) {
			named := strings.TrimSpace(r.Args)
			if g := reZoneSet.FindStringSubmatch(r.Norm); g != nil && !r.ByName {
				t := Tidy(r.Text)
				named = t[len(t)-len(g[1]):] // as written: "Springfield"
			}
			if named == "" {
				if r.User.Timezone == "" {
					return pipeline.Answer{}, false, nil // the time-zone question asks
				}
				return pipeline.Reply(fmt.Sprintf("Your time zone is %s. Say “set my time zone to …” with a city or a zone to change it.", r.User.Timezone)), true, nil
			}
			switch zs := pipeline.ZonesNamed(named); len(zs) {
			case 0:
				return pipeline.Reply(fmt.Sprintf("I don't know a time zone by “%s”. Try a city, like Chicago, or a zone, like Europe/Berlin.", named)), true, nil
			case 1:
				if zs[0] == r.User.Timezone {
					return pipeline.Reply(fmt.Sprintf("Your time zone is %s already.", zs[0])), true, nil
				}
				if err := st.SetTimezone(ctx, r.User.ID, zs[0]); err != nil {
					return pipeline.Answer{}, false, fmt.Errorf("timezone command: %w", err)
				}
				return pipeline.Reply(fmt.Sprintf("Done — your dates and times are in %s from now on.", zs[0])), true, nil
			default:
				return pipeline.Reply(fmt.Sprintf("“%s” has more than one time zone: %s. Say “set my time zone to” one of them.", named, strings.Join(zs, ", "))), true, nil
			}
		}),
	}
}
