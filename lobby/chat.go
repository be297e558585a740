package lobby

import (
	"fmt"
	"math"
	"time"
)

// MaxChatRunes is the longest chat line, in runes.
const MaxChatRunes = 200

// ChatLine is one cleaned chat message.
type ChatLine struct {
	At     time.Time
	FromID string // who said it (a person's id); empty for a notice from the server
	From   string // their name now: kept up to date by Renamed
	Bot    bool   // said from a bot's seat or session
	Text   string
}

// chatLog keeps the last lines of a chat and rate-limits each speaker
// (by person id).
type chatLog struct {
	lines   []ChatLine
	buckets map[string]*bucket
}

// ChatKeep is how many lines a chat keeps: a table's are stored with it
// (Storage.AddChat) and come back after a restart.
const ChatKeep = 50

// The chat's rate limit: chatBurst lines at once, then one every chatEvery.
const (
	chatBurst = 5
	chatEvery = 2 * time.Second
)

// ChatFloodError is a line the chat's rate limit refused. It holds the
// line, so that the door it came through can give it back to its sender
// (nothing typed is lost), and how long until the chat takes the next.
// It matches ErrChatFlood, and is Refused.
type ChatFloodError struct {
	Text string
	Wait time.Duration
}

func (e *ChatFloodError) Error() string {
	return fmt.Sprintf("slow down: the next line in %ds", int(math.Ceil(e.Wait.Seconds())))
}

// Kind is Refused.
func (e *ChatFloodError) Kind() ErrorKind { return Refused }

// Is reports whether target is ErrChatFlood.
func (e *ChatFloodError) Is(target error) bool { return target == ErrChatFlood }

type bucket struct {
	tokens float64
	last   time.Time
}

// allow takes a token for the person id at now, refilling chatBurst tokens over
// chatBurst*chatEvery; without one, it returns how long until there is.
func (c *chatLog) allow(id string, now time.Time) (bool, time.Duration) {
	if c.buckets == nil {
		c.buckets = make(map[string]*bucket)
	}
	b := c.buckets[id]
	if b == nil {
		b = &bucket{tokens: chatBurst, last: now}
		c.buckets[id] = b
	}
	b.tokens = min(chatBurst, b.tokens+now.Sub(b.last).Seconds()/chatEvery.Seconds())
	b.last = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) * float64(chatEvery))
	}
	b.tokens--
	return true, 0
}

// take rate-limits a line of the person id: nil if the chat takes it now, else a
// *ChatFloodError with the line.
func (c *chatLog) take(id, text string, now time.Time) error {
	if ok, wait := c.allow(id, now); !ok {
		return &ChatFloodError{Text: text, Wait: wait}
	}
	return nil
}

func (c *chatLog) add(l ChatLine) {
	c.lines = append(c.lines, l)
	if len(c.lines) > ChatKeep {
		c.lines = append([]ChatLine(nil), c.lines[len(c.lines)-ChatKeep:]...)
	}
}

// recent returns the kept lines; the slice is shared and must not be
// modified (add never writes into a slice it has handed out).
func (c *chatLog) recent() []ChatLine { return c.lines[:len(c.lines):len(c.lines)] }

// renamed gives the lines of the person id their new name. The lines
// handed out stay as they were: the log is copied when a line changes.
func (c *chatLog) renamed(id, name string) bool { return c.rewrite(id, id, name) }

// merged gives the lines of the person from, merged into into, into's id
// and name.
func (c *chatLog) merged(from, into, name string) {
	c.rewrite(from, into, name)
	if b, ok := c.buckets[from]; ok {
		delete(c.buckets, from)
		if _, taken := c.buckets[into]; !taken {
			c.buckets[into] = b
		}
	}
}

// rewrite reports whether a line changed.
func (c *chatLog) rewrite(from, into, name string) bool {
	var out []ChatLine
	for i, l := range c.lines {
		if l.FromID != from || l.FromID == into && l.From == name {
			continue
		}
		if out == nil {
			out = append(make([]ChatLine, 0, len(c.lines)), c.lines...)
		}
		out[i].FromID, out[i].From = into, name
	}
	if out != nil {
		c.lines = out
	}
	return out != nil
}

// has reports whether the person id said any of the lines kept.
func (c *chatLog) has(id string) bool {
	for _, l := range c.lines {
		if l.FromID == id {
			return true
		}
	}
	return false
}
