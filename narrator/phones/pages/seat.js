// A seat's page: its screen comes over a WebSocket (the seat's cookie proves who it is) on every
// change; the card and what the player learned stay hidden until asked for, and are hidden again by the
// player or when the page is hidden (never by a timer: a screen reader may still be reading them); answers
// and ballots go back over the same socket (or by POST while it is down). The page reconnects by itself
// when the narrator comes back, and shows the end of the game when it is over.
"use strict";

const RETRY_MS = [500, 1000, 2000, 4000]; // waits between reconnections, then the last one again
const SEAT_FREED = 4001; // close code: this phone no longer holds the seat
const GAME_OVER = 4002; // close code: the game is over, nothing to reconnect to
const TOO_MANY = 1008; // close code: too many pages on this seat, the oldest closed
const $ = (id) => document.getElementById(id);
const ENDED = "La partie est finie.";

// Words set in a live region are spoken when they change; the same words again (a second identical
// refusal, a question asked again in the same words) would not be: the region is emptied first, and
// filled a moment later, so that it is spoken again.
const REFILL_MS = 150;
const refills = new Map(); // element -> its pending refill
function announce(element, text) {
  clearTimeout(refills.get(element));
  refills.delete(element);
  const words = text ? typeset(text) : "";
  if (!words || element.textContent !== words) {
    element.textContent = words;
    return;
  }
  element.textContent = "";
  refills.set(element, setTimeout(() => {
    refills.delete(element);
    element.textContent = words;
  }, REFILL_MS));
}

let screen = null;
let over = false; // the narrator said the game is over
let socket = null;
let tries = 0;
let shownAsked = -1; // the question whose controls are on the page (kept while it is the same)
let nextId = 0;
const pending = new Map(); // message id -> "answer" | "ballot"
const ballotAt = new Map(); // a ballot's message id -> `ballotSaid` when it was sent

// -- connection --------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener("open", () => {
    tries = 0;
    $("connection").textContent = "Connecté au narrateur.";
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "screen") render(message.screen);
    else if (message.type === "reply") replied(message);
    else if (message.type === "over") end(message.end);
  });
  socket.addEventListener("close", (event) => {
    socket = null;
    if (event.code === SEAT_FREED) {
      location.replace("/");
      return;
    }
    if (over || event.code === GAME_OVER) {
      end();
      return;
    }
    if (event.code === TOO_MANY) {
      // the seat was opened on a newer page: this one steps aside instead of closing that one in turn
      $("connection").textContent = typeset("Cette place est ouverte sur une autre page : rechargez celle-ci pour la reprendre.");
      return;
    }
    $("connection").textContent = typeset("Connexion perdue : reconnexion…");
    setTimeout(reconnect, RETRY_MS[Math.min(tries++, RETRY_MS.length - 1)]);
  });
}

// The end: who won, every card (and who changed card), the story when the table asked for it. It is
// announced once, by moving the focus to its title: the status and the connection line change silently.
function end(payload) {
  over = true;
  $("status").removeAttribute("aria-live");
  $("status").textContent = ENDED;
  if (!payload) {
    // the words of the end came with the last screen, if any; if not, the connection line says it
    if ($("end").hidden) $("connection").textContent = ENDED;
    return;
  }
  const first = $("end").hidden;
  $("connection").hidden = true; // « Connecté » is no longer news, and the end is said by its title
  fillEnd(payload);
  $("end").hidden = false;
  $("question-section").hidden = true;
  $("ballot-section").hidden = true;
  if (first) $("end-title").focus();
}

async function reconnect() {
  // A refused WebSocket says nothing of why: ask whether this phone still holds its seat.
  try {
    const reply = await fetch("/api/screen", { cache: "no-store" });
    if (reply.status === 401) {
      location.replace("/");
      return;
    }
  } catch {
    // the narrator is not back yet: try again
  }
  connect();
}

async function send(kind, message) {
  const id = ++nextId;
  pending.set(id, kind);
  if (kind === "ballot") ballotAt.set(id, ballotSaid);
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: kind, id, ...message }));
    return;
  }
  try {
    const reply = await fetch(`/api/${kind}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id, ...message }),
    });
    replied(await reply.json());
  } catch {
    pending.delete(id);
    say(kind, "Le narrateur ne répond pas : réessayez dans un instant.");
  }
}

function replied(reply) {
  const kind = pending.get(reply.id) || "answer";
  pending.delete(reply.id);
  const sentAt = ballotAt.get(reply.id);
  ballotAt.delete(reply.id);
  if (!reply.ok) say(kind, sentence(reply.error));
  // « transmis » until the narrator says what became of it; never over what it said meanwhile (counted)
  else if (kind === "ballot" && sentAt === ballotSaid) say(kind, `Vote transmis : « ${reply.said} ». Le narrateur le compte, puis relit tous les votes à la fin.`);
  else if (kind !== "ballot") say(kind, "");
}

// The server's reason (« ce nom n'est pas permis : touchez-en un autre ») as a sentence of its own.
function sentence(text) {
  const words = String(text || "réessayez").trim();
  return `${words.slice(0, 1).toUpperCase()}${words.slice(1)}${/[.!?…]$/.test(words) ? "" : "."}`;
}

function say(kind, text) {
  announce($(kind === "ballot" ? "ballot-reply" : "question-reply"), text);
}

// -- the screen --------------------------------------------------------------------------

function render(next) {
  const first = screen === null;
  screen = next;
  $("seat-name").textContent = typeset(`Place : ${next.seat}`);
  document.title = `${next.seat} — Narrateur`;
  if (next.end) end(next.end);
  else if ($("status").textContent !== typeset(next.status)) $("status").textContent = typeset(next.status);
  document.body.className = next.night ? "night" : "day"; // the same look on every phone
  if (card.shown()) card.fill(); // kept up to date
  renderQuestion(next.question, next.vibrate && !first);
  if (learned.shown()) learned.fill();
  renderBallot(next.living, next.seat, next.night || Boolean(next.end));
  if (next.vote !== shownVote) {
    // a new vote, or the same asked again: no ballot of this phone counts, nothing is chosen
    if (shownVote !== null) {
      $("ballot-target").value = "";
      say("ballot", "");
    }
    shownVote = next.vote;
  }
  // what became of the ballot (counted, refused and why, dropped, asked again): said each time the
  // narrator says it, the same words twice too
  if (next.ballot_said !== ballotSaid) {
    ballotSaid = next.ballot_said;
    if (next.ballot) say("ballot", next.ballot);
  }
}

let shownVote = null; // the vote whose ballot form is on the page
let ballotSaid = 0; // how many times the narrator said what became of this seat's ballot

function renderQuestion(question, vibrate) {
  const waiting = question === null;
  const answered = !waiting && question.answered;
  const focused = $("question").contains(document.activeElement);
  $("no-question").hidden = !waiting;
  $("answered").hidden = !answered;
  $("question").hidden = waiting || answered;
  if (focused && (waiting || answered)) $(answered ? "answered" : "no-question").focus(); // not lost with the form
  if (waiting || answered) {
    shownAsked = -1;
    announce($("question-text"), "");
    return;
  }
  if (question.asked === shownAsked) return;
  shownAsked = question.asked;
  say("answer", "");
  buildQuestion(question);
  if (vibrate && navigator.vibrate) navigator.vibrate(200);
}

// The controls depend only on the question's form, text and choices: a decoy question looks
// exactly like a real one of the same form.
function buildQuestion(question) {
  announce($("question-text"), question.text); // read once, as it appears (a live region), a repeat too
  const many = question.form === "pair" || question.form === "some";
  const picked = []; // PAIR and SOME: the choices in the order they were ticked
  const choices = [];
  if (question.form === "one" || many) {
    question.choices.forEach((choice, index) => {
      const input = document.createElement("input");
      input.type = many ? "checkbox" : "radio";
      input.name = "choice";
      input.id = `choice-${index}`;
      input.value = choice.value;
      input.addEventListener("change", () => {
        const at = picked.indexOf(choice.value);
        if (input.checked && at < 0) picked.push(choice.value);
        if (!input.checked && at >= 0) picked.splice(at, 1);
      });
      // the name is read once: as the control's name, not again as the text around it
      input.setAttribute("aria-label", choice.label);
      const words = document.createElement("span");
      words.setAttribute("aria-hidden", "true");
      words.textContent = typeset(choice.label);
      const label = document.createElement("label");
      label.className = "choice";
      label.append(input, " ", words);
      choices.push(label);
    });
  }
  $("choices").replaceChildren(...choices);
  const answer = (value) => send("answer", { asked: question.asked, value });
  const actions = [];
  if (question.form === "one") {
    actions.push(button("Valider", () => {
      const chosen = $("choices").querySelector("input:checked");
      if (chosen) answer(chosen.value);
      else nothingChosen(question);
    }));
  } else if (many) {
    const wanted = question.form === "pair" ? 2 : question.count;
    actions.push(button("Valider", () => {
      if (!picked.length) nothingChosen(question);
      else if (wanted && picked.length !== wanted) say("answer", `Cochez ${NUMBERS[wanted] || wanted} choix, puis touchez « Valider ».`);
      else answer([...picked]);
    }));
  } else if (question.form === "yes_no") {
    actions.push(button("Oui", () => answer(true)), button("Non", () => answer(false)));
  } else {
    actions.push(button(DONE, () => answer(null)));
  }
  if (question.optional && question.form !== "tap") {
    actions.push(button(PASS, () => answer(null)));
  }
  $("actions").replaceChildren(...actions);
}

const DONE = "C'est fait"; // a screen that only has to be touched (scripts' `seen` question names it)
const PASS = "Je passe"; // « personne », « rien »: said only by its own button, never by mistake
const NUMBERS = { 2: "deux", 3: "trois", 4: "quatre", 5: "cinq" };

// « Valider » with nothing ticked is no answer
function nothingChosen(question) {
  say("answer", question.optional
    ? `Rien n'est coché : cochez votre choix, ou touchez « ${PASS} ».`
    : "Rien n'est coché : cochez votre choix, puis touchez « Valider ».");
}

function button(text, onPress) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "big";
  element.textContent = text;
  element.addEventListener("click", onPress);
  return element;
}

// What the player learned is never flagged as new: a « Nouveau » on one phone, or at one moment, would
// tell a neighbour who acted or who learned something. « Ce que vous avez appris » is on every phone,
// closed, at every moment; the player opens it when the narrator's call is over.
function fillSecrets() {
  const secrets = screen ? screen.secrets : []; // newest first
  $("secrets").replaceChildren(
    ...secrets.map((text) => {
      const item = document.createElement("li");
      item.textContent = typeset(text);
      return item;
    }),
  );
  $("no-secret").hidden = secrets.length > 0;
}

// Only the living vote, and only against the living; nothing is chosen before the player chooses. The
// vote is the day's: at night (and once the game is over) the section is not on the page at all.
function renderBallot(living, seat, away) {
  $("ballot-section").hidden = away;
  const alive = living.includes(seat);
  $("ballot").hidden = !alive;
  $("ballot-dead").hidden = alive;
  const select = $("ballot-target");
  const names = living.filter((name) => name !== seat);
  if ([...select.options].slice(1).map((o) => o.value).join("\n") === names.join("\n")) return;
  const kept = names.includes(select.value) ? select.value : "";
  const none = new Option("— choisissez un nom —", "");
  none.disabled = true;
  select.replaceChildren(none, ...names.map((name) => new Option(name, name)));
  select.value = kept;
}

// -- what is secret: the card, what was learned ----------------------------------------

// A part of the page shown only when its button is pressed, until pressed again or the page is hidden;
// hidden, its words leave the page itself, not only the view. Shown, it is in a live region: read aloud.
class Secret {
  constructor(buttonId, boxId, labels, fill, empty) {
    this.button = $(buttonId);
    this.box = $(boxId);
    this.labels = labels; // [to show, to hide]
    this.fill = fill;
    this.empty = empty;
    this.button.addEventListener("click", () => (this.shown() ? this.hide() : this.show()));
  }

  shown() {
    return !this.box.hidden;
  }

  show() {
    this.fill();
    this.box.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    this.button.textContent = this.labels[1];
  }

  hide() {
    this.empty();
    this.box.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    this.button.textContent = this.labels[0];
  }
}

function fillCard() {
  const held = screen && screen.card;
  const shown = held ? [held.name, held.camp, held.symbol, held.text].join("\n") : "";
  if ($("card").dataset.shown === shown && $("card-name").textContent) return; // the same: not read again
  $("card").dataset.shown = shown;
  $("card-name").textContent = held ? typeset(held.name) : "Pas encore de carte.";
  $("card-camp").textContent = held ? typeset(held.camp) : "";
  $("card-text").textContent = held ? typeset(held.text) : "";
  $("card-symbol").replaceChildren(...(held ? [symbol(held.symbol, held.name)] : []));
}

function emptyCard() {
  for (const id of ["card-name", "card-camp", "card-text"]) $(id).textContent = "";
  $("card-symbol").replaceChildren();
  delete $("card").dataset.shown;
}

// -- the card's symbol, drawn ---------------------------------------------------------------

// 001's tactile symbols ("Adaptation"), drawn in a 100 × 100 box: lines of `STROKE`, dots filled.
const SVG = "http://www.w3.org/2000/svg";
const STROKE = 9;
const SYMBOLS = {
  "Croix": [["path", { d: "M22 22 L78 78 M78 22 L22 78" }]],
  "Égal": [["path", { d: "M16 36 H84 M16 64 H84" }]],
  "Carré": [["rect", { x: 20, y: 20, width: 60, height: 60 }]],
  "Rond": [["circle", { cx: 50, cy: 50, r: 32 }]],
  "Cible": [["circle", { cx: 50, cy: 50, r: 38 }], ["circle", { cx: 50, cy: 50, r: 22 }], ["dot", { cx: 50, cy: 50, r: 8 }]],
  "Cœur": [["path", { d: "M50 84 C16 60 10 36 24 24 C36 14 48 22 50 34 C52 22 64 14 76 24 C90 36 84 60 50 84 Z" }]],
  "Étoile": [["path", { d: star() }]],
  "Lune": [["path", { d: "M64 14 A38 38 0 1 0 64 86 A30 30 0 1 1 64 14 Z" }]],
  "Spirale": [["path", { d: spiral() }]],
  "Point d'exclamation": [["path", { d: "M50 14 V64" }], ["dot", { cx: 50, cy: 82, r: 7 }]],
  "Point d'interrogation": [["path", { d: "M30 34 A20 20 0 1 1 58 52 C50 57 50 62 50 68" }], ["dot", { cx: 50, cy: 84, r: 7 }]],
};

function star() {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? 17 : 40;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(50 + r * Math.cos(a)).toFixed(1)} ${(52 + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${points.join(" L")} Z`;
}

function spiral() {
  const points = [];
  for (let a = 0; a <= Math.PI * 6; a += Math.PI / 12) {
    const r = 2 + a * 2;
    points.push(`${(50 + r * Math.cos(a)).toFixed(1)} ${(50 + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${points.join(" L")}`;
}

// The card's tactile symbol when it has one (announced: « Symbole : Croix »); else, for the games whose
// rulebook gives none, its initial in a circle (a picture only: the name is already said).
function symbol(name, cardName) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "symbol");
  const shapes = SYMBOLS[name];
  if (shapes) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Symbole : ${name}`);
    for (const [kind, attributes] of shapes) {
      const shape = document.createElementNS(SVG, kind === "dot" ? "circle" : kind);
      for (const [key, value] of Object.entries(attributes)) shape.setAttribute(key, value);
      shape.setAttribute("fill", kind === "dot" ? "currentColor" : "none");
      shape.setAttribute("stroke", "currentColor");
      shape.setAttribute("stroke-width", kind === "dot" ? 0 : STROKE);
      shape.setAttribute("stroke-linecap", "round");
      shape.setAttribute("stroke-linejoin", "round");
      svg.append(shape);
    }
    return svg;
  }
  svg.setAttribute("aria-hidden", "true");
  const ring = document.createElementNS(SVG, "circle");
  for (const [key, value] of Object.entries({ cx: 50, cy: 50, r: 42, fill: "none", stroke: "currentColor" })) {
    ring.setAttribute(key, value);
  }
  ring.setAttribute("stroke-width", 5);
  const letter = document.createElementNS(SVG, "text");
  for (const [key, value] of Object.entries({ x: 50, y: 52, "text-anchor": "middle", "dominant-baseline": "central" })) {
    letter.setAttribute(key, value);
  }
  letter.setAttribute("font-size", 52);
  letter.setAttribute("font-weight", "bold");
  letter.setAttribute("fill", "currentColor");
  letter.textContent = (cardName || "?").slice(0, 1).toUpperCase();
  svg.append(ring, letter);
  return svg;
}

const card = new Secret("card-button", "card", ["Voir ma carte", "Cacher ma carte"], fillCard, emptyCard);
const learned = new Secret(
  "secrets-button",
  "learned",
  ["Voir ce que j'ai appris", "Cacher ce que j'ai appris"],
  fillSecrets,
  () => $("secrets").replaceChildren(),
);

function hideSecrets() {
  card.hide();
  learned.hide();
}
addEventListener("pagehide", hideSecrets);

// -- the rest ----------------------------------------------------------------------------

$("question").addEventListener("submit", (event) => event.preventDefault());
$("ballot-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const target = $("ballot-target").value;
  if (target) send("ballot", { target });
  else say("ballot", "Aucun nom n'est choisi : choisissez un nom, ou touchez « Voter blanc ».");
});
$("ballot-target").addEventListener("change", () => say("ballot", "")); // an old reply is not the new one's
$("ballot-blank").addEventListener("click", () => send("ballot", { target: null }));

let wakeLock = null;
async function keepAwake() {
  // Screen Wake Lock exists only where the browser allows it (a secure page): elsewhere, nothing.
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || wakeLock) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    wakeLock.addEventListener("release", () => (wakeLock = null));
  } catch {
    wakeLock = null;
  }
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") hideSecrets();
  else keepAwake();
});

keepAwake();
connect();
