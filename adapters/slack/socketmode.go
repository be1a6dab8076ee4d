package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/hearthbot/hearth"
)

// socketAcceptTimeout bounds one attempt to store an envelope's event.
const socketAcceptTimeout = 10 * time.Second

// RunSocketMode receives events, clicks and slash commands over Socket
// Mode (no public URL needed; Config.AppToken is required) until ctx
// ends, feeding them through the same mapping and Inbox as the HTTP
// handlers. An envelope is acknowledged only after its event is stored
// (or found not worth storing); one the database could not take is left
// unacknowledged, so Slack delivers it again. Socket Mode is for a single
// instance; replicas use the HTTP endpoints.
func (a *Adapter) RunSocketMode(ctx context.Context) error {
	if a.cfg.AppToken == "" {
		return errors.New("slack socket mode: no app token configured")
	}
	if a.cfg.Inbox == nil {
		return errors.New("slack socket mode: no inbox configured")
	}
	sm := socketmode.New(a.api)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- sm.RunContext(ctx) }()
	for {
		select {
		case <-ctx.Done():
			<-done
			return nil
		case err := <-done:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("slack socket mode: %w", err)
		case evt, ok := <-sm.Events:
			if !ok {
				return nil
			}
			a.onSocketEvent(ctx, sm, evt)
		}
	}
}

// onSocketEvent handles one Socket Mode event.
func (a *Adapter) onSocketEvent(ctx context.Context, sm *socketmode.Client, evt socketmode.Event) {
	if evt.Request == nil || evt.Request.EnvelopeID == "" {
		return // connection state changes: nothing to acknowledge
	}
	req := *evt.Request
	log := a.cfg.Logger.With("envelope_id", req.EnvelopeID, "type", evt.Type)
	var (
		in    hearth.Inbound
		store bool
		err   error
		reply any
	)
	switch evt.Type {
	case socketmode.EventTypeEventsAPI:
		in, store, err = a.callbackInbound(req.Payload)
	case socketmode.EventTypeInteractive:
		in, store, err = a.clickInbound(req.Payload)
	case socketmode.EventTypeSlashCommand:
		var cmd slack.SlashCommand
		if err = json.Unmarshal(req.Payload, &cmd); err == nil {
			var text string
			text, in, store, err = a.command(cmd, req.Payload)
			reply = ephemeral(text)
		}
	}
	if err != nil {
		// Slack would send the same bytes again: acknowledge and drop.
		log.WarnContext(ctx, "slack socket mode: malformed envelope dropped", "error", err)
		store = false
	}
	if store {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), socketAcceptTimeout)
		_, err := a.cfg.Inbox.Accept(actx, in)
		cancel()
		switch {
		case errors.Is(err, hearth.ErrInvalid):
			log.WarnContext(ctx, "slack socket mode: event refused", "error", err)
			if evt.Type == socketmode.EventTypeSlashCommand {
				reply = ephemeral(refusal(err))
			} else if in.Kind != hearth.KindButton {
				a.refuse(ctx, in, err)
			}
		case err != nil:
			// Not acknowledged: Slack redelivers the envelope.
			log.ErrorContext(ctx, "slack socket mode: could not store event; left for Slack to redeliver", "error", err)
			return
		}
	}
	ackErr := sm.AckCtx(ctx, req.EnvelopeID, reply)
	if ackErr != nil {
		log.WarnContext(ctx, "slack socket mode: ack", "error", ackErr)
	}
}
