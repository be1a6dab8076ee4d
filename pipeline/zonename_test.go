package pipeline_test

import (
	"slices"
	"testing"

	"github.com/hearthbot/hearth/pipeline"
)

func TestZonesNamed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"Europe/Berlin", []string{"Europe/Berlin"}},
		{"europe/berlin", []string{"Europe/Berlin"}},
		{"america/new york", []string{"America/New_York"}},
		{"Chicago", []string{"America/Chicago"}},
		{"I'm in London", []string{"Europe/London"}},
		{"sydney.", []string{"Australia/Sydney"}},
		{"Chicago, IL", []string{"America/Chicago"}},
		{"CET", []string{"Europe/Paris"}},
		{"Pacific time", []string{"America/Los_Angeles"}},
		{"UTC", []string{"UTC"}},
		{"UTC+2", []string{"Etc/GMT-2"}},
		{"gmt -5", []string{"Etc/GMT+5"}},
		{"CST", []string{"America/Chicago", "Asia/Shanghai"}},
		{"somewhere nice", nil},
		{"Local", nil},
		{"UTC+15", nil},
		{"../../etc/passwd", nil},
	} {
		if got := pipeline.ZonesNamed(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("ZonesNamed(%q) = %v; want %v", tt.text, got, tt.want)
		}
	}
}

func FuzzZonesNamed(f *testing.F) {
	for _, s := range []string{"Chicago", "utc+2", "europe/berlin", "CST", "", "/", "+", "gmt-", "a/b/c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, z := range pipeline.ZonesNamed(s) {
			if _, err := pipeline.LoadTimezone(z); err != nil {
				t.Fatalf("ZonesNamed(%q) gave %q, which does not load: %v", s, z, err)
			}
		}
	})
}
