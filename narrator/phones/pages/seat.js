// A seat's page: its screen comes over a WebSocket (the seat's cookie proves who it is) on every
// change; the card and what the player learned stay hidden until asked for; answers and ballots go back over the same socket
// (or by POST while it is down). The page reconnects by itself when the narrator comes back.
"use strict";

const SHOWN_MS = 10000; // the card (or what was learned) hides itself again after this long
const RETRY_MS = [500, 1000, 2000, 4000]; // waits between reconnections, then the last one again
const SEAT_FREED = 4001; // close code: this phone no longer holds the seat
const GAME_OVER = 4002; // close code: the game is over, nothing to reconnect to
const TOO_MANY = 1008; // close code: too many pages on this seat, the oldest closed
const $ = (id) => document.getElementById(id);

let screen = null;
let over = false; // the narrator said the game is over
let socket = null;
let tries = 0;
let shownAsked = -1; // the question whose controls are on the page (kept while it is the same)
let seenSecrets = 0; // how many secrets the player has seen (the others are news)
let nextId = 0;
const pending = new Map(); // message id -> "answer" | "ballot"

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
    else if (message.type === "over") end();
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
      $("connection").textContent = "Cette place est ouverte sur une autre page : rechargez celle-ci pour la reprendre.";
      return;
    }
    $("connection").textContent = "Connexion perdue : reconnexion…";
    setTimeout(reconnect, RETRY_MS[Math.min(tries++, RETRY_MS.length - 1)]);
  });
}

function end() {
  over = true;
  $("connection").textContent = "La partie est finie.";
  $("status").textContent = "La partie est finie.";
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
  if (!reply.ok) say(kind, `Refusé : ${reply.error}.`);
  else if (kind === "ballot") say(kind, `Vote envoyé : « ${reply.said} ».`);
  else say(kind, "");
}

function say(kind, text) {
  $(kind === "ballot" ? "ballot-reply" : "question-reply").textContent = text;
}

// -- the screen --------------------------------------------------------------------------

function render(next) {
  const first = screen === null;
  screen = next;
  $("seat-name").textContent = `Place : ${next.seat}`;
  document.title = `${next.seat} — Narrateur`;
  $("status").textContent = next.status;
  if (card.shown()) card.fill(); // kept up to date, not kept longer
  renderQuestion(next.question, next.vibrate && !first);
  renderSecrets(next.secrets);
  renderBallot(next.players, next.seat);
}

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
  $("question-text").textContent = question.text;
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
      const label = document.createElement("label");
      label.htmlFor = input.id;
      label.className = "choice";
      label.append(input, " ", choice.label);
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
    actions.push(button("Valider", () => (picked.length ? answer([...picked]) : nothingChosen(question))));
  } else if (question.form === "yes_no") {
    actions.push(button("Oui", () => answer(true)), button("Non", () => answer(false)));
  } else {
    actions.push(button("Continuer", () => answer(null)));
  }
  if (question.optional && question.form !== "tap") {
    actions.push(button("Personne / rien", () => answer(null)));
  }
  $("actions").replaceChildren(...actions);
}

// « Valider » with nothing ticked is no answer: « rien » is said only by its own button, never by mistake
function nothingChosen(question) {
  $("question-reply").textContent = question.optional
    ? "Rien n'est coché : cochez votre choix, ou touchez « Personne / rien »."
    : "Rien n'est coché : cochez votre choix, puis touchez « Valider ».";
}

function button(text, onPress) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "big";
  element.textContent = text;
  element.addEventListener("click", onPress);
  return element;
}

// A new secret is announced only in the part of the game (the status: « Nuit 2 ») where it came and
// where this phone was asked something, as every phone is at night (real or decoy): when the status
// changes — the day — no phone says it any more, and one learned in the day is never announced, so
// every phone looks the same while the table is awake. The secret stays in the list all the same.
let heardSecrets = 0; // secrets this page has received
let askedUnder = null; // the status under which this phone last showed a question
let newsUnder = null; // the status under which its unseen secrets were announced

function renderSecrets(secrets) {
  if (secrets.length < seenSecrets) seenSecrets = heardSecrets = 0; // a new game on the same seat
  if (learned.shown()) learned.fill();
  if (screen.question) askedUnder = screen.status;
  if (secrets.length > heardSecrets) {
    heardSecrets = secrets.length;
    newsUnder = askedUnder === screen.status ? screen.status : null;
  }
  // only that something is new, never what: a neighbour glancing at the screen reads nothing
  const fresh = secrets.length > seenSecrets && newsUnder !== null && newsUnder === screen.status;
  const news = fresh ? "Nouveau : touchez pour voir." : "";
  if ($("secrets-news").textContent !== news) $("secrets-news").textContent = news;
}

function fillSecrets() {
  const secrets = screen ? screen.secrets : []; // newest first
  $("secrets").replaceChildren(
    ...secrets.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }),
  );
  $("no-secret").hidden = secrets.length > 0;
  seenSecrets = secrets.length;
  $("secrets-news").textContent = "";
}

function renderBallot(players, seat) {
  const select = $("ballot-target");
  const names = players.filter((name) => name !== seat);
  if ([...select.options].map((o) => o.value).join("\n") === names.join("\n")) return;
  select.replaceChildren(...names.map((name) => new Option(name, name)));
}

// -- what is secret: the card, what was learned ----------------------------------------

// A part of the page shown only when its button is pressed, for SHOWN_MS at most, never while the page
// is hidden; hidden, its words leave the page itself, not only the view.
class Secret {
  constructor(buttonId, boxId, labels, fill, empty) {
    this.button = $(buttonId);
    this.box = $(boxId);
    this.labels = labels; // [to show, to hide]
    this.fill = fill;
    this.empty = empty;
    this.timer = 0;
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
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), SHOWN_MS);
  }

  hide() {
    clearTimeout(this.timer);
    this.empty();
    this.box.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    this.button.textContent = this.labels[0];
  }
}

function fillCard() {
  const held = screen && screen.card;
  $("card-name").textContent = held ? held.name : "Pas encore de carte.";
  $("card-text").textContent = held ? held.text : "";
  $("card-symbol").textContent = held && held.symbol ? `Symbole : ${held.symbol}` : "";
}

function emptyCard() {
  for (const id of ["card-name", "card-text", "card-symbol"]) $(id).textContent = "";
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
  send("ballot", { target: $("ballot-target").value });
});
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
