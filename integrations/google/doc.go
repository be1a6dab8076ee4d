// Package google connects a user's Google account to Hearth: OAuth with a
// signed, user-bound state and tokens sealed at rest, the Calendar
// provider that acts in the user's real calendar, and push sync
// (events.watch channels, a webhook, incremental sync with sync tokens,
// full resync on 410, channel renewal and a periodic poll) that keeps a
// local copy in Hearth's events table, so every reader (what's on my
// calendar, briefings, reminders) works unchanged.
//
// Users who did not connect Google, or whose grant Google refused, keep
// the built-in calendar: the provider routes each call by user.
//
// Other Google features (Gmail with its Pub/Sub push, the address book,
// Keep) build on the same account: ask for
// their scope with ConnectURL (consent is incremental), check it with
// HasScope, and make their google.golang.org/api client with
// ClientOptions, which carries the user's sealed token (refreshed and
// stored again, a 401 retried once, 429/5xx backed off, a refused grant
// marked so the built-in providers take over).
//
// Every Google host can be replaced by one base URL (HEARTH_GOOGLE_ENDPOINT)
// keeping Google's paths, which is how googletest's fake server stands in
// for Google, driven through the real client libraries.
package google
