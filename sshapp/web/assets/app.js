// mia's web window: the live table and stepping through a game. The
// pages work without it; it only makes them live. No inline script: the
// page's Content-Security-Policy allows this file alone.
"use strict";

(function live() {
  const box = document.getElementById("live");
  if (!box || !box.dataset.events || !window.EventSource) return;
  const state = document.getElementById("stream-state");
  const say = (text, bad) => {
    state.textContent = text;
    state.hidden = !text;
    state.classList.toggle("bad", !!bad);
  };
  let received = performance.now();
  let lifted = liftedKey();

  function liftedKey() {
    const l = box.querySelector(".lifted");
    return l ? l.textContent : "";
  }

  // The turn clock counts down here between events: each clock holds the
  // milliseconds left when its fragment was sent.
  function tick() {
    const gone = performance.now() - received;
    for (const c of box.querySelectorAll(".clock[data-left]")) {
      const left = Math.max(0, Number(c.dataset.left) - gone);
      const sec = Math.ceil(left / 1000);
      c.textContent = sec < 100 ? sec + "s" : Math.floor(sec / 60) + ":" + String(sec % 60).padStart(2, "0");
    }
  }
  setInterval(tick, 250);

  const es = new EventSource(box.dataset.events);
  es.addEventListener("table", (e) => {
    received = performance.now();
    box.innerHTML = e.data;
    const now = liftedKey();
    if (now && now !== lifted) {
      const l = box.querySelector(".lifted");
      if (l) l.classList.add("fresh");
    }
    lifted = now;
    box.dataset.version = e.lastEventId;
    tick();
    if (es.readyState === EventSource.OPEN) sayLive();
  });
  es.addEventListener("gone", (e) => {
    es.close();
    say(e.data + " This page no longer changes.", true);
  });
  es.addEventListener("error", () => {
    if (es.readyState === EventSource.CLOSED) {
      say("The live page is gone (closed, or no longer open to this link). Reload to see what is there now.", true);
    } else {
      say("Connection lost: reconnecting…", true);
    }
  });
  const what = box.classList.contains("event-live") ? "the event" : "the table";
  // An event over says so instead: its page no longer changes.
  function sayLive() {
    const final = box.querySelector("[data-final]");
    say(final ? final.dataset.final : "● Live: this page follows " + what + " as it is played.");
  }
  es.addEventListener("open", sayLive);
})();

(function stepper() {
  const panel = document.getElementById("stepper");
  if (!panel) return;
  const moves = Array.from(document.querySelectorAll("li.move"));
  if (moves.length === 0) return;
  const max = Number(panel.dataset.max);
  const winner = Number(panel.dataset.winner);
  const seats = Array.from(panel.querySelectorAll(".state .seat"));
  let cur = Number(panel.dataset.cur) || 0;

  function addressOf(n) {
    const u = new URL(window.location.href);
    u.searchParams.set("m", String(n));
    u.hash = "";
    return u.pathname + u.search;
  }

  function show(n, scroll) {
    n = Math.max(0, Math.min(moves.length - 1, n));
    const d = moves[n].dataset;
    moves[cur].classList.remove("current");
    moves[cur].removeAttribute("aria-current");
    moves[n].classList.add("current");
    moves[n].setAttribute("aria-current", "step");
    cur = n;
    panel.dataset.cur = String(n);
    document.getElementById("pos").textContent = d.pos;
    document.getElementById("claim").textContent = d.claim;
    document.getElementById("cup").textContent = d.cup;
    const v = document.getElementById("verdict");
    v.textContent = d.verdict;
    v.className = "verdict" + (d.kind ? " " + d.kind : "");
    document.getElementById("best").textContent = d.best || "";
    document.getElementById("odds").textContent = d.odds || "";
    const lives = d.lives.split(",").map(Number);
    const turn = Number(d.turn);
    const over = d.over === "true";
    seats.forEach((li, i) => {
      const l = lives[i] || 0;
      const won = over && i === winner;
      li.classList.toggle("turn", i === turn);
      li.classList.toggle("out", l === 0);
      li.classList.toggle("winner", won);
      li.querySelector(".marker").textContent = won ? "★" : i === turn ? "▶" : "";
      li.querySelector(".heart").textContent = "♥".repeat(l);
      li.querySelector(".lost").textContent = "♡".repeat(Math.max(0, max - l));
    });
    const nav = { "to-first": 0, "to-prev": n - 1, "to-next": n + 1, "to-end": moves.length - 1 };
    for (const [id, to] of Object.entries(nav)) {
      const a = document.getElementById(id);
      if (a) a.href = addressOf(to);
    }
    history.replaceState(null, "", addressOf(n));
    if (scroll) moves[n].scrollIntoView({ block: "nearest" });
  }

  // The links to the ends are there only where the server drew them: draw
  // all four, so that every step may go anywhere.
  const navBox = panel.querySelector(".steps-nav");
  navBox.innerHTML = "";
  for (const [id, text] of [["to-first", "⇤ start"], ["to-prev", "← back"], ["to-next", "next →"], ["to-end", "end ⇥"]]) {
    const a = document.createElement("a");
    a.id = id;
    a.textContent = text;
    navBox.appendChild(a);
  }
  navBox.addEventListener("click", (e) => {
    const a = e.target.closest("a");
    if (!a) return;
    e.preventDefault();
    const to = { "to-first": 0, "to-prev": cur - 1, "to-next": cur + 1, "to-end": moves.length - 1 }[a.id];
    show(to, true);
  });
  for (const m of moves) {
    m.querySelector("a.n").addEventListener("click", (e) => {
      e.preventDefault();
      show(Number(m.dataset.n), false);
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const to = { ArrowRight: cur + 1, ArrowLeft: cur - 1, Home: 0, End: moves.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to, true);
  });
  show(cur, false);
  panel.dataset.ready = "true";
})();
