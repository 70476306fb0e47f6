// "Enter from the scoresheet": each row's dealer, points and the running score, and the
// match's result and bonuses, previewed as the director keys the sheet, by the tablet's
// own scorer (static/tablet/rules.js, the Python rules' twin). The server scores for real.
import { afterHand, dealerFor } from "../tablet/rules.js";

const form = document.getElementById("scoresheet");
const rules = JSON.parse(document.getElementById("scoresheet-rules").textContent);
const start = JSON.parse(document.getElementById("scoresheet-start").textContent);
const preview = document.getElementById("scoresheet-preview");
const firstSelect = form.querySelector("select[name=first_dealer]");

function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

function bodyOf(row) {
  const play = row.querySelector("select").value;
  const alone = row.querySelector("input[type=checkbox]").checked;
  const tricks = row.querySelector("input[type=text]").value.trim();
  if (!play) return null;
  if (play === "misdeal") return { outcome: "misdeal" };
  if (play.startsWith("renege-")) return { outcome: "renege", renege_by: play.slice(7) };
  if (!/^[0-5]$/.test(tricks)) return { incomplete: true, maker: play };
  return { outcome: "played", maker: play, alone, maker_tricks: Number(tricks) };
}

function render() {
  const first = start.first || (firstSelect && firstSelect.value) || null;
  let state = { score: { ...start.score }, phase: start.phase };
  let number = start.hands;
  let over = null;
  form.querySelectorAll("tr[data-row]").forEach((row) => {
    const body = bodyOf(row);
    const cells = { dealer: row.querySelector("[data-dealer]"), ns: row.querySelector("[data-ns]"),
      ew: row.querySelector("[data-ew]") };
    row.classList.toggle("after-end", !!(over && body));
    if (!body) { cells.dealer.textContent = ""; cells.ns.textContent = ""; cells.ew.textContent = ""; return; }
    number += 1;
    cells.dealer.textContent = dealerFor(first, number) || "";
    if (body.incomplete || over) {
      cells.ns.textContent = over ? form.dataset.textAfterEnd : "";
      cells.ew.textContent = "";
      return;
    }
    const next = afterHand(state, body, rules);
    cells.ns.textContent = `${next.score.NS}`;
    cells.ew.textContent = `${next.score.EW}`;
    state = { score: next.score, phase: next.nextPhase || state.phase };
    if (next.over) over = next;
  });
  if (over) {
    preview.textContent = fill(form.dataset.textOver, {
      team: over.winner === "NS" ? form.dataset.textNs : form.dataset.textEw,
      ns: over.score.NS, ew: over.score.EW, bns: over.bonuses.NS, bew: over.bonuses.EW,
    });
  } else {
    preview.textContent = fill(form.dataset.textRunning, { ns: state.score.NS, ew: state.score.EW });
  }
}

form.addEventListener("input", render);
form.addEventListener("change", render);
render();
