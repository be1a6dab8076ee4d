package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestLinkCodes(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	web, err := st.SignIn(ctx, hearth.ChannelWebchat, "ann", "Ann", "ann", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := st.SignIn(ctx, hearth.ChannelTelegram, "555", "Ann T", "555", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateTask(ctx, "k1", hearth.Task{UserID: tg.User.ID, Title: "Made on Telegram", Status: hearth.TaskOpen}); err != nil {
		t.Fatal(err)
	}

	code, err := st.CreateLinkCode(ctx, web.User.ID, time.Minute)
	if err != nil || hearth.NormaliseCode(code) == "" {
		t.Fatalf("code %q, %v", code, err)
	}
	if _, err := st.RedeemLinkCode(ctx, hearth.NormaliseCode(code), web.User.ID); !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("own code: %v; want invalid", err)
	}
	into, err := st.RedeemLinkCode(ctx, hearth.NormaliseCode(code), tg.User.ID)
	if err != nil || into != web.User.ID {
		t.Fatalf("redeem = %d, %v", into, err)
	}
	// The Telegram identity and its data now belong to Ann's account.
	c, err := st.FindContact(ctx, hearth.ChannelTelegram, "555", "555")
	if err != nil || c.User.ID != web.User.ID || c.User.Timezone != "Europe/Berlin" {
		t.Fatalf("telegram contact after linking: %+v, %v", c.User, err)
	}
	tasks, _ := st.FindTasks(ctx, hearth.TaskFilter{UserID: web.User.ID, IncludeUndated: true})
	if len(tasks) != 1 || tasks[0].Title != "Made on Telegram" {
		t.Fatalf("tasks did not follow the person: %+v", tasks)
	}
	if _, err := st.RedeemLinkCode(ctx, hearth.NormaliseCode(code), tg.User.ID); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("second use: %v; want not found", err)
	}

	expired, _ := st.CreateLinkCode(ctx, web.User.ID, time.Minute)
	if _, err := st.Pool().Exec(ctx, "UPDATE link_codes SET expires_at = now() - interval '1 second' WHERE code = $1", hearth.NormaliseCode(expired)); err != nil {
		t.Fatal(err)
	}
	other, _ := st.SignIn(ctx, hearth.ChannelWebchat, "bob", "Bob", "bob", "UTC")
	if _, err := st.RedeemLinkCode(ctx, hearth.NormaliseCode(expired), other.User.ID); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("expired code: %v; want not found", err)
	}
}

// Linking keeps what every table holds of the joined account: its model
// usage counts towards the day's budget, and the person has one set of
// scheduling settings (the kept account's) afterwards.
func TestLinkingKeepsUsageAndSettings(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	web, err := st.SignIn(ctx, hearth.ChannelWebchat, "ann", "Ann", "ann", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	tg, err := st.SignIn(ctx, hearth.ChannelTelegram, "555", "Ann T", "555", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	if err := st.RecordUsage(ctx, []hearth.Usage{{UserID: tg.User.ID, Day: day, Stage: "reply", Provider: "openai", Model: "m", Calls: 1, InputTokens: 100, OutputTokens: 20}}); err != nil {
		t.Fatal(err)
	}
	at, on := "06:45", true
	for _, u := range []int64{web.User.ID, tg.User.ID} {
		if _, err := st.UpdateScheduleSettings(ctx, u, hearth.ScheduleSettingsUpdate{BriefingAt: &at, BriefingEnabled: &on}); err != nil {
			t.Fatal(err)
		}
	}
	code, err := st.CreateLinkCode(ctx, web.User.ID, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.RedeemLinkCode(ctx, hearth.NormaliseCode(code), tg.User.ID); err != nil {
		t.Fatal(err)
	}
	if u, err := st.UsageOn(ctx, web.User.ID, day); err != nil || u.Calls != 1 || u.InputTokens != 100 {
		t.Fatalf("usage after linking %+v, %v; want the Telegram account's call", u, err)
	}
}
