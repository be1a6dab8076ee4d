package memory

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
)

// reCoordinates finds coordinates given in chat: "51.5007, -0.1246",
// "(51.5007 -0.1246)".
var reCoordinates = regexp.MustCompile(`\(?\s*(-?\d{1,2}\.\d+)\s*[,;]?\s+(-?\d{1,3}\.\d+)\s*\)?|\(?\s*(-?\d{1,2}\.\d+)\s*,\s*(-?\d{1,3}\.\d+)\s*\)?`)

// Coordinates takes coordinates given in chat out of a value: "12 Oak
// Street (51.50, -0.12)" → "12 Oak Street", 51.50, -0.12.
func Coordinates(value string) (rest string, c hearth.Coordinates, ok bool) {
	loc := reCoordinates.FindStringSubmatchIndex(value)
	if loc == nil {
		return value, c, false
	}
	g := func(i int) string {
		if loc[2*i] < 0 {
			return ""
		}
		return value[loc[2*i]:loc[2*i+1]]
	}
	lat, lon := g(1)+g(3), g(2)+g(4)
	var err1, err2 error
	c.Lat, err1 = strconv.ParseFloat(lat, 64)
	c.Lon, err2 = strconv.ParseFloat(lon, 64)
	if err1 != nil || err2 != nil || !c.Valid() {
		return value, hearth.Coordinates{}, false
	}
	rest = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(value[:loc[0]]+value[loc[1]:]), ",;:"))
	rest = strings.TrimSuffix(strings.TrimSpace(strings.TrimSuffix(rest, " at")), ",")
	return rest, c, true
}

// Addressed reports whether an attribute's value is an address, which a
// geocoder can place.
func Addressed(attr string) bool {
	switch attr {
	case AttrHome, AttrWork, AttrSchoolAddress, hearth.AttrSchool:
		return true
	}
	return false
}

// AttrFriendOf is the attribute of a person who is someone's friend
// ("Lily is Emma's friend"): its value is the other's name.
const AttrFriendOf = "friend of"

// reFriendOf reads "Lily is Emma's friend", "Lily and Noah are Emma's
// friends" is left for later.
var reFriendOf = regexp.MustCompile(`^(` + name + `)\s+(?i:is)\s+(` + name + `)` + poss + `\s+(?i:(?:best\s+)?(?:friend|classmate|buddy))$`)

// WalkingTable says how far a child of a given age can walk, in metres:
// each row is an age up to which (inclusive) its distance applies, the
// last row every older age. HEARTH_WALKING_DISTANCES sets it.
type WalkingTable []WalkingRow

// WalkingRow is one row of a WalkingTable; UpTo 0 means every older age.
type WalkingRow struct {
	UpTo   int
	Metres float64
}

// DefaultWalking is the walking distance by age unless configured: up to
// 6 years 400 m, 7–9 800 m, 10–12 1.2 km, older 1.5 km.
var DefaultWalking = WalkingTable{{6, 400}, {9, 800}, {12, 1200}, {0, 1500}}

// ParseWalking reads a table written "6:400,9:800,12:1200,*:1500" (age
// up to which : metres; * for every older age, which must come last).
func ParseWalking(s string) (WalkingTable, error) {
	var t WalkingTable
	for _, part := range strings.Split(s, ",") {
		age, m, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return nil, fmt.Errorf("walking distance %q: want AGE:METRES", part)
		}
		metres, err := strconv.ParseFloat(strings.TrimSpace(m), 64)
		if err != nil || metres <= 0 {
			return nil, fmt.Errorf("walking distance %q: metres must be a positive number", part)
		}
		row := WalkingRow{Metres: metres}
		if a := strings.TrimSpace(age); a != "*" {
			if row.UpTo, err = strconv.Atoi(a); err != nil || row.UpTo <= 0 {
				return nil, fmt.Errorf("walking distance %q: age must be a positive whole number or *", part)
			}
			if len(t) > 0 && (t[len(t)-1].UpTo == 0 || t[len(t)-1].UpTo >= row.UpTo) {
				return nil, fmt.Errorf("walking distance %q: ages must rise, with * last", part)
			}
		}
		t = append(t, row)
	}
	if len(t) == 0 || t[len(t)-1].UpTo != 0 {
		return nil, fmt.Errorf("walking distances %q: the last row must be *:METRES, for every older age", s)
	}
	return t, nil
}

// For returns the walking distance for a child of age years (age < 0:
// unknown, the last row).
func (t WalkingTable) For(age int) float64 {
	if len(t) == 0 {
		t = DefaultWalking
	}
	if age >= 0 {
		if i := slices.IndexFunc(t, func(r WalkingRow) bool { return r.UpTo == 0 || age <= r.UpTo }); i >= 0 {
			return t[i].Metres
		}
	}
	return t[len(t)-1].Metres
}

// Age is how old someone born on born is at now, in whole years.
func Age(born, now time.Time) int {
	years := now.Year() - born.Year()
	if now.YearDay() < born.YearDay() {
		years--
	}
	return years
}

// Metres writes a distance as people say it: "350 m", "1.2 km".
func Metres(m float64) string {
	if m < 1000 {
		return strconv.Itoa(int(m/10+0.5)*10) + " m"
	}
	return strconv.FormatFloat(float64(int(m/100+0.5))/10, 'f', -1, 64) + " km"
}

// String describes the table as the answers state it: "up to 6 years
// 400 m, 7–9 800 m, 10–12 1.2 km, older 1.5 km".
func (t WalkingTable) String() string {
	if len(t) == 0 {
		t = DefaultWalking
	}
	var parts []string
	from := 0
	for i, r := range t {
		switch {
		case r.UpTo == 0:
			parts = append(parts, "older "+Metres(r.Metres))
		case i == 0:
			parts = append(parts, "up to "+strconv.Itoa(r.UpTo)+" years "+Metres(r.Metres))
		case from == r.UpTo:
			parts = append(parts, strconv.Itoa(r.UpTo)+" "+Metres(r.Metres))
		default:
			parts = append(parts, strconv.Itoa(from)+"–"+strconv.Itoa(r.UpTo)+" "+Metres(r.Metres))
		}
		from = r.UpTo + 1
	}
	return strings.Join(parts, ", ")
}
