package sshapp

import (
	"context"
	"net/netip"
	"time"

	"github.com/charmbracelet/log"
	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/mia-game/mia/engine/rating"
	"github.com/mia-game/mia/lobby"
	"github.com/mia-game/mia/lobby/events"
	"github.com/mia-game/mia/sshapp/botline"
	"github.com/mia-game/mia/sshapp/command"
	"github.com/mia-game/mia/sshapp/guard"
	"github.com/mia-game/mia/sshapp/internal/netsource"
	"github.com/mia-game/mia/sshapp/tui"
	"github.com/mia-game/mia/sshapp/verdict"
	"github.com/mia-game/mia/store"
)

// Players is what the server itself needs of the people: who a key
// belongs to, when it was last seen, and their name.
type Players interface {
	PersonByKey(ctx context.Context, fingerprint string) (store.Person, error)
	SetName(ctx context.Context, fingerprint, name string) (store.Person, error)
	Touch(ctx context.Context, fingerprint string, at time.Time) error
}

// Storage is everything the server and its rooms read and write, one
// small interface for each user, declared where it is used. *store.Store
// implements all of them; cmd/mia passes it to each.
type Storage struct {
	// Players is the server's own: identity and names. Required.
	Players Players
	// Bans refuses banned keys at the door; nil: no key is banned.
	Bans guard.Bans
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
	// Events is the server's events; nil: none (the event commands are
	// refused, the screens list none).
	Events *events.Registry
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
	// Judge gives the verdicts on finished games' moves, at every door
	// (sshapp/verdict); nil: none are given.
	Judge *verdict.Judge
	// Alerts are the tables' hooks, the watches and the invitations to a
	// person (sshapp/alerts), for the commands and the screens; nil: none
	// of them. The notices need only the lobby.
	Alerts Alerts
}

// Alerts is what the commands and the screens ask of the alerts: both
// rooms' interfaces (*alerts.Alerts implements it).
type Alerts interface {
	command.Alerts
	tui.Alerts
}

// Limits are the protections of the server. A zero field takes its
// default; a negative one turns that protection off (except the window
// bounds, which always apply). The connection's own (handshakes,
// penalties, per-source and per-person caps, keepalives) are the guard's
// (sshapp/guard), set through the embedded guard.Limits.
type Limits struct {
	guard.Limits
	// IdleTimeout closes a session whose person typed nothing for this
	// long (default 30 min). Output (redraws) does not count.
	IdleTimeout time.Duration
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
	// FlushTimeout is how long the end of a session waits for its client
	// to take the output still owed before dropping the connection
	// (default 10 s).
	FlushTimeout time.Duration
}

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

func (l Limits) withDefaults() Limits {
	l.Limits = l.Limits.WithDefaults()
	if l.IdleTimeout == 0 {
		l.IdleTimeout = 30 * time.Minute
	}
	if l.MaxWidth <= 0 {
		l.MaxWidth = 500
	}
	if l.MaxHeight <= 0 {
		l.MaxHeight = 200
	}
	if l.ShutdownGrace == 0 {
		l.ShutdownGrace = time.Second
	}
	if l.MaxOwed == 0 {
		l.MaxOwed = 1 << 20
	}
	if l.FlushTimeout == 0 {
		l.FlushTimeout = 10 * time.Second
	}
	return l
}

// clampWindow bounds a client's terminal size to 1..MaxWidth columns and
// 1..MaxHeight rows (and its pixel sizes to 0..65535). A zero width or
// height is one the client does not know (RFC 4254 §6.2: zero dimensions
// are ignored; OpenSSH sends them when its input is not a terminal): it
// is taken as 80 columns, 24 rows.
func (l Limits) clampWindow(w ssh.Window) ssh.Window {
	if w.Width == 0 {
		w.Width = 80
	}
	if w.Height == 0 {
		w.Height = 24
	}
	w.Width = min(max(w.Width, 1), l.MaxWidth)
	w.Height = min(max(w.Height, 1), l.MaxHeight)
	w.WidthPixels = min(max(w.WidthPixels, 0), 65535)
	w.HeightPixels = min(max(w.HeightPixels, 0), 65535)
	return w
}
