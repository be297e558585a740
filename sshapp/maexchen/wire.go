package maexchen

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/ident"
)

// The wire of the Mäxchen bot server: one message a datagram, UTF-8,
// fields separated by ";", no line terminator on output.

// MaxDatagram is the longest message the gateway reads or writes; a longer
// datagram is dropped unread. Bots read 1000 or 1024 bytes.
const MaxDatagram = 1000

// MaxNameRunes is the longest name a Mäxchen bot may register.
const MaxNameRunes = lobby.MaxUDPNameLen

// IDPrefix starts the person id of every UDP player ("maexchen:NAME", a
// key-less kind of lobby/ident): an identity space of its own, never a
// person with keys nor a built-in bot.
const IDPrefix = ident.UDPBotPrefix

// command is the first field of a datagram from a bot.
type command uint8

const (
	cmdNone command = iota
	cmdRegister
	cmdSpectator
	cmdUnregister
	cmdHeartbeat
	cmdJoin
	cmdRoll
	cmdSee
	cmdAnnounce
)

// message is one parsed datagram from a bot. Anything that is not one of
// the protocol's messages, well formed, parses to cmdNone and is ignored.
type message struct {
	cmd   command
	name  string       // REGISTER, REGISTER_SPECTATOR
	token string       // JOIN, ROLL, SEE, ANNOUNCE
	dice  engine.Value // ANNOUNCE
}

// parse reads one datagram. A trailing "\n" or "\r\n" is allowed.
func parse(b []byte) message {
	if len(b) > MaxDatagram {
		return message{}
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	if !utf8.Valid(b) {
		return message{}
	}
	f := strings.Split(string(b), ";")
	// Like the original server, fields past those a message needs are
	// ignored.
	arg := func(i int) string {
		if i < len(f) {
			return f[i]
		}
		return ""
	}
	m := message{name: arg(1), token: arg(1)}
	switch f[0] {
	case "REGISTER":
		m.cmd = cmdRegister
	case "REGISTER_SPECTATOR":
		m.cmd = cmdSpectator
	case "UNREGISTER":
		m.cmd = cmdUnregister
	case "HEARTBEAT":
		m.cmd = cmdHeartbeat
	case "JOIN":
		m.cmd = cmdJoin
	case "ROLL":
		m.cmd = cmdRoll
	case "SEE":
		m.cmd = cmdSee
	case "ANNOUNCE":
		v, ok := parseDice(arg(1))
		if !ok {
			return message{}
		}
		m.cmd, m.dice, m.token = cmdAnnounce, v, arg(2)
	default:
		return message{}
	}
	if m.cmd >= cmdJoin && !validToken(m.token) {
		return message{}
	}
	return m
}

// parseDice reads "D1,D2", the dice in either order: "3,1" and "1,3" are
// both 31.
func parseDice(s string) (engine.Value, bool) {
	if len(s) != 3 || s[1] != ',' {
		return engine.NoValue, false
	}
	v, err := engine.ParseValue(s)
	return v, err == nil
}

// tokenLen is the length of every token the gateway makes.
const tokenLen = 32

func validToken(s string) bool { return len(s) == tokenLen }

// newToken is a fresh, unguessable token: 32 hex digits, no ";" and no
// white space.
func newToken() string {
	var b [tokenLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err)) // never fails on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// checkName is the one name rule (lobby.CheckNameUpTo) with the Mäxchen
// server's length, 1 to 20 characters: A-Z a-z 0-9 _ . -, not starting
// with "-" (which keeps out the white space, ",", ";" and ":" the original
// server refuses, and anything a terminal would show otherwise), no
// built-in bot's name nor the gateway's own nor one that looks like them.
func checkName(name string) error { return lobby.CheckNameUpTo(name, MaxNameRunes) }

// validName reports whether name has the shape of a name (checkName but
// for the names reserved): a bad one is REJECTED;INVALID_NAME, a reserved
// one NAME_ALREADY_TAKEN.
func validName(name string) bool { return !errors.Is(checkName(name), lobby.ErrBadName) }

// Reasons of REJECTED.
const (
	rejectInvalidName = "INVALID_NAME"
	rejectNameTaken   = "NAME_ALREADY_TAKEN"
	rejectFull        = "SERVER_FULL"
	rejectBanned      = "BANNED"
)

// Reasons of PLAYER LOST.
const (
	lostCaught        = "CAUGHT_BLUFFING"
	lostSeeFailed     = "SEE_FAILED"
	lostMia           = "MIA"
	lostLiedAboutMia  = "LIED_ABOUT_MIA"
	lostLosingDice    = "ANNOUNCED_LOSING_DICE"
	lostSeeFirst      = "SEE_BEFORE_FIRST_ROLL"
	lostNoTurn        = "DID_NOT_TAKE_TURN"
	lostDidNotAnnouce = "DID_NOT_ANNOUNCE"
)

// The messages the gateway sends. Dice are written higher die first.
const (
	msgRegistered   = "REGISTERED"
	msgUnregistered = "UNREGISTERED"
	msgHeartbeat    = "HEARTBEAT"
)

func msgRejected(reason string) string      { return "REJECTED;" + reason }
func msgRoundStarting(token string) string  { return "ROUND STARTING;" + token }
func msgRoundCanceled(reason string) string { return "ROUND CANCELED;" + reason }
func msgYourTurn(token string) string       { return "YOUR TURN;" + token }
func msgPlayerRolls(name string) string     { return "PLAYER ROLLS;" + name }
func msgWantsToSee(name string) string      { return "PLAYER WANTS TO SEE;" + name }

func msgRoundStarted(n int, names []string) string {
	return "ROUND STARTED;" + strconv.Itoa(n) + ";" + strings.Join(names, ",")
}

func msgRolled(dice engine.Value, token string) string {
	return "ROLLED;" + dice.Comma() + ";" + token
}

func msgAnnounced(name string, v engine.Value) string {
	return "ANNOUNCED;" + name + ";" + v.Comma()
}

func msgActualDice(v engine.Value) string { return "ACTUAL DICE;" + v.Comma() }

func msgPlayerLost(names []string, reason string) string {
	return "PLAYER LOST;" + strings.Join(names, ",") + ";" + reason
}

// score is one entry of SCORE.
type score struct {
	name   string
	points int
}

// msgScore is SCORE;name:points,… with as many entries as fit in
// MaxDatagram, in the order given.
func msgScore(scores []score) string {
	var b strings.Builder
	b.WriteString("SCORE;")
	for i, s := range scores {
		entry := s.name + ":" + strconv.Itoa(s.points)
		if i > 0 {
			entry = "," + entry
		}
		if b.Len()+len(entry) > MaxDatagram {
			break
		}
		b.WriteString(entry)
	}
	return b.String()
}
