package recur

import (
	"testing"
	"time"
)

func BenchmarkNext(b *testing.B) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		b.Fatal(err)
	}
	rules := map[string]Rule{
		"daily":       {Freq: Daily, At: TimeOfDay{7, 30}},
		"weekday":     {Freq: Weekly, Weekdays: WorkWeek, At: TimeOfDay{8, 30}},
		"monthly31":   {Freq: Monthly, MonthDay: 31, At: TimeOfDay{9, 0}},
		"yearlyFeb29": {Freq: Yearly, Month: time.February, MonthDay: 29, At: TimeOfDay{9, 0}},
		"count1000":   {Freq: Daily, At: TimeOfDay{9, 0}, Start: Date{2024, 1, 1}, Count: 1000},
	}
	after := time.Date(2026, 3, 7, 12, 0, 0, 0, ny)
	for name, r := range rules {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := r.Next(after, ny); !ok {
					b.Fatal("no next")
				}
			}
		})
	}
}
