package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestLinkCodes(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	web, err := st.SignIn(ctx, pipeline.ChannelWebchat, "ann", "Ann", "ann", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := st.SignIn(ctx, pipeline.ChannelTelegram, "555", "Ann T", "555", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateTask(ctx, "k1", hearth.Task{UserID: tg.User.ID, Title: "Made on Telegram", Status: hearth.TaskOpen}); err != nil {
		t.Fatal(err)
	}

	code, err := st.CreateLinkCode(ctx, web.User.ID, time.Minute)
	if err != nil || pipeline.NormaliseLinkCode(code) == "" {
		t.Fatalf("code %q, %v", code, err)
	}
	if _, err := st.RedeemLinkCode(ctx, pipeline.NormaliseLinkCode(code), web.User.ID); !errors.Is(err, pipeline.ErrInvalid) {
		t.Fatalf("own code: %v; want invalid", err)
	}
	into, err := st.RedeemLinkCode(ctx, pipeline.NormaliseLinkCode(code), tg.User.ID)
	if err != nil || into != web.User.ID {
		t.Fatalf("redeem = %d, %v", into, err)
	}
	// The Telegram identity and its data now belong to Ann's account.
	c, err := st.FindContact(ctx, pipeline.ChannelTelegram, "555", "555")
	if err != nil || c.User.ID != web.User.ID || c.User.Timezone != "Europe/Berlin" {
		t.Fatalf("telegram contact after linking: %+v, %v", c.User, err)
	}
	tasks, _ := st.FindTasks(ctx, hearth.TaskFilter{UserID: web.User.ID, IncludeUndated: true})
	if len(tasks) != 1 || tasks[0].Title != "Made on Telegram" {
		t.Fatalf("tasks did not follow the person: %+v", tasks)
	}
	if _, err := st.RedeemLinkCode(ctx, pipeline.NormaliseLinkCode(code), tg.User.ID); !errors.Is(err, pipeline.ErrNotFound) {
		t.Fatalf("second use: %v; want not found", err)
	}

	expired, _ := st.CreateLinkCode(ctx, web.User.ID, time.Minute)
	if _, err := st.Pool().Exec(ctx, "UPDATE link_codes SET expires_at = now() - interval '1 second' WHERE code = $1", pipeline.NormaliseLinkCode(expired)); err != nil {
		t.Fatal(err)
	}
	other, _ := st.SignIn(ctx, pipeline.ChannelWebchat, "bob", "Bob", "bob", "UTC")
	if _, err := st.RedeemLinkCode(ctx, pipeline.NormaliseLinkCode(expired), other.User.ID); !errors.Is(err, pipeline.ErrNotFound) {
		t.Fatalf("expired code: %v; want not found", err)
	}
}
