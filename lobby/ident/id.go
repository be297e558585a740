package ident

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// A person is known by an id that never changes; their name is looked up
// when shown, never copied into a record. Ids come in kinds:
//
//   - "p:N": a person with SSH keys. The store makes the id, keeps their
//     name and keys; any of their keys logs them in.
//   - "bot:LEVEL:NAME": a built-in bot. It has no keys; its name is in its
//     id.
//   - "KIND:NAME": a player of a door without keys, such as the Mäxchen
//     gateway's UDP bots ("maexchen:NAME") and the gateway itself
//     ("gateway:maexchen"); the name is in the id too.
//
// An SSH key's fingerprint ("SHA256:…") is never a person's id: a key
// belongs to a person.

// PersonPrefix starts the id of every person with keys.
const PersonPrefix = "p:"

// PersonID is the id of the n-th person with keys.
func PersonID(n uint64) string { return PersonPrefix + strconv.FormatUint(n, 10) }

// HasKeys reports whether id is a person with keys, whose name the store
// keeps.
func HasKeys(id string) bool {
	rest, ok := strings.CutPrefix(id, PersonPrefix)
	if !ok || rest == "" {
		return false
	}
	_, err := strconv.ParseUint(rest, 10, 64)
	return err == nil
}

// IsKey reports whether s is an SSH key's fingerprint, as the server
// writes them ("SHA256:…").
func IsKey(s string) bool { return strings.HasPrefix(s, "SHA256:") }

// WellFormedKey reports whether s is a whole SHA256 fingerprint, as
// ssh-keygen -l prints it: "SHA256:" and 43 characters of unpadded
// base64 (a hash of 32 bytes).
func WellFormedKey(s string) bool {
	rest, ok := strings.CutPrefix(s, "SHA256:")
	if !ok || len(rest) != 43 {
		return false
	}
	b, err := base64.RawStdEncoding.DecodeString(rest)
	return err == nil && len(b) == 32
}

// KeylessName is the name in the id of a key-less player ("bot:hard:ada"
// is ada, "maexchen:deep-thought" is deep-thought); ok is false for a
// person with keys, a key, UDP addresses ("udp:…") and anything that is
// not a key-less id.
func KeylessName(id string) (string, bool) {
	if HasKeys(id) || IsKey(id) || strings.HasPrefix(id, UDPAddrPrefix) {
		return "", false
	}
	i := strings.LastIndexByte(id, ':')
	if i <= 0 || i == len(id)-1 {
		return "", false
	}
	return id[i+1:], true
}

// GatewayHost is the id of the Mäxchen gateway, which hosts and deals
// its table: a key-less player named maexchen, a name no one else may
// take (lobby/names.go).
const GatewayHost = "gateway:maexchen"

// UDPBotPrefix starts the id of each bot of the Mäxchen gateway's UDP
// wire: "maexchen:NAME", a key-less person named NAME.
const UDPBotPrefix = "maexchen:"

// UDPAddrPrefix starts UDP addresses where a person's id or a key could
// stand: "udp:203.0.113.7" or "udp:203.0.113.0/24", the target of a ban of
// addresses the Mäxchen gateway hears from (lobby.ParseUDPBan reads it;
// the store keeps such bans beside those of people and keys). It is
// never a person.
const UDPAddrPrefix = "udp:"

// EventPrefix starts the id of an event as the host of its tables
// ("event:NAME", lobby/events): a key-less player named after the event,
// which deals the games of its tables. It is never a person's, and holds
// no seat.
const EventPrefix = "event:"

// EventHost is the id of the event of that name as its tables' host.
func EventHost(event string) string { return EventPrefix + event }
