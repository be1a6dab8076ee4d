package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

func TestUpdateScheduleSettings(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelWebchat, "ann", "Ann", "ann", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at, off, bday, bigBday := "06:45", false, 5, 61
	good := []struct {
		name  string
		upd   hearth.ScheduleSettingsUpdate
		check func(hearth.ScheduleSettings) bool
	}{
		{"defaults on first read", hearth.ScheduleSettingsUpdate{}, func(s hearth.ScheduleSettings) bool {
			d := hearth.DefaultScheduleSettings()
			return s.BriefingEnabled && s.BriefingAt == d.BriefingAt && slices.Equal(s.LeadDays, d.LeadDays) && s.BirthdayDays == d.BirthdayDays
		}},
		{"briefing time", hearth.ScheduleSettingsUpdate{BriefingAt: &at}, func(s hearth.ScheduleSettings) bool { return s.BriefingAt == "06:45" }},
		{"stop", hearth.ScheduleSettingsUpdate{BriefingEnabled: &off}, func(s hearth.ScheduleSettings) bool { return !s.BriefingEnabled && s.BriefingAt == "06:45" }},
		{"skip twice is once", hearth.ScheduleSettingsUpdate{Skip: []string{"family", "family"}}, func(s hearth.ScheduleSettings) bool { return slices.Equal(s.BriefingSkip, []string{"family"}) }},
		{"unskip", hearth.ScheduleSettingsUpdate{Unskip: []string{"family"}}, func(s hearth.ScheduleSettings) bool { return len(s.BriefingSkip) == 0 }},
		{"lead days", hearth.ScheduleSettingsUpdate{LeadDays: []int{2, 1}}, func(s hearth.ScheduleSettings) bool { return slices.Equal(s.LeadDays, []int{2, 1}) }},
		{"birthday days", hearth.ScheduleSettingsUpdate{BirthdayDays: &bday}, func(s hearth.ScheduleSettings) bool { return s.BirthdayDays == 5 }},
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
		upd  hearth.ScheduleSettingsUpdate
	}{
		{"briefing time", hearth.ScheduleSettingsUpdate{BriefingAt: &badAt}},
		{"negative lead day", hearth.ScheduleSettingsUpdate{LeadDays: []int{3, -1}}},
		{"birthday too far ahead", hearth.ScheduleSettingsUpdate{BirthdayDays: &bigBday}},
	}
	for _, tt := range bad {
		if _, err := st.UpdateScheduleSettings(ctx, c.User.ID, tt.upd); !errors.Is(err, hearth.ErrInvalid) {
			t.Fatalf("%s: %v; want invalid", tt.name, err)
		}
	}
	// Nothing half-written: the settings are as the last good update left them.
	got, err := st.UpdateScheduleSettings(ctx, c.User.ID, hearth.ScheduleSettingsUpdate{})
	if err != nil || got.BriefingAt != "06:45" || !slices.Equal(got.LeadDays, []int{2, 1}) || got.BirthdayDays != 5 {
		t.Fatalf("after bad updates: %+v, %v", got, err)
	}
}
