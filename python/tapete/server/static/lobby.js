// The lobby: create a table from a game string, list tables, join a seat or watch.
"use strict";
const $ = (id) => document.getElementById(id);
let GAMES = [];

async function getJSON(url, options) {
  const response = await fetch(url, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function gameString() {
  const name = $("game").value, variant = $("variant").value, players = $("players").value;
  const parts = [];
  if (variant) parts.push(`variant=${variant}`);
  if (players) parts.push(`players=${players}`);
  return `${name}(${parts.join(",")})`;
}

async function refreshSeats() {
  $("error").textContent = "";
  try {
    const info = await getJSON(`/api/game?game=${encodeURIComponent($("gamestring").value)}`);
    const box = $("seats");
    box.replaceChildren();
    for (let s = 0; s < info.players; s++) {
      const select = el("select", { "data-seat": s }, [el("option", { value: "human", text: "human" }), el("option", { value: "bot:random", text: "bot:random" })]);
      if (s > 0) select.value = "bot:random";
      box.append(el("label", { text: `seat ${s} ` }, [select]));
    }
  } catch (error) { $("error").textContent = error.message; }
}

function pickGame() {
  const game = GAMES.find((g) => g.name === $("game").value);
  $("variant").replaceChildren(el("option", { value: "", text: "(default)" }), ...game.variants.map((v) => el("option", { value: v, text: v })));
  $("players").value = "";
  $("gamestring").value = gameString();
  refreshSeats();
}

async function listTables() {
  const { tables } = await getJSON("/api/tables");
  const body = $("tables");
  body.replaceChildren();
  for (const t of tables.slice().reverse()) {
    const actions = el("td", {}, [el("a", { href: `/table/${t.table}`, text: "watch" })]);
    if (t.open_seats.length && !t.terminal) {
      actions.append(" ", el("button", { text: `join seat ${t.open_seats[0]}`, onclick: async () => {
        const joined = await getJSON(`/api/tables/${t.table}/join`, { method: "POST", body: "{}" });
        location.href = `/table/${t.table}#token=${joined.token}`;
      } }));
    }
    body.append(el("tr", {}, [el("td", { text: t.table }), el("td", { text: t.game }), el("td", { text: t.seats.join(", ") }),
      el("td", { text: t.terminal ? `${t.moves} (over)` : String(t.moves) }), actions]));
  }
}

$("create").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seats = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  try {
    const made = await getJSON("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ game: $("gamestring").value, seats }) });
    const links = $("links");
    links.replaceChildren();
    for (const [seat, token] of Object.entries(made.tokens)) {
      if (seat === "0") continue;
      const url = `${location.origin}/table/${made.table}#token=${token}`;
      links.append(el("div", {}, [el("span", { text: `seat ${seat}: ` }), el("a", { href: url, text: url })]));
    }
    if ("0" in made.tokens) location.href = `/table/${made.table}#token=${made.tokens["0"]}`;
    else location.href = `/table/${made.table}`;
  } catch (error) { $("error").textContent = error.message; }
});

(async () => {
  GAMES = (await getJSON("/api/games")).games;
  for (const g of GAMES) $("game").append(el("option", { value: g.name, text: g.name }));
  $("game").addEventListener("change", pickGame);
  $("variant").addEventListener("change", () => { $("gamestring").value = gameString(); refreshSeats(); });
  $("players").addEventListener("change", () => { $("gamestring").value = gameString(); refreshSeats(); });
  $("gamestring").addEventListener("change", refreshSeats);
  pickGame();
  listTables();
  setInterval(listTables, 5000);
})();
