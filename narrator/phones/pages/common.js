// What the seat's page (seat.js) and the join page (join.js) share: French typography for the text they
// set, and the end of the game (who won, every card, the story once the table asked for it).
"use strict";

// French typography for the text a page sets: a narrow no-break space before « ; ! ? », a no-break space
// before « : » and inside « », so that a sign never starts a line alone.
function typeset(text) {
  return String(text)
    .replace(/[ \u00a0\u202f]*([;!?])/g, (sign, mark, at, whole) => (at === 0 ? sign : `\u202f${mark}`))
    .replace(/[ \u00a0\u202f]*:(?=\s|$)/g, (colon, at) => (at === 0 ? colon : "\u00a0:"))
    .replace(/«[ \u00a0\u202f]*/g, "«\u00a0")
    .replace(/[ \u00a0\u202f]*»/g, "\u00a0»");
}

// The end's words in the page's #end section (its title, and whether it shows, are each page's own).
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
