package lobby

import (
	"context"
	"errors"
	"fmt"

	"github.com/charmbracelet/log"

	"github.com/mia-game/mia/engine"
	"github.com/mia-game/mia/engine/fair"
)

// ErrorKind is what an error means to the door that answers it: the kind
// decides what the door answers (an exit status, an HTTP status, whether
// it logs), and the error's sentence is what a person reads. Every error
// a door may meet has one (KindOf; an error without one is Internal), and
// every door tells an error through Shown, never through its text:
//
//	kind         shown                             command  bot line       web  logged
//	Refused      its sentence                      exit 1   ERROR;SENTENCE 403  no
//	NotFound     its sentence                      exit 1   ERROR;SENTENCE 404  no
//	Unavailable  its sentence, else sayUnavailable exit 1   ERROR;SENTENCE 503  when it has none
//	Internal     sayInternal, never its text       exit 1   ERROR;SENTENCE 500  always
//
// Each door maps kinds in one function: sshapp/command's Call.fail,
// sshapp/botline's errorLine, sshapp/web's Server.fail, sshapp/tui's
// common.said. The Mäxchen gateway sends no sentences: its REJECTED and
// ROUND CANCELED reasons are the protocol's codes, chosen by errors.Is,
// and it logs an Internal error's text.
//
// An error made here (NewError, Errorf, Reword) or a typed error with a
// Kind method has its kind, and so has one that names its kind, of a
// package that may not import the lobby (namedKind: sshapp/verdict's);
// a new exported sentinel or error type of this package must have one
// other than Internal (errors_test.go reads the source to hold every one
// to it).
type ErrorKind int

// The kinds. The zero ErrorKind is Internal: an error nobody gave a kind is
// treated as a fault, logged and never shown.
const (
	// Internal is a fault (a store that failed, a bug): the door logs the
	// error and shows a fixed sentence, never the error's text.
	Internal ErrorKind = iota
	// Refused: a rule says no. The error's sentence tells the person why.
	Refused
	// NotFound: no such table, person, game or bot — or one the asker may
	// not see, which gets the same answer. The sentence says what.
	NotFound
	// Unavailable: the server cannot do it now (its storage does not
	// answer, the table is paused, the server is shutting down, the
	// request ran out of time): try again later. Shown with its own
	// sentence when it has one (ErrPaused), else with a fixed one.
	Unavailable
)

func (k ErrorKind) String() string {
	switch k {
	case Refused:
		return "refused"
	case NotFound:
		return "not found"
	case Unavailable:
		return "unavailable"
	}
	return "internal"
}

// The fixed sentences of the errors whose own text is not shown.
const (
	sayInternal    = "something went wrong on the server; please try again later"
	sayUnavailable = "the server could not answer in time; please try again later"
)

// Error is an error of a kind, with the sentence a person reads. Made by
// NewError it is a sentinel, matched by errors.Is by identity; made by
// Errorf or Reword it wraps another error for errors.Is and errors.As.
type Error struct {
	kind ErrorKind
	say  string
	err  error // wrapped, or nil
}

// Error is the sentence.
func (e *Error) Error() string { return e.say }

// Kind is the error's kind.
func (e *Error) Kind() ErrorKind { return e.kind }

// Unwrap is the error it wraps, if any.
func (e *Error) Unwrap() error { return e.err }

// NewError is an error of kind k that reads sentence: a sentinel.
func NewError(k ErrorKind, sentence string) error { return &Error{kind: k, say: sentence} }

// Errorf is an error of kind k whose sentence is formatted as by
// fmt.Errorf; a %w verb wraps its operand (errors.Is, errors.As) as
// fmt.Errorf's does. Whatever it wraps, its kind is k.
func Errorf(k ErrorKind, format string, a ...any) error {
	w := fmt.Errorf(format, a...)
	e := &Error{kind: k, say: w.Error()}
	switch w.(type) {
	case interface{ Unwrap() error }, interface{ Unwrap() []error }:
		e.err = w
	}
	return e
}

// Reword is err, of err's kind and matching what err matches (errors.Is,
// errors.As), with a sentence of its own, formatted as by fmt.Sprintf:
// the door's words for an error ("no player is called bob"). An error
// whose sentence Shown hides (Hides) is returned as it is: it is shown
// with the fixed sentence whatever the words, and its text stays whole
// for the log. Reword(nil, …) is nil.
func Reword(err error, format string, a ...any) error {
	if err == nil || Hides(err) {
		return err
	}
	return &Error{kind: KindOf(err), say: fmt.Sprintf(format, a...), err: err}
}

// kinded is an error that knows its kind: *Error and the typed errors of
// this package (*NameError, *LookalikeError, *HostStartsError,
// *ChatFloodError).
type kinded interface {
	error
	Kind() ErrorKind
}

// namedKind is an error of a package the lobby may not know of, which
// may not import it either (sshapp/verdict), that names its kind as
// ErrorKind.String does: "refused", "not found", "unavailable". Its
// sentence is for people. A kinded error in the same chain goes first.
type namedKind interface {
	error
	KindName() string
}

// kindNamed is the kind a namedKind names; Internal for a name it does
// not know.
func kindNamed(name string) ErrorKind {
	for _, k := range []ErrorKind{Refused, NotFound, Unavailable} {
		if k.String() == name {
			return k
		}
	}
	return Internal
}

// refusedElsewhere are the refusals of the packages below the lobby,
// which cannot know its kinds: their text is a sentence for people. The
// first that an error matches (errors.Is) gives its sentence.
var refusedElsewhere = []error{
	fair.ErrSeedTooLong, // before ErrBadPlayerSeed, which it matches
	fair.ErrBadPlayerSeed,
	engine.ErrBadSeats,
	engine.ErrBadOptions,
	engine.ErrBadValue,
}

// classify is err's kind and, when it has one for people, its sentence:
// the sentence of the first error in its chain that has a kind (so a
// wrapper that adds context for the logs, as fmt.Errorf("save table %s:
// %w", …) does, adds nothing to what is shown); else that of the first
// that names one (namedKind); else that of an engine
// refusal (*engine.RuleError, *engine.OptionError, the sentinels above);
// else Unavailable without a sentence for a ctx that ended or a write
// still under way (PendingWrite); else Internal.
func classify(err error) (ErrorKind, string) {
	var k kinded
	if errors.As(err, &k) {
		return k.Kind(), k.Error()
	}
	var named namedKind
	if errors.As(err, &named) {
		if k := kindNamed(named.KindName()); k != Internal {
			return k, named.Error()
		}
	}
	var rule *engine.RuleError
	if errors.As(err, &rule) {
		return Refused, rule.Error()
	}
	var opt *engine.OptionError
	if errors.As(err, &opt) {
		return Refused, opt.Error()
	}
	for _, r := range refusedElsewhere {
		if errors.Is(err, r) {
			return Refused, r.Error()
		}
	}
	var pw PendingWrite
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || errors.As(err, &pw) {
		return Unavailable, ""
	}
	return Internal, ""
}

// KindOf is err's kind: that of the first error in its chain that has
// one (Error, or a typed error with a Kind method); Refused for the
// engine's refusals (a move or an option the rules refuse, a player's
// seed); Unavailable for a ctx that ended (context.DeadlineExceeded,
// context.Canceled) and a storage write still under way
// (PendingWrite); Internal for anything else, and for nil.
func KindOf(err error) ErrorKind {
	if err == nil {
		return Internal
	}
	k, _ := classify(err)
	return k
}

// Shown is the sentence a person reads for err, at every door: the
// sentence of a Refused or NotFound error (its own, not the context its
// wrappers add for the logs); that of an Unavailable one if it has one,
// else a fixed sentence; a fixed sentence for an Internal error, never
// its text. "" for nil.
func Shown(err error) string {
	if err == nil {
		return ""
	}
	switch k, say := classify(err); {
	case k == Refused || k == NotFound:
		return say
	case k == Unavailable && say != "":
		return say
	case k == Unavailable:
		return sayUnavailable
	}
	return sayInternal
}

// Hides reports whether Shown(err) hides what went wrong: an Internal
// error, or an Unavailable one without a sentence of its own. The door
// logs such an error where it answers it (LogHidden); the errors shown as
// they are need no log.
func Hides(err error) bool {
	if err == nil {
		return false
	}
	k, say := classify(err)
	return k == Internal || k == Unavailable && say == ""
}

// LogHidden logs err on l, with msg and keyvals, when Shown hides it
// (Hides): an Internal error as an error, an Unavailable one as a
// warning. A door calls it where it answers an error.
func LogHidden(l *log.Logger, err error, msg string, keyvals ...any) {
	if l == nil || !Hides(err) {
		return
	}
	keyvals = append(keyvals, "err", err)
	if KindOf(err) == Unavailable {
		l.Warn(msg, keyvals...)
		return
	}
	l.Error(msg, keyvals...)
}
