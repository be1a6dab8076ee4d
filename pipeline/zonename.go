package pipeline

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// zoneNames maps what people answer to "which time zone are you in?" —
// a city, a country, an abbreviation — to IANA zones. A name with several
// zones lists them all, most likely first; the user then picks one.
var zoneNames = map[string][]string{
	// North America
	"new york": {"America/New_York"}, "nyc": {"America/New_York"}, "boston": {"America/New_York"}, "washington": {"America/New_York"},
	"dc": {"America/New_York"}, "miami": {"America/New_York"}, "atlanta": {"America/New_York"}, "philadelphia": {"America/New_York"},
	"toronto": {"America/Toronto"}, "montreal": {"America/Toronto"}, "detroit": {"America/Detroit"},
	"chicago": {"America/Chicago"}, "houston": {"America/Chicago"}, "dallas": {"America/Chicago"}, "austin": {"America/Chicago"},
	"minneapolis": {"America/Chicago"}, "new orleans": {"America/Chicago"}, "winnipeg": {"America/Winnipeg"},
	"denver": {"America/Denver"}, "salt lake city": {"America/Denver"}, "calgary": {"America/Edmonton"}, "phoenix": {"America/Phoenix"},
	"los angeles": {"America/Los_Angeles"}, "la": {"America/Los_Angeles"}, "san francisco": {"America/Los_Angeles"}, "sf": {"America/Los_Angeles"},
	"seattle": {"America/Los_Angeles"}, "san diego": {"America/Los_Angeles"}, "las vegas": {"America/Los_Angeles"},
	"portland": {"America/Los_Angeles", "America/New_York"}, "vancouver": {"America/Vancouver"},
	"anchorage": {"America/Anchorage"}, "honolulu": {"Pacific/Honolulu"}, "hawaii": {"Pacific/Honolulu"}, "alaska": {"America/Anchorage"},
	"mexico city": {"America/Mexico_City"}, "mexico": {"America/Mexico_City"},
	"canada":        {"America/Toronto", "America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Halifax"},
	"usa":           {"America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"},
	"us":            {"America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"},
	"united states": {"America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"},
	// South America
	"sao paulo": {"America/Sao_Paulo"}, "são paulo": {"America/Sao_Paulo"}, "rio": {"America/Sao_Paulo"}, "brazil": {"America/Sao_Paulo"},
	"buenos aires": {"America/Argentina/Buenos_Aires"}, "argentina": {"America/Argentina/Buenos_Aires"},
	"bogota": {"America/Bogota"}, "colombia": {"America/Bogota"}, "lima": {"America/Lima"}, "peru": {"America/Lima"},
	"santiago": {"America/Santiago"}, "chile": {"America/Santiago"},
	// Europe and Africa
	"london": {"Europe/London"}, "uk": {"Europe/London"}, "england": {"Europe/London"}, "britain": {"Europe/London"}, "scotland": {"Europe/London"},
	"dublin": {"Europe/Dublin"}, "ireland": {"Europe/Dublin"}, "lisbon": {"Europe/Lisbon"}, "portugal": {"Europe/Lisbon"},
	"paris": {"Europe/Paris"}, "france": {"Europe/Paris"}, "berlin": {"Europe/Berlin"}, "germany": {"Europe/Berlin"}, "munich": {"Europe/Berlin"},
	"madrid": {"Europe/Madrid"}, "barcelona": {"Europe/Madrid"}, "spain": {"Europe/Madrid"}, "rome": {"Europe/Rome"}, "milan": {"Europe/Rome"}, "italy": {"Europe/Rome"},
	"amsterdam": {"Europe/Amsterdam"}, "netherlands": {"Europe/Amsterdam"}, "brussels": {"Europe/Brussels"}, "belgium": {"Europe/Brussels"},
	"zurich": {"Europe/Zurich"}, "switzerland": {"Europe/Zurich"}, "vienna": {"Europe/Vienna"}, "austria": {"Europe/Vienna"},
	"stockholm": {"Europe/Stockholm"}, "sweden": {"Europe/Stockholm"}, "oslo": {"Europe/Oslo"}, "norway": {"Europe/Oslo"},
	"copenhagen": {"Europe/Copenhagen"}, "denmark": {"Europe/Copenhagen"}, "helsinki": {"Europe/Helsinki"}, "finland": {"Europe/Helsinki"},
	"warsaw": {"Europe/Warsaw"}, "poland": {"Europe/Warsaw"}, "prague": {"Europe/Prague"}, "athens": {"Europe/Athens"}, "greece": {"Europe/Athens"},
	"istanbul": {"Europe/Istanbul"}, "turkey": {"Europe/Istanbul"}, "moscow": {"Europe/Moscow"}, "kyiv": {"Europe/Kyiv"}, "kiev": {"Europe/Kyiv"},
	"cairo": {"Africa/Cairo"}, "egypt": {"Africa/Cairo"}, "lagos": {"Africa/Lagos"}, "nigeria": {"Africa/Lagos"}, "nairobi": {"Africa/Nairobi"},
	"kenya": {"Africa/Nairobi"}, "johannesburg": {"Africa/Johannesburg"}, "cape town": {"Africa/Johannesburg"}, "south africa": {"Africa/Johannesburg"},
	// Asia and Oceania
	"dubai": {"Asia/Dubai"}, "uae": {"Asia/Dubai"}, "tel aviv": {"Asia/Jerusalem"}, "jerusalem": {"Asia/Jerusalem"}, "israel": {"Asia/Jerusalem"},
	"mumbai": {"Asia/Kolkata"}, "delhi": {"Asia/Kolkata"}, "new delhi": {"Asia/Kolkata"}, "bangalore": {"Asia/Kolkata"}, "india": {"Asia/Kolkata"},
	"karachi": {"Asia/Karachi"}, "pakistan": {"Asia/Karachi"}, "dhaka": {"Asia/Dhaka"}, "bangkok": {"Asia/Bangkok"}, "thailand": {"Asia/Bangkok"},
	"singapore": {"Asia/Singapore"}, "kuala lumpur": {"Asia/Kuala_Lumpur"}, "jakarta": {"Asia/Jakarta"}, "manila": {"Asia/Manila"}, "philippines": {"Asia/Manila"},
	"hong kong": {"Asia/Hong_Kong"}, "beijing": {"Asia/Shanghai"}, "shanghai": {"Asia/Shanghai"}, "china": {"Asia/Shanghai"}, "taipei": {"Asia/Taipei"},
	"seoul": {"Asia/Seoul"}, "korea": {"Asia/Seoul"}, "tokyo": {"Asia/Tokyo"}, "osaka": {"Asia/Tokyo"}, "japan": {"Asia/Tokyo"},
	"sydney": {"Australia/Sydney"}, "melbourne": {"Australia/Melbourne"}, "brisbane": {"Australia/Brisbane"}, "perth": {"Australia/Perth"},
	"adelaide": {"Australia/Adelaide"}, "australia": {"Australia/Sydney", "Australia/Brisbane", "Australia/Adelaide", "Australia/Perth"},
	"auckland": {"Pacific/Auckland"}, "new zealand": {"Pacific/Auckland"}, "nz": {"Pacific/Auckland"},
	// abbreviations
	"utc": {"UTC"}, "gmt": {"Europe/London", "UTC"}, "z": {"UTC"}, "zulu": {"UTC"},
	"est": {"America/New_York"}, "edt": {"America/New_York"}, "et": {"America/New_York"}, "eastern": {"America/New_York"},
	"cst": {"America/Chicago", "Asia/Shanghai"}, "cdt": {"America/Chicago"}, "ct": {"America/Chicago"}, "central": {"America/Chicago"},
	"mst": {"America/Denver", "America/Phoenix"}, "mdt": {"America/Denver"}, "mt": {"America/Denver"}, "mountain": {"America/Denver"},
	"pst": {"America/Los_Angeles"}, "pdt": {"America/Los_Angeles"}, "pt": {"America/Los_Angeles"}, "pacific": {"America/Los_Angeles"},
	"akst": {"America/Anchorage"}, "hst": {"Pacific/Honolulu"}, "ast": {"America/Halifax"},
	"bst": {"Europe/London"}, "wet": {"Europe/Lisbon"}, "cet": {"Europe/Paris"}, "cest": {"Europe/Paris"}, "eet": {"Europe/Athens"}, "eest": {"Europe/Athens"},
	"msk": {"Europe/Moscow"}, "ist": {"Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"}, "jst": {"Asia/Tokyo"}, "kst": {"Asia/Seoul"},
	"hkt": {"Asia/Hong_Kong"}, "sgt": {"Asia/Singapore"}, "aest": {"Australia/Sydney"}, "aedt": {"Australia/Sydney"},
	"acst": {"Australia/Adelaide"}, "awst": {"Australia/Perth"}, "nzst": {"Pacific/Auckland"}, "nzdt": {"Pacific/Auckland"},
}

// ZonesNamed returns the IANA zones a reply to the time-zone question
// names: an IANA name in any case ("europe/berlin"), a city or country
// ("Chicago", "London", "Sydney", "Japan"), an abbreviation ("CET", "PST"),
// or an offset ("UTC+2", "GMT-5", "+05:30" when it is a whole hour). More
// than one zone means the name is ambiguous; none means it names no zone.
func ZonesNamed(text string) []string {
	s := strings.TrimSpace(text)
	s = strings.TrimRight(s, ".!")
	if _, err := LoadTimezone(s); err == nil && strings.Contains(s, "/") || s == "UTC" {
		return []string{s}
	}
	if z := ianaFold(s); z != "" {
		return []string{z}
	}
	lc := strings.ToLower(s)
	for _, p := range []string{"i'm in ", "i am in ", "im in ", "i live in ", "in ", "my time zone is ", "my timezone is ", "it's ", "its "} {
		lc = strings.TrimPrefix(lc, p)
	}
	lc = strings.TrimSuffix(strings.TrimSuffix(lc, " time"), " timezone")
	if z, ok := offsetZone(lc); ok {
		return []string{z}
	}
	if zs, ok := zoneNames[lc]; ok {
		return zs
	}
	// "Chicago, IL", "Paris France": the first part.
	if i := strings.IndexAny(lc, ","); i > 0 {
		if zs, ok := zoneNames[strings.TrimSpace(lc[:i])]; ok {
			return zs
		}
	}
	return nil
}

// ianaFold finds the IANA zone written in another case: "europe/berlin",
// "AMERICA/NEW_YORK", "america/new york".
func ianaFold(s string) string {
	if !strings.Contains(s, "/") || len(s) > 64 {
		return ""
	}
	parts := strings.Split(strings.ReplaceAll(strings.TrimSpace(s), " ", "_"), "/")
	for i, p := range parts {
		words := strings.Split(strings.ToLower(p), "_")
		for j, w := range words {
			if w != "" {
				r := []rune(w)
				r[0] = unicode.ToUpper(r[0])
				words[j] = string(r)
			}
		}
		parts[i] = strings.Join(words, "_")
	}
	z := strings.Join(parts, "/")
	if _, err := LoadTimezone(z); err != nil {
		return ""
	}
	return z
}

// offsetZone reads "utc+2", "gmt-5", "utc +10", "+3": a whole-hour
// offset, as the Etc zone of that offset (whose sign is inverted by
// POSIX convention: UTC+2 is Etc/GMT-2).
func offsetZone(s string) (string, bool) {
	s = strings.ReplaceAll(s, " ", "")
	for _, p := range []string{"utc", "gmt"} {
		s = strings.TrimPrefix(s, p)
	}
	if len(s) < 2 || s[0] != '+' && s[0] != '-' {
		return "", false
	}
	h := strings.TrimSuffix(strings.TrimSuffix(s[1:], ":00"), "00")
	n, err := strconv.Atoi(h)
	if err != nil || n < 0 || n > 14 || s[0] == '-' && n > 12 {
		return "", false
	}
	if n == 0 {
		return "UTC", true
	}
	sign := "-"
	if s[0] == '-' {
		sign = "+"
	}
	return fmt.Sprintf("Etc/GMT%s%d", sign, n), true
}
