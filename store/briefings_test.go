package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestUpdateScheduleSettings(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, pipeline.ChannelWebchat, "ann", "Ann", "ann", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at, off, bday, bigBday := "06:45", false, 5, 61
	good := []struct {
		name  string
		upd   store.SettingsUpdate
		check func(store.ScheduleSettings) bool
	}{
		{"defaults on first read", store.SettingsUpdate{}, func(s store.ScheduleSettings) bool {
			d := store.DefaultScheduleSettings()
			return s.BriefingEnabled && s.BriefingAt == d.BriefingAt && slices.Equal(s.LeadDays, d.LeadDays) && s.BirthdayDays == d.BirthdayDays
		}},
		{"briefing time", store.SettingsUpdate{BriefingAt: &at}, func(s store.ScheduleSettings) bool { return s.BriefingAt == "06:45" }},
		{"stop", store.SettingsUpdate{BriefingEnabled: &off}, func(s store.ScheduleSettings) bool { return !s.BriefingEnabled && s.BriefingAt == "06:45" }},
		{"skip twice is once", store.SettingsUpdate{Skip: []string{"family", "family"}}, func(s store.ScheduleSettings) bool { return slices.Equal(s.BriefingSkip, []string{"family"}) }},
		{"unskip", store.SettingsUpdate{Unskip: []string{"family"}}, func(s store.ScheduleSettings) bool { return len(s.BriefingSkip) == 0 }},
		{"lead days", store.SettingsUpdate{LeadDays: []int{2, 1}}, func(s store.ScheduleSettings) bool { return slices.Equal(s.LeadDays, []int{2, 1}) }},
		{"birthday days", store.SettingsUpdate{BirthdayDays: &bday}, func(s store.ScheduleSettings) bool { return s.BirthdayDays == 5 }},
	}
	for _, tt := range good {
		got, err := st.UpdateScheduleSettings(ctx, c.User.ID, tt.upd)
		if err != nil || !tt.check(got) {
			t.Fatalf("%s: %+v, %v", tt.name, got, err)
		}
	}
	badAt := "25:00"
	bad := []struct {
		name string
		upd  store.SettingsUpdate
	}{
		{"briefing time", store.SettingsUpdate{BriefingAt: &badAt}},
		{"negative lead day", store.SettingsUpdate{LeadDays: []int{3, -1}}},
		{"birthday too far ahead", store.SettingsUpdate{BirthdayDays: &bigBday}},
	}
	for _, tt := range bad {
		if _, err := st.UpdateScheduleSettings(ctx, c.User.ID, tt.upd); !errors.Is(err, pipeline.ErrInvalid) {
			t.Fatalf("%s: %v; want invalid", tt.name, err)
		}
	}
	// Nothing half-written: the settings are as the last good update left them.
	got, err := st.UpdateScheduleSettings(ctx, c.User.ID, store.SettingsUpdate{})
	if err != nil || got.BriefingAt != "06:45" || !slices.Equal(got.LeadDays, []int{2, 1}) || got.BirthdayDays != 5 {
		t.Fatalf("after bad updates: %+v, %v", got, err)
	}
}
