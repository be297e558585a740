#!/usr/bin/env bash
# example-bot.sh: a Mia bot in one page of bash, over the system ssh
# client. It speaks the bot line protocol (PROTOCOL.md §2) on
# `ssh -T HOST bot [TABLE]` and plays the classic ranking simply: open by
# rolling, call a lie on a claim of 64 or more (always on Mia), otherwise
# roll; announce the dice when they beat the claim, else the least value
# that does.
#
#   ssh-keygen -t ed25519 -N '' -f bot_key
#   ./example-bot.sh -i bot_key -n shellbot -p 23234 localhost arena
#
# -i KEY   the bot's key (its identity; default: your ssh setup)
# -n NAME  set the display name first (a nameless key is refused)
# -p PORT  the server's port (23234)
# -g N     stop after N games (default: play on; Ctrl-C stops)
# The host key is trusted on first use (StrictHostKeyChecking=accept-new).
set -euo pipefail

usage() { echo "usage: $0 [-i KEY] [-n NAME] [-p PORT] [-g GAMES] HOST [TABLE]" >&2; exit 2; }
port=23234 key= name= games=0
while getopts i:n:p:g: o; do
	case $o in
	i) key=$OPTARG ;;
	n) name=$OPTARG ;;
	p) port=$OPTARG ;;
	g) games=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
host=$1 table=${2:-}
ssh_args=(-T -p "$port" -o StrictHostKeyChecking=accept-new -o BatchMode=yes)
[ -n "$key" ] && ssh_args+=(-i "$key" -o IdentitiesOnly=yes)
[ -n "$name" ] && ssh "${ssh_args[@]}" "$host" name "$name" >&2

# The classic ranking, lowest first; rank prints a value's index.
vals=(31 32 41 42 43 51 52 53 54 61 62 63 64 65 11 22 33 44 55 66 21)
rank() {
	local i
	for i in "${!vals[@]}"; do
		if [ "${vals[i]}" = "$1" ]; then echo "$i"; return; fi
	done
	echo -1
}

coproc BOT { exec ssh "${ssh_args[@]}" "$host" bot $table; }
from=${BOT[0]} to=${BOT[1]} pid=$BOT_PID # bash unsets BOT when ssh exits
claim=- played=0
while IFS= read -r line <&"$from"; do
	echo "< $line" >&2
	IFS=';' read -r word a b _ <<<"$line"
	case $word in
	"YOUR TURN") # a: the claim ("-" when opening), b: the token
		claim=${a/,/}
		if [ "$claim" = - ]; then
			answer="ROLL;$b"
		elif [ "$(rank "$claim")" -ge 12 ]; then # 64 or more: call it
			answer="SEE;$b"
		else
			answer="ROLL;$b"
		fi
		;;
	ROLLED) # a: the dice, b: the token
		dice=${a/,/}
		if [ "$claim" = - ] || [ "$(rank "$dice")" -gt "$(rank "$claim")" ]; then
			say=$dice
		else
			say=${vals[$(($(rank "$claim") + 1))]}
		fi
		answer="ANNOUNCE;${say:0:1},${say:1:1};$b"
		;;
	"GAME OVER")
		played=$((played + 1))
		if [ "$games" -gt 0 ] && [ "$played" -ge "$games" ]; then break; fi
		continue
		;;
	*) continue ;;
	esac
	echo "> $answer" >&2
	echo "$answer" >&"$to"
done
eval "exec $to>&-" # hang up: the server gives the seat back
wait "$pid" 2>/dev/null || true
