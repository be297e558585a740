package lobby

import "time"

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

const (
	chatKeep  = 50
	chatBurst = 5               // messages at once
	chatEvery = 2 * time.Second // one more message per interval
)

type bucket struct {
	tokens float64
	last   time.Time
}

// allow takes a token for fp at now, refilling chatBurst tokens over
// chatBurst*chatEvery.
func (c *chatLog) allow(fp string, now time.Time) bool {
	if c.buckets == nil {
		c.buckets = make(map[string]*bucket)
	}
	b := c.buckets[fp]
	if b == nil {
		b = &bucket{tokens: chatBurst, last: now}
		c.buckets[fp] = b
	}
	b.tokens = min(chatBurst, b.tokens+now.Sub(b.last).Seconds()/chatEvery.Seconds())
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (c *chatLog) add(l ChatLine) {
	c.lines = append(c.lines, l)
	if len(c.lines) > chatKeep {
		c.lines = append([]ChatLine(nil), c.lines[len(c.lines)-chatKeep:]...)
	}
}

// recent returns the kept lines; the slice is shared and must not be
// modified (add never writes into a slice it has handed out).
func (c *chatLog) recent() []ChatLine { return c.lines[:len(c.lines):len(c.lines)] }

// renamed gives the lines of the person id their new name. The lines
// handed out stay as they were: the log is copied when a line changes.
func (c *chatLog) renamed(id, name string) { c.rewrite(id, id, name) }

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

func (c *chatLog) rewrite(from, into, name string) {
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
