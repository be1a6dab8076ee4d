package slack

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/slack-go/slack"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline"
)

// Block Kit limits Send stays within.
const (
	maxSectionText    = 3000 // characters in a section's text
	maxButtonLabel    = 75   // characters in a button's plain_text label
	maxActionElements = 25   // elements in one actions block
)

// Send delivers d to its conversation with Block Kit: the text in
// section blocks and one button per d.Buttons in actions blocks (each
// button's value names the message and the button; see
// ServeInteractions). d.ConversationKey is "<channel>" or, for a
// conversation started by a mention, "<channel>:<thread ts>", and the
// reply goes into that thread. It returns "<channel>:<ts>", which names
// the posted message for a later update.
//
// Errors wrap pipeline.ErrPermanent when resending cannot help (the
// channel is gone, Hearth is not in it, the account is deactivated, the
// message cannot be encoded); a rate limit (with Slack's Retry-After)
// or a network failure is returned as is, for the deliver job to retry.
func (a *Adapter) Send(ctx context.Context, d hearth.Delivery) (string, error) {
	channel, thread, _ := strings.Cut(d.ConversationKey, ":")
	if channel == "" {
		return "", fmt.Errorf("slack send message %d: %w: no channel in conversation key %q", d.MessageID, hearth.ErrPermanent, d.ConversationKey)
	}
	blocks, err := messageBlocks(d)
	if err != nil {
		return "", fmt.Errorf("slack send message %d: %w: %w", d.MessageID, hearth.ErrPermanent, err)
	}
	// The text is also the notification and screen-reader fallback.
	opts := []slack.MsgOption{slack.MsgOptionText(markdown.Slack(d.Text), false), slack.MsgOptionBlocks(blocks...)}
	if thread != "" {
		opts = append(opts, slack.MsgOptionTS(thread))
	}
	postedIn, ts, err := a.api.PostMessageContext(ctx, channel, opts...)
	if err != nil {
		return "", fmt.Errorf("slack send message %d: %w", d.MessageID, sendError(err))
	}
	if postedIn == "" {
		postedIn = channel
	}
	return postedIn + ":" + ts, nil
}

// Edit rewrites a message posted before (an answered prompt) with its new
// text and buttons, through chat.update; without buttons, they go away.
func (a *Adapter) Edit(ctx context.Context, d hearth.Delivery) error {
	channel, ts, ok := strings.Cut(d.PlatformMessageID, ":")
	if !ok || channel == "" || ts == "" {
		return fmt.Errorf("slack edit message %d: %w: platform id %q", d.MessageID, hearth.ErrPermanent, d.PlatformMessageID)
	}
	blocks, err := messageBlocks(d)
	if err != nil {
		return fmt.Errorf("slack edit message %d: %w: %w", d.MessageID, hearth.ErrPermanent, err)
	}
	if _, _, _, err := a.api.UpdateMessageContext(ctx, channel, ts, slack.MsgOptionText(markdown.Slack(d.Text), false), slack.MsgOptionBlocks(blocks...)); err != nil {
		return fmt.Errorf("slack edit message %d: %w", d.MessageID, sendError(err))
	}
	return nil
}

var _ pipeline.Editor = (*Adapter)(nil)

// messageBlocks lays out d: its Markdown text rendered as mrkdwn
// sections, then the buttons.
func messageBlocks(d hearth.Delivery) ([]slack.Block, error) {
	var blocks []slack.Block
	for _, part := range splitText(markdown.Slack(d.Text), maxSectionText) {
		blocks = append(blocks, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, part, false, true), nil, nil))
	}
	var buttons []slack.BlockElement
	for i, b := range d.Buttons {
		value, err := encodeButtonValue(d.MessageID, b.ID)
		if err != nil {
			return nil, err
		}
		label := truncate(b.Label, maxButtonLabel)
		if strings.TrimSpace(label) == "" {
			label = b.ID
		}
		// action_id must be unique within the message; the value carries
		// the meaning.
		buttons = append(buttons, slack.NewButtonBlockElement("hearth_button_"+strconv.Itoa(i), value,
			slack.NewTextBlockObject(slack.PlainTextType, truncate(label, maxButtonLabel), false, false)))
	}
	for len(buttons) > 0 {
		n := min(len(buttons), maxActionElements)
		blocks = append(blocks, slack.NewActionBlock("hearth_actions_"+strconv.Itoa(len(blocks)), buttons[:n]...))
		buttons = buttons[n:]
	}
	if len(blocks) == 0 {
		return nil, errors.New("message has neither text nor buttons")
	}
	return blocks, nil
}

// splitText cuts s into pieces of at most max characters, at line breaks
// or spaces where it can, never inside a rune.
func splitText(s string, max int) []string {
	var parts []string
	for strings.TrimSpace(s) != "" {
		if utf8.RuneCountInString(s) <= max {
			parts = append(parts, s)
			break
		}
		cut := len(truncateRunes(s, max))
		if i := strings.LastIndexAny(s[:cut], "\n "); i > cut/2 {
			cut = i + 1
		}
		parts = append(parts, s[:cut])
		s = s[cut:]
	}
	return parts
}

func truncateRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// truncate shortens s to at most n characters, marking the cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return truncateRunes(s, n-1) + "…"
}

// permanentErrors are Web API errors that the same request will hit again.
func permanentError(code string) bool {
	switch code {
	case "channel_not_found", "not_in_channel", "account_inactive", "is_archived",
		"invalid_blocks", "invalid_blocks_format", "msg_too_long", "no_text", "user_not_found":
		return true
	}
	return false
}

// sendError sorts a Web API error into retried and not retried.
func sendError(err error) error {
	var limited *slack.RateLimitedError
	var apiErr slack.SlackErrorResponse
	switch {
	case errors.As(err, &limited):
		return &hearth.RetryAfterError{After: limited.RetryAfter, Err: err}
	case errors.As(err, &apiErr) && permanentError(apiErr.Err):
		return fmt.Errorf("%w: %w", hearth.ErrPermanent, err)
	}
	return err
}
