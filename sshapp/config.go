package sshapp

import (
	"context"
	"net/netip"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/sshapp/botline"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/internal/netsource"
	"github.com/mia-game/mia/sshapp/tui"
	"github.com/mia-game/mia/store"
)

// Players is what the server itself needs of the people: who a key
// belongs to, when it was last seen, and their name.
type Players interface {
	PersonByKey(ctx context.Context, fingerprint string) (store.Person, error)
	SetName(ctx context.Context, fingerprint, name string) (store.Person, error)
	Touch(ctx context.Context, fingerprint string, at time.Time) error
}

// Bans is what the server needs to refuse a banned key, or a key of a
// banned person, at the door.
type Bans interface {
	Banned(ctx context.Context, fingerprint string) (store.Ban, error)
}

// Storage is everything the server and its rooms read and write, one
// small interface for each user, declared where it is used. *store.Store
// implements all of them; cmd/mia passes it to each.
type Storage struct {
	// Players is the server's own: identity and names. Required.
	Players Players
	// Bans refuses banned keys at the door; nil: no key is banned.
	Bans Bans
	// Commands is the commands' players and tables. Required.
	Commands command.Players
	// Records is the history, ratings and bans of the commands; nil:
	// history, replay, stats, leaderboard and ban are refused.
	Records command.Records
	// Screens is the stored history behind the history, replay and stats
	// screens; nil: those keys say "history is not available".
	Screens tui.Records
	// Games is where a bot that fell behind reads the end of a game; nil:
	// it misses the end of that game.
	Games botline.Games
	// Backups is the copies of the database the backup command streams;
	// nil: backup is refused.
	Backups command.Backups
	// UDPNames is the Mäxchen bots' names taken for their addresses, of
	// the maexchen command; nil: maexchen is refused.
	UDPNames command.UDPNames
}

// Config configures a Server. HostKey, Storage.Players and
// Storage.Commands are required; every other field has a default.
type Config struct {
	// HostKey signs the handshake (hostkeys.LoadOrCreate).
	HostKey gossh.Signer
	// Storage is the server's storage.
	Storage Storage
	// Lobby is the live table registry. Nil serves commands and a name
	// prompt only (as some tests do).
	Lobby *lobby.Lobby
	// Admins marks server admins by key. Nil: nobody is an admin.
	Admins KeySet
	// Allow, when non-nil, is the only keys that may connect (even if
	// empty). Nil: any key may connect.
	Allow KeySet
	// Log receives the server's logs; a discarding logger if nil.
	Log *log.Logger
	// PublicAddr is how people reach the server ("mia.example.org:23234"),
	// used in hints such as "ssh -p 23234 mia.example.org name NEW". Empty:
	// the local address of each connection.
	PublicAddr string
	// Limits protect the server from slow, idle and greedy clients.
	Limits Limits
	// ProxyFrom is the addresses (a load balancer's) whose connections
	// begin with a PROXY protocol header (v1 or v2) naming the real
	// client, which every per-source limit then counts; they must send
	// one. A header from any other address is refused. Empty: no proxy is
	// trusted (ParseNetworks reads the list).
	ProxyFrom []netip.Prefix
	// Now is the clock; time.Now if nil.
	Now func() time.Time
	// Web is the web window's addresses (sshapp/web's Links): table link
	// prints them, and history, replay and the table screen print each
	// game's when its public address is set. Nil: no web window.
	Web command.WebLinks
	// Season is how the boards are cut into seasons (--season: monthly,
	// the zero value, weekly or off): the season the leaderboard, stats
	// and the lobby show by default (engine/rating).
	Season rating.Period
}

// Limits are the protections of the server. A zero field takes its
// default; a negative one turns that protection off (except the window
// bounds, which always apply).
type Limits struct {
	// HandshakeTimeout bounds the time from accepting a TCP connection to
	// a successful authentication (default 20 s).
	HandshakeTimeout time.Duration
	// VersionTimeout bounds the time from accepting a TCP connection to
	// the client's SSH version line, which real clients send at once
	// (default 5 s).
	VersionTimeout time.Duration
	// NoSessionTimeout closes an authenticated connection that has no
	// open session for this long (default 1 min).
	NoSessionTimeout time.Duration
	// MaxUnauthenticated caps connections still in their handshake
	// (default 64). When they are all taken, or the early drop picks a
	// newcomer, a silent connection is closed to make room rather than
	// the newcomer refused: one that has sent no version line (or failing
	// that, one whose handshake has run EarlyDropAfter), from the source
	// that holds the most of them, the oldest first. A newcomer is refused
	// only when there is none.
	MaxUnauthenticated int
	// EarlyDrop is the number of stalled connections (in their
	// handshake for EarlyDropAfter or longer) from which a new one is
	// dropped at random, as OpenSSH's MaxStartups does: with EarlyDropRate
	// percent chance at EarlyDrop, rising linearly to 100 % at
	// MaxUnauthenticated (default 16; negative: off).
	EarlyDrop int
	// EarlyDropAfter is how long a handshake runs before it counts as
	// stalled for EarlyDrop (default 1 s; negative: every handshake
	// counts, as in OpenSSH). Real clients finish theirs in milliseconds,
	// so a crowd connecting at once is let in.
	EarlyDropAfter time.Duration
	// EarlyDropRate is the chance in percent of an early drop at
	// EarlyDrop connections (default 30).
	EarlyDropRate int
	// PenaltyMin turns on per-source penalties, as OpenSSH's
	// PerSourcePenalties: a connection that ends before it authenticates
	// costs its source address 10 s when it ran out of time (it sent no
	// version line or did not finish its handshake in time) and 1 s
	// otherwise; the cost leaks away at one second a second, and a source
	// whose cost reaches PenaltyMin is refused until it has leaked away
	// (default 15 s; negative: off).
	PenaltyMin time.Duration
	// PenaltyMax caps a source's cost, so the longest refusal (default
	// 10 min).
	PenaltyMax time.Duration
	// PenaltyExempt is the addresses never penalised, as OpenSSH's
	// PerSourcePenaltyExemptList: a host whose users share one address (a
	// NAT) keeps one bad client there from locking out the rest. Empty:
	// none.
	PenaltyExempt []netip.Prefix
	// MaxPerSource caps connections from one source, an IPv4 address or
	// IPv6 /64 (default 16). A newcomer from a source at the cap takes the
	// place of that source's own silent connection if it has one.
	MaxPerSource int
	// MaxSessions caps sessions (channels) on one connection (default 4).
	MaxSessions int
	// MaxSessionsPerPerson caps the sessions one person holds open at
	// once, of every kind and over all their connections and keys (a key
	// that is nobody's yet counts as a person of its own); a session past
	// it is refused at its start, with the limit named (default 8;
	// negative: no cap). Sessions on a server admin's key are exempt.
	MaxSessionsPerPerson int
	// IdleTimeout closes a session whose person typed nothing for this
	// long (default 30 min). Output (redraws) does not count.
	IdleTimeout time.Duration
	// KeepaliveInterval is how often the server sends keepalive@openssh.com
	// to a connection; a connection that does not answer within another
	// interval is closed (default 30 s).
	KeepaliveInterval time.Duration
	// MaxWidth and MaxHeight bound the terminal size a client may report
	// (defaults 500 columns and 200 rows); sizes below 1 become 1.
	MaxWidth, MaxHeight int
	// ShutdownGrace is how long Shutdown lets sessions say goodbye before
	// it closes every connection (default 1 s).
	ShutdownGrace time.Duration
	// MaxOwed bounds the output a session may owe its client: bytes
	// written and not yet taken because the client stopped reading (its
	// SSH window is full). Past it the session's connection is dropped,
	// with a log line (default 1 MiB; negative: no bound).
	MaxOwed int
	// SendBuffer caps the kernel's send buffer of each connection, so
	// that what a client that stops reading holds in the kernel is bounded
	// too, not grown by autotuning up to megabytes (default 256 KiB, which
	// Linux doubles; negative: the system's default).
	SendBuffer int
	// FlushTimeout is how long the end of a session waits for its client
	// to take the output still owed before dropping the connection
	// (default 10 s).
	FlushTimeout time.Duration
}

// defaultEarlyDropAfter is when a handshake counts as stalled.
const defaultEarlyDropAfter = time.Second

// ErrBadNetworks is the kind of ParseNetworks' errors.
var ErrBadNetworks = netsource.ErrBadList

// ParseNetworks reads a comma-separated list of addresses and CIDR
// networks ("10.0.0.0/8, 192.0.2.7") for Config.ProxyFrom and
// Limits.PenaltyExempt.
func ParseNetworks(s string) ([]netip.Prefix, error) {
	return netsource.ParseList(s)
}

// DefaultLimits is the limits a zero Limits stands for.
func DefaultLimits() Limits { return Limits{}.withDefaults() }

// DefaultMaxSessionsPerPerson is Limits.MaxSessionsPerPerson's default.
const DefaultMaxSessionsPerPerson = 8

func (l Limits) withDefaults() Limits {
	dur := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	num := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	dur(&l.HandshakeTimeout, 20*time.Second)
	dur(&l.VersionTimeout, 5*time.Second)
	dur(&l.NoSessionTimeout, time.Minute)
	num(&l.MaxUnauthenticated, 64)
	num(&l.EarlyDrop, 16)
	num(&l.EarlyDropRate, 30)
	dur(&l.EarlyDropAfter, defaultEarlyDropAfter)
	l.EarlyDropRate = min(max(l.EarlyDropRate, 0), 100)
	dur(&l.PenaltyMin, 15*time.Second)
	dur(&l.PenaltyMax, 10*time.Minute)
	num(&l.MaxPerSource, 16)
	num(&l.MaxSessions, 4)
	num(&l.MaxSessionsPerPerson, DefaultMaxSessionsPerPerson)
	dur(&l.IdleTimeout, 30*time.Minute)
	dur(&l.KeepaliveInterval, 30*time.Second)
	if l.MaxWidth <= 0 {
		l.MaxWidth = 500
	}
	if l.MaxHeight <= 0 {
		l.MaxHeight = 200
	}
	dur(&l.ShutdownGrace, time.Second)
	num(&l.MaxOwed, 1<<20)
	num(&l.SendBuffer, 256<<10)
	dur(&l.FlushTimeout, 10*time.Second)
	return l
}
