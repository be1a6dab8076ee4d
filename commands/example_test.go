package commands_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
)

// A feature registers its command once; the pipeline step then answers
// its phrasings, its typed name and a platform's command alike, and help
// is generated from the registry.
func Example() {
	var reg commands.Registry
	err := reg.Register(commands.HelpCommand(&reg), commands.Command{
		Name: "weather", Args: "[CITY]", Help: "the forecast",
		Examples: []string{"what's the weather like"},
		Match:    func(norm string) bool { return norm == "what's the weather like" },
		Handler: commands.HandlerFunc(func(_ context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			return pipeline.Reply("Sunny in " + r.Args + "."), true, nil
		}),
	})
	if err != nil {
		panic(err)
	}
	h := reg.Handler(pipeline.HandlerFunc(func(context.Context, pipeline.Turn) (pipeline.Answer, error) {
		return pipeline.Reply("(on to intent)"), nil
	}))
	for _, ev := range []hearth.InboundEvent{
		{Kind: hearth.KindMessage, Text: "/weather Lisbon"},
		{Kind: hearth.KindCommand, Text: "weather Oslo"},
		{Kind: hearth.KindMessage, Text: "remind me to call mom"},
	} {
		ans, _ := h.HandleTurn(context.Background(), pipeline.Turn{Event: ev, User: hearth.User{Timezone: "UTC"}})
		fmt.Println(ans.Replies[0].Text)
	}
	help := strings.Split(reg.Help("/"), "\n")
	fmt.Println(help[len(help)-1])
	// Output:
	// Sunny in Lisbon.
	// Sunny in Oslo.
	// (on to intent)
	// • /weather [CITY]: the forecast (or “what's the weather like”)
}
