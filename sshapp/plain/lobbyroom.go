package plain

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/words"
)

// lobbyRoom is the lobby as the door follows it: its chat, said as it
// comes, and the tables as last listed (open N).
type lobbyRoom struct {
	box    *lobby.Mailbox[int]
	chat   chatMark
	listed []string // the names of the tables listed last, in their order
}

func newLobbyRoom(d *door) *lobbyRoom {
	r := &lobbyRoom{box: d.cfg.Lobby.Subscribe()}
	r.chat.news(d.cfg.Lobby.Chat()) // what was said before is not said again
	return r
}

func (r *lobbyRoom) close(d *door) {
	if r.box != nil {
		d.cfg.Lobby.Unsubscribe(r.box)
		r.box = nil
	}
}

// changed says the lobby chat's new lines; the tables are said when
// asked for.
func (r *lobbyRoom) changed(d *door) {
	if _, ok := r.box.Take(); !ok {
		return
	}
	for _, c := range r.chat.news(d.cfg.Lobby.Chat()) {
		if said := chatSays(c, d.muted); said != "" {
			d.say(said)
		}
	}
}

// sayTables lists the open tables, numbered, after head.
func (r *lobbyRoom) sayTables(d *door, head string) {
	infos := d.cfg.Lobby.Tables(d.me.Viewer())
	r.listed = r.listed[:0]
	if len(infos) == 0 {
		d.say(head + " No open tables. Say create to open one, or help.")
		return
	}
	choices := make([]choice, len(infos))
	for i, info := range infos {
		name := info.Name
		r.listed = append(r.listed, name)
		choices[i] = choice{
			label: words.TableSays(info.Name, info.Host, info.Taken, info.Seats,
				words.TableState(info.State, info.Paused, info.Resting), info.Private, info.Rules),
			do: func(d *door) { d.open(name) },
		}
	}
	choices = trimEnds(choices)
	d.listMenu(fmt.Sprintf("%s %s: say a number to open one, create for a new one.", head,
		words.Plural(len(infos), "1 open table", "open tables")), choices, "", nil)
}

// trimEnds takes the full stop off each table's sentence: a list item
// ends in one of its own.
func trimEnds(cs []choice) []choice {
	for i := range cs {
		cs[i].label = strings.TrimSuffix(cs[i].label, ".")
	}
	return cs
}

// word takes a line in the lobby.
func (r *lobbyRoom) word(d *door, said, text string) bool {
	verb, rest, _ := strings.Cut(said, " ")
	switch verb {
	case "tables", "list", "lobby":
		r.sayTables(d, "Lobby.")
	case "open", "play", "join":
		if rest == "" {
			d.say("Open which table? Say open and its number or its name.")
			return true
		}
		if n, err := strconv.Atoi(rest); err == nil {
			if n < 1 || n > len(r.listed) {
				d.say(fmt.Sprintf("There is no table %d in the list; say tables for it.", n))
				return true
			}
			d.open(r.listed[n-1])
			return true
		}
		_, name, _ := strings.Cut(strings.TrimSpace(text), " ")
		d.open(strings.TrimSpace(name))
	case "status", "who":
		r.status(d)
	case "create", "new":
		d.startForm()
	case "chat", "say":
		_, msg, _ := strings.Cut(strings.TrimSpace(text), " ")
		r.say(d, msg)
	default:
		return false
	}
	return true
}

// status says where the person is: the lobby, and the tables where
// they have a seat.
func (r *lobbyRoom) status(d *door) {
	seated := d.cfg.Lobby.SeatedAt(d.me.ID)
	if len(seated) == 0 {
		d.say("In the lobby; you have no seat at any table. Say tables for the open tables.")
		return
	}
	at := make([]string, len(seated))
	for i, info := range seated {
		at[i] = words.Clean(info.Name, lobby.MaxNameLen) + ", " + words.TableState(info.State, info.Paused, info.Resting)
	}
	d.say("In the lobby; you have a seat at " + strings.Join(at, "; ") + ". Say open and its name to go there.")
}

// say posts a line to the lobby chat.
func (r *lobbyRoom) say(d *door, msg string) {
	if no := chatRefused(msg); no != "" {
		d.say(no)
		return
	}
	if err := d.cfg.Lobby.Say(d.me, msg); err != nil {
		d.say("Not sent: " + words.Sentence(d.said("send the line", err)))
	}
}

// chatMark is the last chat line said: each line is said once.
type chatMark struct {
	set  bool
	at   time.Time
	from string
	text string
}

// news is the lines of a chat after the one marked (all of them when it
// is no longer there), and marks the last. The first call says none:
// what was said before the door came is not news.
func (m *chatMark) news(lines []lobby.ChatLine) []lobby.ChatLine {
	first := !m.set
	from := 0
	if m.set {
		for j := len(lines) - 1; j >= 0; j-- {
			if c := lines[j]; c.At.Equal(m.at) && c.FromID == m.from && c.Text == m.text {
				from = j + 1
				break
			}
		}
	}
	m.set = true
	if len(lines) > 0 {
		last := lines[len(lines)-1]
		m.at, m.from, m.text = last.At, last.FromID, last.Text
	}
	if first {
		return nil
	}
	return lines[from:]
}

// chatSays is a chat line said, who said it first: "bob says: hello.";
// a notice from the server as it is. Muted, a person's line is "".
func chatSays(c lobby.ChatLine, muted bool) string {
	if c.FromID == "" {
		return "Notice: " + words.Sentence(c.Text)
	}
	if muted {
		return ""
	}
	return words.Label(words.Clean(c.From, lobby.MaxNameLen), c.Bot) + " says: " + c.Text
}

// chatRefused is why a chat line is not sent (the chat would not take
// it whole), "" for a line it takes.
func chatRefused(msg string) string {
	switch n := len([]rune(msg)); {
	case strings.TrimSpace(msg) == "":
		return "Say chat and then your text, on one line."
	case n > lobby.MaxChatRunes:
		return fmt.Sprintf("A chat line holds %d characters; yours has %d. Nothing was sent.", lobby.MaxChatRunes, n)
	}
	return ""
}
