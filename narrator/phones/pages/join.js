// The join page: the table's free seats as large buttons; a tap takes the seat (the server sets
// this phone's cookie) and opens the seat's page. The list is refreshed while the page is open.
"use strict";

const REFRESH_MS = 3000;
const list = document.getElementById("seats");
const noSeat = document.getElementById("no-seat");
const message = document.getElementById("message");
let shown = null; // the free seats last listed; null: none listed yet, so the first answer always shows

async function refresh() {
  let reply;
  try {
    reply = await fetch("/api/seats", { cache: "no-store" });
  } catch {
    message.textContent = typeset("Le narrateur ne répond pas : vérifiez le réseau. Nouvel essai dans un instant.");
    return;
  }
  if (!reply.ok) return;
  const seats = await reply.json();
  document.body.className = seats.night ? "night" : "day"; // the table's look: dark at night
  if (seats.seat) {
    location.replace("/seat");
    return;
  }
  if (seats.end) {
    ended(seats.end);
    return;
  }
  const names = seats.free.join("\n");
  if (names === shown) return; // keep the buttons (and a screen reader's place) when nothing changed
  shown = names;
  list.replaceChildren(
    ...seats.free.map((name) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "big";
      button.textContent = typeset(name);
      button.addEventListener("click", () => claim(name));
      item.append(button);
      return item;
    }),
  );
  noSeat.hidden = seats.free.length > 0;
}

// The game is over: no seat to take; the end, as every seat's page shows it (a late phone, or one whose
// seat was lost, learns who won and every card). Said once: its title takes the focus.
function ended(payload) {
  const first = document.getElementById("end").hidden;
  fillEnd(payload);
  // no place to take any more: the page is named for what it shows
  document.getElementById("join-title").textContent = "Fin de la partie";
  document.title = "Fin de la partie — Narrateur";
  for (const id of ["seats-section", "join-help"]) document.getElementById(id).hidden = true;
  message.textContent = "";
  document.getElementById("end").hidden = false;
  if (first) document.getElementById("end-title").focus();
}

async function claim(name) {
  message.textContent = "";
  let reply;
  try {
    reply = await fetch("/api/claim", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: name }),
    });
  } catch {
    message.textContent = typeset("Le narrateur ne répond pas : réessayez.");
    return;
  }
  if (reply.ok) {
    location.replace("/seat");
    return;
  }
  const body = await reply.json().catch(() => ({}));
  message.textContent = typeset(`Refusé : ${body.error || "réessayez"}.`);
  shown = null;
  refresh();
}

refresh();
setInterval(() => {
  if (document.visibilityState === "visible") refresh();
}, REFRESH_MS);
