package lobby

import (
	"fmt"
	"math"
	"time"
)

// ChatLine is one cleaned chat message.
type ChatLine struct {
	At          time.Time
	From        string // display name; empty for a notice from the server
	Fingerprint string // who said it (the player's identity); empty for a notice
	Bot         bool
	Text        string
}

// chatLog keeps the last lines of a chat and rate-limits each speaker.
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
// It matches ErrChatFlood.
type ChatFloodError struct {
	Text string
	Wait time.Duration
}

func (e *ChatFloodError) Error() string {
	return fmt.Sprintf("slow down: the next line in %ds", int(math.Ceil(e.Wait.Seconds())))
}

// Is reports whether target is ErrChatFlood.
func (e *ChatFloodError) Is(target error) bool { return target == ErrChatFlood }

type bucket struct {
	tokens float64
	last   time.Time
}

// allow takes a token for fp at now, refilling chatBurst tokens over
// chatBurst*chatEvery; without one, it returns how long until there is.
func (c *chatLog) allow(fp string, now time.Time) (bool, time.Duration) {
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
		return false, time.Duration((1 - b.tokens) * float64(chatEvery))
	}
	b.tokens--
	return true, 0
}

// take rate-limits a line of p's: nil if the chat takes it now, else a
// *ChatFloodError with the line.
func (c *chatLog) take(fp, text string, now time.Time) error {
	if ok, wait := c.allow(fp, now); !ok {
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
