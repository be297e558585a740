package tui

import (
	"context"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mia-game/mia/lobby"
)

// The notices: wherever a person is in their session (the lobby, the
// history, another table), the news addressed to them (lobby.Notices: a
// game of theirs started, their turn at a table they do not have open, an
// invitation, a seat free at a table they watch, a hook of theirs paused,
// an event they entered begun while they are not at it)
// shows as one line in place of the screen's last, with one terminal bell
// (Config.Bell) for each batch of news, unless they turned the bell off.
// enter takes them there (an invitation: joins first), esc puts the line
// away; any other key goes to the screen. A notice of the table shown is
// not shown: it is in front of them.

// Alerts is what the screens ask of the alerts (sshapp/alerts): the tables
// the person watches (w in the lobby) and their invitations (the lobby's
// list). *alerts.Alerts implements it.
type Alerts interface {
	Watch(ctx context.Context, p lobby.Player, name string) (*lobby.Table, error)
	Unwatch(ctx context.Context, p lobby.Player, name string) error
	Watches(ctx context.Context, p lobby.Player) ([]string, error)
	Invitations(ctx context.Context, person string) ([]lobby.News, error)
	DropInvitation(ctx context.Context, person, table string) error
}

// noticeFor is how long a notice stays unless put away.
const noticeFor = 20 * time.Second

// notice is the notice shown.
type notice struct {
	news  lobby.News
	start bool // a game of theirs started (and news may be its first turn)
	gen   int  // its number: the tick that puts it away names it
}

// noticesMsg says news waits in q.
type noticesMsg struct{ q *lobby.Queue[lobby.News] }

// followingMsg says the notices are heard in q from now on: the root then
// waits for them (a wait of its own, which a test that runs commands one
// by one leaves out).
type followingMsg struct{ q *lobby.Queue[lobby.News] }

// noticeOverMsg puts away the notice numbered gen, its time over.
type noticeOverMsg struct{ gen int }

// noticeTickMsg draws the notice numbered gen again, a turn's clock a
// second on.
type noticeTickMsg struct{ gen int }

// invitedMsg tells the screen shown that an invitation came (the lobby
// lists it).
type invitedMsg struct{}

// tableShower is a screen that shows a table: its notices are not shown.
type tableShower interface{ showsTable() string }

// follow starts hearing the person's notices, once they have a name; nil
// when there is nothing to follow or it follows already.
func (m *Model) follow() tea.Cmd {
	c := m.c.cfg
	if m.notices != nil || c.Lobby == nil || c.Player.ID == "" {
		return nil
	}
	q := c.Lobby.Notices(c.Player.ID)
	m.notices = q
	if post := c.Post; post != nil {
		q.OnReady(func() { post(noticesMsg{q: q}) })
		return nil
	}
	return func() tea.Msg { return followingMsg{q: q} }
}

// unfollow stops hearing notices, and ends the notice's timer.
func (m *Model) unfollow() tea.Cmd {
	m.goneOnce.Do(func() { close(m.gone) })
	q := m.notices
	if q == nil {
		return nil
	}
	m.notices = nil
	l := m.c.cfg.Lobby
	return func() tea.Msg { l.Unfollow(q); return nil }
}

// waitNotices waits for news in q; when done closes (the session ended) it
// stops hearing them.
func waitNotices(l *lobby.Lobby, q *lobby.Queue[lobby.News], done <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-q.Ready():
			return noticesMsg{q: q}
		case <-q.Done():
			return nil
		case <-done:
			l.Unfollow(q)
			return nil
		}
	}
}

// heard takes the news waiting: the newest worth showing becomes the
// notice, and one bell rings for them all.
func (m *Model) heard(msg noticesMsg) tea.Cmd {
	if msg.q != m.notices {
		return nil
	}
	shown := ""
	if s, ok := m.cur.(tableShower); ok {
		shown = strings.ToLower(s.showsTable())
	}
	var (
		next    *notice
		invited bool
	)
	for _, n := range msg.q.Take() {
		if n.Kind == lobby.NewsInvited {
			invited = true
		}
		if shown != "" && strings.ToLower(n.Table) == shown {
			continue
		}
		nt := &notice{news: n, start: n.Kind == lobby.NewsGameStarted}
		if next != nil && next.start && n.Kind == lobby.NewsTurn && strings.EqualFold(next.news.Table, n.Table) {
			nt.start = true // the game's start and its first turn: one line
		}
		next = nt
	}
	var cmds []tea.Cmd
	if m.c.cfg.Post == nil {
		cmds = append(cmds, waitNotices(m.c.cfg.Lobby, msg.q, m.c.cfg.Done))
	}
	if invited {
		cur := m.cur
		cmds = append(cmds, func() tea.Msg { return reply{to: cur, msg: invitedMsg{}} })
	}
	if next == nil {
		return tea.Batch(cmds...)
	}
	m.noticeGen++
	next.gen = m.noticeGen
	m.notice = next
	gen := next.gen
	cmds = append(cmds, m.noticeTimer(noticeFor, noticeOverMsg{gen: gen}))
	if next.news.Kind == lobby.NewsTurn && !next.start {
		cmds = append(cmds, m.noticeTimer(time.Second, noticeTickMsg{gen: gen}))
	}
	if bell := m.c.cfg.Bell; bell != nil {
		c := m.c
		cmds = append(cmds, func() tea.Msg { // the setting is read off the event loop
			if c.bellOn() {
				bell()
			}
			return nil
		})
	}
	return tea.Batch(cmds...)
}

// noticeTimer says msg (of one notice) once d has passed (its
// time over, or a second of a turn's clock); it waits no longer than the
// session (or the program) lasts.
func (m *Model) noticeTimer(d time.Duration, msg tea.Msg) tea.Cmd {
	done, gone := m.c.cfg.Done, m.gone
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return msg
		case <-done:
		case <-gone:
		}
		return nil
	}
}

// noticeKeys are the notice's keys.
var (
	noticeGo      = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go there"))
	noticeDismiss = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "dismiss"))
)

// noticeKey takes the notice's keys while it shows and the screen does
// not type: enter goes there, esc puts it away. ok is false for any other
// key, which goes to the screen.
func (m *Model) noticeKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	if m.notice == nil || m.cur == nil || m.cur.Typing() {
		return nil, false
	}
	switch {
	case key.Matches(msg, noticeDismiss):
		m.notice = nil
		return nil, true
	case key.Matches(msg, noticeGo):
		n := m.notice.news
		m.notice = nil
		switch {
		case n.Kind == lobby.NewsInvited:
			return m.takeInvitation(n), true
		case n.Event != nil:
			return m.goTo(goTo{to: screenEvent, event: n.Event.Name}), true
		}
		return m.goTo(goTo{to: screenTable, table: n.Table}), true
	}
	return nil, false
}

// takeInvitation joins the table of an invitation (with its code, for a
// private table) and opens it; the invitation is spent either way.
func (m *Model) takeInvitation(n lobby.News) tea.Cmd {
	code := n.Code
	return m.goTo(goTo{to: screenTable, table: n.Table, invite: &code})
}

// noticeLine is the notice in words, with its keys, cut to w.
func (m *Model) noticeLine(w int) string {
	n := m.notice.news
	say := m.c.cfg.Lobby.Noticed(n, m.notice.start, m.c.cfg.Now())
	// The keys stay whole: the news is cut, and esc left out, to fit.
	// enter takes them there (to watch, an invitation too, until they sit).
	keys := " · enter: go there"
	if esc := " · esc: dismiss"; ansi.StringWidth("» "+say+keys+esc) <= w {
		keys += esc
	}
	return m.c.s.Turn.Render(cut("» "+cut(say, max(1, w-2-ansi.StringWidth(keys)))+keys, w))
}

// withNotice is a screen's view with the notice in place of its last
// line.
func (m *Model) withNotice(view string) string {
	if m.notice == nil {
		return view
	}
	w, _ := m.size()
	line := m.noticeLine(w)
	if i := strings.LastIndexByte(view, '\n'); i >= 0 {
		return view[:i+1] + line
	}
	return line
}

// bellOn reports whether the person wants the bell rung with a notice.
func (c *common) bellOn() bool {
	return c.cfg.BellOff == nil || !c.cfg.BellOff()
}
