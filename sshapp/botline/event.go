package botline

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/lobby/words"
)

// errGameDone ends a bot's play at an event's table: the game dealt there
// is over and told (or its table has gone).
var errGameDone = errors.New("the game at the event's table is over")

// errNoEvents: the server runs no events.
var errNoEvents = lobby.NewError(lobby.Unavailable, "events are not available on this server")

// ServeEvent runs the protocol for the bot me in the event of that name
// (bot --event NAME): it enters the event as a bot if it is not in it
// (events.Event.Join), is there while it is connected (Attend), and plays
// each game the event deals it, a table at a time, each seating begun
// with JOINED;TABLE;SEAT, until the event is over: EVENT
// OVER;NAME;PLACE;POINTS, and nil. A bot that hangs up is seated no more
// until it connects again (nil); the server's goodbye is ErrEnded. An
// error that kept it from entering is returned after the bot was told in
// an ERROR line.
func ServeEvent(ctx context.Context, cfg Config, s Session, me lobby.Player, name string) error {
	bs := &botSession{cfg: cfg, s: s, me: me, out: newBotWriter(s), event: true}
	bs.out.send(true, "HELLO;"+field(cfg.Lobby.Name(me.ID))+";"+textField(me.Key))
	att, err := bs.enter(ctx, name)
	if err != nil {
		bs.out.send(true, bs.errorLine(err))
		return err
	}
	defer att.Close()
	cfg.Log.Info("bot in an event", "person", me.ID, "event", name)
	in, stop := bs.readLines()
	defer close(stop)
	bye := time.NewTicker(botByePoll)
	defer bye.Stop()
	var touch <-chan time.Time
	if d := cfg.IdleTimeout; d > 0 {
		tk := time.NewTicker(max(d/3, 10*time.Millisecond))
		defer tk.Stop()
		touch = tk.C
	}
	played := ""
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-att.Ready():
			seat, ok := att.Take()
			switch {
			case !ok:
			case seat.Final:
				bs.out.send(true, eventOverLine(seat))
				return nil
			case seat.Table != "" && seat.Table != played:
				played = seat.Table
				switch err := bs.atTable(ctx, seat.Table, in); {
				case errors.Is(err, errGameDone):
				case err != nil:
					return err
				default: // hung up
					bs.standUp()
					return nil
				}
			}
		case <-att.Done():
			bs.out.send(true, ErrorLine("the event has stopped: "+lobby.Shown(events.ErrClosing)))
			return ErrEnded
		case l := <-in:
			if l.tooLong {
				bs.out.send(false, bs.errorLine(errBotTooLong))
			} else if len(l.text) > 0 {
				bs.out.send(false, bs.errorLine(errBotNotAsked))
			}
			if l.err != nil {
				return nil
			}
		case <-bye.C:
			if reason := s.GoodbyeReason(); reason != "" {
				bs.out.send(true, ErrorLine(reason))
				return ErrEnded
			}
		case <-touch:
			s.Touch() // waiting for a table is not idling
		}
	}
}

// enter finds the event, enters the bot into it if it is not in it, and
// marks it there.
func (bs *botSession) enter(ctx context.Context, name string) (*events.Attendance, error) {
	if bs.cfg.Events == nil {
		return nil, errNoEvents
	}
	cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
	defer cancel()
	asked := words.Echo(name)
	e, err := bs.cfg.Events.For(bs.me.Viewer(), name)
	if err != nil {
		return nil, lobby.Reword(err, "event %s: %s", asked, lobby.Shown(err))
	}
	if err := e.Join(cctx, bs.me, ""); err != nil && !errors.Is(err, events.ErrJoined) {
		return nil, lobby.Reword(err, "event %s: %s", asked, lobby.Shown(err))
	}
	att, err := e.Attend(cctx, bs.me)
	if err != nil {
		return nil, lobby.Reword(err, "event %s: %s", asked, lobby.Shown(err))
	}
	return att, nil
}

// atTable plays the game the event dealt the bot at the table of that
// name: JOINED;TABLE;SEAT, then the game's lines, until it is over
// (errGameDone), the bot hangs up (nil) or the server says goodbye
// (ErrEnded).
func (bs *botSession) atTable(ctx context.Context, name string, in <-chan botLine) error {
	t, err := bs.cfg.Lobby.Table(name)
	if err != nil {
		return errGameDone // closed already: its game was abandoned
	}
	cctx, cancel := context.WithTimeout(ctx, botCallTimeout)
	sub, err := t.Watch(cctx, bs.me)
	cancel()
	if err != nil {
		return errGameDone
	}
	defer sub.Close()
	bs.table, bs.sub, bs.tr, bs.prompt, bs.have, bs.paused = t, sub, nil, "", false, false
	select {
	case <-sub.Ready():
	case <-sub.Done():
	case <-ctx.Done():
		return nil
	}
	snap, ok := sub.Take()
	if !ok {
		return errGameDone
	}
	bs.snap, bs.have, bs.pending = snap, true, true
	bs.out.send(true, "JOINED;"+textField(t.Name())+";"+strconv.Itoa(max(snap.You, 0)))
	bs.flush(ctx)
	if bs.tr != nil && bs.tr.over {
		return errGameDone
	}
	return bs.play(ctx, in)
}

// standUp leaves the game running at the bot's table as it hangs up, so
// that no one waits on its turns (unless the server is shutting down,
// which keeps every game as it is).
func (bs *botSession) standUp() {
	if bs.table == nil || bs.cfg.Closing() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), botCallTimeout)
	defer cancel()
	if err := bs.table.Stand(ctx, bs.me); err != nil && !errors.Is(err, lobby.ErrNotSeated) && !errors.Is(err, lobby.ErrTableClosed) {
		bs.cfg.Log.Warn("bot could not stand", "person", bs.me.ID, "table", bs.table.Name(), "err", err)
	}
}

// eventOverLine ends an event for a bot: EVENT OVER;NAME;PLACE;POINTS.
func eventOverLine(s events.Seat) string {
	return "EVENT OVER;" + textField(s.Event) + ";" + strconv.Itoa(s.Place) + ";" + strconv.Itoa(s.Points)
}
