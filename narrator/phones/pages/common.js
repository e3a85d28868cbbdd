// What the join page and the seat's page share. The server puts it at the head of join.js and seat.js
// as it serves them (narrator/phones/server.py): each page still loads one script, so one connection.
"use strict";

// French typography for the text a page sets: a narrow no-break space before
// « ; ! ? », a no-break space before « : » and inside « », so that a sign never starts a line alone.
function typeset(text) {
  return String(text)
    .replace(/[ \u00a0\u202f]*([;!?])/g, (sign, mark, at, whole) => (at === 0 ? sign : `\u202f${mark}`))
    .replace(/[ \u00a0\u202f]*:(?=\s|$)/g, (colon, at) => (at === 0 ? colon : "\u00a0:"))
    .replace(/«[ \u00a0\u202f]*/g, "«\u00a0")
    .replace(/[ \u00a0\u202f]*»/g, "\u00a0»");
}

// The end's words in the page's #end section.
function fillEnd(payload) {
  const byId = (id) => document.getElementById(id);
  byId("end-winners").textContent = typeset(payload.winners || "");
  byId("end-card-rows").replaceChildren(
    ...(payload.cards || []).map((row) => {
      const line = document.createElement("tr");
      const who = document.createElement("th");
      who.scope = "row";
      who.textContent = row.player;
      const what = document.createElement("td");
      what.textContent = typeset(row.first_card && row.first_card !== row.card
        ? `${row.card} (au début : ${row.first_card})`
        : row.card);
      line.append(who, what);
      return line;
    }),
  );
  const story = payload.story || [];
  byId("end-story").replaceChildren(
    ...story.map((text) => {
      const item = document.createElement("li");
      item.textContent = typeset(text);
      return item;
    }),
  );
  byId("end-story-box").hidden = story.length === 0;
}
