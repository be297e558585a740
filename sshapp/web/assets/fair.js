// The fairness check of a finished game, run in the reader's browser: it
// fetches the game's replay document (/games/ID.json, what `replay ID
// --json` prints) and re-derives, with WebCrypto's SHA-256 and
// HMAC-SHA256, the commitment, the seating, the first opener and every
// roll from the revealed server seed and the players' seeds, by the
// scheme of mia's engine/fair/README.md ("mia-hmac-sha256-v1"). It says
// what it found; it takes no number from the server's word but the seeds
// and the game's events.
"use strict";

(function fair() {
  const box = document.getElementById("fair");
  const out = document.getElementById("fair-result");
  if (!box || !out || !box.dataset.json) return;
  if (!window.crypto || !crypto.subtle) {
    out.textContent = "This browser cannot check the dice here (WebCrypto needs a secure page: https or localhost).";
    return;
  }
  const enc = new TextEncoder();
  const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
  const unhex = (s) => {
    if (!/^[0-9a-f]{64}$/.test(s)) return null;
    const b = new Uint8Array(32);
    for (let i = 0; i < 32; i++) b[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
    return b;
  };
  const cmpBytes = (a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  };

  async function check(g) {
    const f = g.fair;
    if (!f) return { ok: false, none: true, found: ["This game has no proof of fair dice."] };
    const found = [];
    if (f.scheme !== "mia-hmac-sha256-v1") return { ok: false, found: ["An unknown scheme: " + f.scheme + "."] };
    const seed = unhex(String(f.server_seed || ""));
    if (!seed) return { ok: false, found: ["The server seed is not 64 hex digits."] };
    const commitment = hex(await crypto.subtle.digest("SHA-256", seed));
    if (commitment !== f.commitment) {
      found.push("The server seed's SHA-256 is " + commitment + ", not the commitment " + f.commitment + ".");
    }
    // mix: the players' seeds sorted by their UTF-8 bytes, each followed by a newline.
    const seeds = (f.player_seeds || []).map((p) => enc.encode(String(p.seed)));
    seeds.sort(cmpBytes);
    const dec = new TextDecoder();
    const mix = seeds.map((s) => dec.decode(s) + "\n").join("");
    const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const H = async (msg) => new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(msg)));
    const pick = async (label, n, m, c) => {
      const kept = [];
      for (let j = 0; kept.length < c; j++) {
        for (const b of await H(label + " " + n + " " + j + "\n" + mix)) {
          if (b < 256 - (256 % m)) kept.push(b % m);
        }
      }
      return kept.slice(0, c);
    };
    // The seating: players sorted by HMAC("seat FINGERPRINT\n" + mix), the smallest at seat 0.
    const players = g.players || [];
    const keyed = [];
    for (const p of players) keyed.push({ fp: p.fingerprint, h: await H("seat " + p.fingerprint + "\n" + mix) });
    const sorted = keyed.slice().sort((a, b) => cmpBytes(a.h, b.h));
    if (sorted.some((k, i) => k.fp !== players[i].fingerprint)) {
      found.push("The seating does not follow from the seeds.");
    }
    const events = g.events || [];
    const first = events.find((e) => e.type === "round");
    const opener = (await pick("draw", 0, players.length, 1))[0];
    if (!first || first.opener !== opener) {
      found.push("The first opener should be seat " + opener + (first ? ", not seat " + first.opener : "") + ".");
    }
    let n = 0;
    const wrong = [];
    for (const e of events) {
      if (e.type !== "roll") continue;
      n++;
      const [a, b] = (await pick("roll", n, 6, 2)).map((d) => d + 1);
      const want = String(Math.max(a, b)) + String(Math.min(a, b));
      if (e.dice !== want) wrong.push("roll " + n + " (event " + e.seq + "): the game says " + e.dice + ", the seeds give " + want);
    }
    if (wrong.length) {
      found.push(wrong.length + " of " + n + " rolls do not follow from the seeds: " + wrong.slice(0, 5).join("; ") +
        (wrong.length > 5 ? "; …" : "") + ".");
    }
    return { ok: found.length === 0, rolls: n, commitment: f.commitment, found };
  }

  out.textContent = "Checking the dice in your browser…";
  fetch(box.dataset.json, { credentials: "omit", cache: "no-store" })
    .then((r) => {
      if (!r.ok) throw new Error("the game's document answered " + r.status);
      return r.json();
    })
    .then(check)
    .then((res) => {
      out.classList.remove("ok", "bad");
      if (res.none) {
        out.textContent = res.found[0];
        return;
      }
      out.dataset.verdict = res.ok ? "fair" : "unfair";
      if (res.ok) {
        out.classList.add("ok");
        out.textContent = "✓ Checked in your browser: the seed matches the commitment " + res.commitment.slice(0, 16) +
          "…, and " + (["the seating and the first opener", "the seating, the first opener and the one roll"][res.rolls] ??
          "the seating, the first opener and all " + res.rolls + " rolls") + " follow from it and the players' seeds." +
          " Compare the commitment with the one the table showed before the game.";
        return;
      }
      out.classList.add("bad");
      out.textContent = "✗ Checked in your browser: the dice of this game do not match its proof.";
      const ul = document.createElement("ul");
      for (const f of res.found) {
        const li = document.createElement("li");
        li.textContent = f;
        ul.appendChild(li);
      }
      out.appendChild(ul);
    })
    .catch((err) => {
      out.dataset.verdict = "error";
      out.textContent = "The dice could not be checked: " + err.message + ".";
    });
})();
