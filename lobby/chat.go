package lobby

import "time"

// ChatLine is one cleaned chat message.
type ChatLine struct {
	At   time.Time
	From string // display name; empty for a notice from the server
	Bot  bool
	Text string
}

// chatLog keeps the last lines of a chat and rate-limits each speaker.
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
