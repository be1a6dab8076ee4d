package google

import (
	"strings"

	"golang.org/x/oauth2"
)

// Endpoints are the Google addresses Hearth talks to. Google's own by
// default; with a base URL (HEARTH_GOOGLE_ENDPOINT) every host is replaced
// by it and Google's paths are kept, so a fake server stands in for all.
type Endpoints struct {
	OAuth    oauth2.Endpoint
	Revoke   string
	UserInfo string
	// API is the base of the REST APIs: calendar/v3/, gmail/v1/ … follow
	// it (option.WithEndpoint); empty means each library's own default.
	API string
}

// EndpointsFor returns Google's endpoints, or those under base (with or
// without a trailing slash).
func EndpointsFor(base string) Endpoints {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	if base == "" {
		return Endpoints{
			OAuth: oauth2.Endpoint{
				AuthURL:   "https://accounts.google.com/o/oauth2/auth",
				TokenURL:  "https://oauth2.googleapis.com/token",
				AuthStyle: oauth2.AuthStyleInParams,
			},
			Revoke:   "https://oauth2.googleapis.com/revoke",
			UserInfo: "https://openidconnect.googleapis.com/v1/userinfo",
		}
	}
	return Endpoints{
		OAuth: oauth2.Endpoint{
			AuthURL:   base + "/o/oauth2/auth",
			TokenURL:  base + "/token",
			AuthStyle: oauth2.AuthStyleInParams,
		},
		Revoke:   base + "/revoke",
		UserInfo: base + "/v1/userinfo",
		API:      base + "/",
	}
}
