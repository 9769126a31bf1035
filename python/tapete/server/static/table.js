// The table page: one WebSocket per seat (or a spectator's), redrawn on every state frame.
"use strict";
const tableId = decodeURIComponent(location.pathname.split("/").pop());
const store = `tapete:${tableId}`;
(function takeToken() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) { localStorage.setItem(store, m[1]); history.replaceState(null, "", location.pathname); }
})();
const token = localStorage.getItem(store);
const root = document.getElementById("root");
let socket = null, last = null, refused = false, connects = 0;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // the token goes in the first frame, never in the URL (docs/server.md)
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  socket.onopen = () => {
    connects += 1;
    if (token) socket.send(JSON.stringify({ type: "hello", token }));
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state" && token && message.seat === null) return;  // before the hello's answer
    if (message.type === "state") { last = message; render(message); showError(""); document.body.dataset.synced = connects; }
    else if (message.type === "error") showError(message.message);
  };
  socket.onclose = (event) => {
    document.body.dataset.synced = 0;
    const status = document.getElementById("status");
    if (status) status.textContent = "reconnecting…";
    if (event.code >= 4400 && event.code < 4500) { refused = true; return; }
    if (!refused) setTimeout(connect, 1000);  // reconnect: the token restores the seat
  };
}

function send(action) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "move", action }));
}

function showError(text) {
  const box = document.getElementById("error");
  if (box) box.textContent = text;
}

const SEAT_LISTS = [
  ["hand_sizes", "cards"], ["rack_sizes", "tiles"], ["balances", "chips"], ["tricks_won", "tricks"],
  ["declarations", ""], ["losses", "losses"], ["eliminated", "out"], ["out", "out"],
];
const SHOWN = new Set(["player", "current_player", "hand", "hand_sizes", "table", "piles", "scores", "trick",
  "trick_seats", "balances", "tricks_won", "declarations", "losses", "eliminated", "out", "rack", "rack_sizes",
  "buffer", "melds", "pozo", "totals", "known", "attack", "beaten", "pot", "terminal", "pending", "selection",
  "turnup", "trump_card", "drawn", "played", "out_of_play", "discards", "history", "turned"]);

function section(title, body, cls = "") {
  return el("section", { class: cls }, [el("h2", { text: title }), body]);
}

function seatName(message, s) {
  const spec = message.seats[s];
  const you = s === message.seat ? " (you)" : "";
  return `Seat ${s}${you}` + (spec !== "human" ? ` · ${spec}` : "");
}

function render(message) {
  const view = message.view, game = message.game.split("(")[0], seat = message.seat;
  const status = message.terminal
    ? `Game over · returns ${message.returns.map((r) => (r > 0 ? "+" : "") + r).join(" / ")}`
    : message.to_move === seat ? "Your move" : `Seat ${message.to_move} to move`;
  const header = el("header", {}, [
    el("h1", { text: message.game }),
    el("span", { class: "status", id: "status", text: status }),
    el("span", { text: seat === null ? "spectating" : `you are seat ${seat}` }),
    el("span", { text: `move ${message.moves}` }),
    el("a", { href: "/", text: "lobby" }),
  ]);

  // seats
  const seats = el("div", { class: "seats" });
  for (let s = 0; s < message.seats.length; s++) {
    const box = el("div", { class: "seat" + (s === message.to_move ? " to-move" : ""), "data-seat": s },
      [el("div", { class: "name", text: seatName(message, s) })]);
    const facts = [];
    for (const [key, unit] of SEAT_LISTS) {
      if (Array.isArray(view[key]) && view[key].length === message.seats.length) {
        const v = view[key][s];
        if (typeof v === "boolean") { if (v) facts.push(unit); }
        else if (v !== null) facts.push(`${v} ${unit}`.trim());
      }
    }
    box.append(el("div", { text: facts.join(" · ") }));
    if (Array.isArray(view.known) && view.known[s] && view.known[s].length) {
      box.append(el("div", { class: "small" }, [el("span", { text: "known: " }), pieces(view.known[s], game)]));
    }
    seats.append(box);
  }

  // the middle of the table
  const middle = el("div");
  if (view.table) middle.append(pieces(view.table, game));
  if (view.trick && view.trick.length) {
    const row = el("div", { class: "row" });
    view.trick.forEach((c, i) => row.append(el("span", { class: "pile" }, [pieceNode(c, game), el("span", { text: `seat ${view.trick_seats[i]}` })])));
    middle.append(row);
  }
  if (view.attack && view.attack.length) {
    middle.append(el("div", { text: "attack" }), pieces(view.attack, game));
    if (view.beaten && view.beaten.length) {
      const row = el("div", { class: "row" });
      for (const [t, c] of view.beaten) row.append(el("span", { class: "pile small" }, [pieceNode(t, game), pieceNode(c, game)]));
      middle.append(el("div", { text: "beaten" }), row);
    }
  }
  if (view.pozo !== undefined) middle.append(el("div", { text: `pozo (${view.pozo_size})` }), pieces(view.pozo, game));
  const extras = [];
  if (view.turnup) extras.push(el("span", { class: "pile" }, [el("span", { text: "turn-up" }), pieceNode(view.turnup, game)]));
  if (view.trump_card) extras.push(el("span", { class: "pile" }, [el("span", { text: "trump" }), pieceNode(view.trump_card, game)]));
  if (view.pending) extras.push(el("span", { class: "pile" }, [el("span", { text: "playing" }), pieceNode(view.pending, game)]));
  if (view.drawn) extras.push(el("span", { class: "pile" }, [el("span", { text: "drawn" }), pieceNode(view.drawn, game)]));
  if (typeof view.pot === "number") {
    const chips = el("span", { class: "pile" }, [el("span", { text: `pot ${view.pot}` })]);
    const row = el("span");
    for (let i = 0; i < Math.min(view.pot, 20); i++) row.append(el("span", { class: "chip" }));
    chips.append(row);
    extras.push(chips);
  }
  for (const key of ["stock_size", "talon_size"]) if (typeof view[key] === "number") extras.push(el("span", { class: "pile" }, [el("span", { text: `${key.replace("_size", "")} ${view[key]}` })]));
  if (extras.length) middle.append(el("div", { class: "row" }, extras));
  if (view.selection && view.selection.length) middle.append(el("div", { text: "selected" }), pieces(view.selection, game));

  // captured piles and melds
  const won = el("div");
  if (Array.isArray(view.piles)) {
    view.piles.forEach((pile, side) => won.append(el("div", { class: "small" }, [el("span", { text: `side ${side}: ${pile.length} cards` }), pieces(pile, game)])));
  }
  if (Array.isArray(view.melds)) {
    view.melds.forEach((melds, team) => {
      const row = el("div", { class: "row small" }, [el("span", { text: `team ${team}` })]);
      for (const m of melds) row.append(el("span", { class: "meld" + (m.canasta ? " canasta" : "") }, m.tiles.map((t) => pieceNode(t, game))));
      won.append(row);
    });
  }

  // scores
  const scoreParts = [];
  if (Array.isArray(view.scores)) scoreParts.push(`points ${view.scores.join(" : ")}`);
  if (Array.isArray(view.totals)) scoreParts.push(`totals ${view.totals.join(" : ")}`);
  if (Array.isArray(view.balances)) scoreParts.push(`chips ${view.balances.join(" : ")}`);
  if (Array.isArray(view.losses)) scoreParts.push(`losses ${view.losses.join(" : ")}`);
  const scores = el("div", { class: "scores", id: "scores", "data-scores": JSON.stringify(view.scores || view.totals || view.balances || view.losses || []) , text: scoreParts.join(" · ") });

  // own hand, and the legal moves
  const legal = message.legal || [];
  // a piece in the hand plays the action named by it ("7d"), else the first action ending in it ("add R5")
  const byText = new Map();
  for (const [id, text] of legal) {
    const words = text.toLowerCase().split(" ");
    if (!byText.has(text.toLowerCase())) byText.set(text.toLowerCase(), id);
    if (!byText.has(words[words.length - 1])) byText.set(words[words.length - 1], id);
  }
  const own = Array.isArray(view.hand) ? view.hand : view.rack;
  const hand = el("div", { class: "row hand" });
  for (const c of Array.isArray(own) ? own : []) {
    const node = pieceNode(c, game);
    const id = byText.get(c.toLowerCase());
    if (id !== undefined) { node.classList.add("playable"); node.addEventListener("click", () => send(id)); }
    hand.append(node);
  }
  if (Array.isArray(view.buffer) && view.buffer.length) hand.append(el("span", { text: " buffer " }), pieces(view.buffer, game));
  const moves = el("div", { class: "legal", id: "legal" });
  for (const [id, text] of legal) moves.append(el("button", { "data-action": id, onclick: () => send(id), text }));
  if (!legal.length) moves.append(el("span", { class: "hint", text: message.terminal ? "the game is over" : seat === null ? "watching" : "waiting for the other seats" }));

  // anything else the view holds
  const info = el("dl", { class: "info" });
  for (const [key, value] of Object.entries(view)) {
    if (SHOWN.has(key) || value === null || (Array.isArray(value) && !value.length)) continue;
    info.append(el("dt", { text: key }), el("dd", { text: typeof value === "object" ? JSON.stringify(value) : String(value) }));
  }

  const main = el("main", { class: "table" }, [
    section("Seats", seats, "wide"),
    section("Table", middle),
    section("Scores", scores),
    section(seat === null ? "Your view" : "Your hand", hand, "wide"),
    section("Moves", el("div", {}, [moves, el("div", { class: "error", id: "error" })]), "wide"),
    section("Captured and melded", won),
    section("More", info),
  ]);
  root.replaceChildren(header, main);
  Object.assign(document.body.dataset, { moves: message.moves, toMove: message.to_move, terminal: message.terminal, seat: seat });
}

connect();
