// Cards and tiles as SVG, from their text: "7d", "Th", "??" (hidden), Burako "R5", "J*".
"use strict";
const SUITS = { c: ["\u2663", "#222"], d: ["\u2666", "#c62828"], h: ["\u2665", "#c62828"], s: ["\u2660", "#222"] };
const TILE_COLOURS = { R: "#c62828", K: "#222", B: "#1565c0", Y: "#d99a00" };

function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of [].concat(children)) if (c != null) node.append(c);
  return node;
}

function svg(body, w, h) {
  const wrap = document.createElement("span");
  wrap.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" role="img">${body}</svg>`;
  return wrap.firstChild;
}

function cardBack() {
  return svg(
    `<rect x="1" y="1" width="58" height="86" rx="6" fill="#234a8f" stroke="#fff" stroke-width="2"/>` +
      `<rect x="7" y="7" width="46" height="74" rx="3" fill="none" stroke="#9fb6e6" stroke-dasharray="3 2"/>`,
    60, 88);
}

function isCard(text) { return typeof text === "string" && /^([A2-9TJQK]|10)[cdhs]$/.test(text); }
function isTile(text) { return typeof text === "string" && (/^[RKBY](1[0-3]|[1-9])$/.test(text) || text === "J*"); }

function cardNode(text) {
  const span = el("span", { class: "card", "data-card": text, title: text });
  if (!isCard(text)) { span.append(cardBack()); return span; }
  const rank = text.slice(0, -1) === "T" ? "10" : text.slice(0, -1);
  const [symbol, colour] = SUITS[text.slice(-1)];
  span.append(svg(
    `<rect x="1" y="1" width="58" height="86" rx="6" fill="#fffdf7" stroke="#999"/>` +
      `<text x="6" y="20" font-size="17" font-weight="700" fill="${colour}" font-family="sans-serif">${rank}</text>` +
      `<text x="6" y="36" font-size="15" fill="${colour}">${symbol}</text>` +
      `<text x="30" y="62" font-size="30" text-anchor="middle" fill="${colour}">${symbol}</text>`,
    60, 88));
  return span;
}

function tileNode(text) {
  const span = el("span", { class: "tile", "data-card": text, title: text });
  if (!isTile(text)) { span.append(cardBack()); return span; }
  const joker = text === "J*";
  const colour = joker ? "#6a1b9a" : TILE_COLOURS[text[0]];
  const label = joker ? "\u2605" : text.slice(1);
  span.append(svg(
    `<rect x="1" y="1" width="38" height="54" rx="5" fill="#f7f1e3" stroke="#8d7b5c" stroke-width="1.5"/>` +
      `<text x="20" y="33" font-size="${joker ? 24 : 20}" font-weight="700" text-anchor="middle" fill="${colour}" font-family="sans-serif">${label}</text>` +
      `<circle cx="20" cy="45" r="3" fill="${colour}"/>`,
    40, 56));
  return span;
}

function pieceNode(text, game) { return game === "burako" ? tileNode(text) : cardNode(text); }

function pieces(list, game, cls = "row") {
  const row = el("div", { class: cls });
  for (const t of list || []) row.append(pieceNode(t, game));
  return row;
}
