/* Both sides of the table: one tap turns the screen 180° for the team
 * across (to confirm a result or answer the time call) and back; larger text and high
 * contrast, as on the phones; and "two taps" (select, then confirm) for a table whose
 * fingers slip: an action's button asks to be tapped again before it acts. Each choice
 * but the flip is kept on this tablet (localStorage). */

import { $ } from "./dom.js";
import { load, store } from "./store.js";

const root = document.getElementById("tablet");
const prefs = Object.assign({ large: false, contrast: false, twoTaps: false }, load("display", {}));
// The actions that act at once; in two-taps mode each asks for a second tap.
const CONFIRMED = ["tb-save", "tb-start-save", "tb-call-yes", "tb-call-no", "tb-agree",
  "tb-dialog-ok"];
const ARMED_MS = 5000;
let armed = null;
let armedTimer = null;

function apply() {
  root.classList.toggle("tb-large", prefs.large);
  // The screen's sizes are in rem: larger text scales the root.
  document.documentElement.classList.toggle("tb-large-text", prefs.large);
  root.classList.toggle("tb-contrast", prefs.contrast);
  root.classList.toggle("tb-two-taps", prefs.twoTaps);
  for (const [id, key] of [["tb-large", "large"], ["tb-contrast", "contrast"],
    ["tb-two-taps", "twoTaps"]]) {
    $(id).setAttribute("aria-pressed", prefs[key] ? "true" : "false");
  }
}

function disarm() {
  if (!armed) return;
  armed.classList.remove("tb-armed");
  armed.removeAttribute("data-confirm-text");
  armed = null;
  clearTimeout(armedTimer);
}

/* In two-taps mode, the first tap on an action arms it ("tap again to confirm"); the
 * second, within a few seconds, lets it act. */
function guard(event) {
  if (!prefs.twoTaps) return;
  const btn = event.target.closest ? event.target.closest("button") : null;
  if (!btn || !CONFIRMED.includes(btn.id) || btn.disabled) return;
  if (armed === btn) {
    disarm();
    return;
  }
  disarm();
  event.preventDefault();
  event.stopImmediatePropagation();
  armed = btn;
  btn.classList.add("tb-armed");
  btn.dataset.confirmText = root.dataset.textConfirm || "Tap again to confirm"; // the page's words
  armedTimer = setTimeout(disarm, ARMED_MS);
}

export function wireDisplay() {
  $("tb-flip").addEventListener("click", () => {
    const flipped = root.classList.toggle("tb-flipped");
    $("tb-flip").setAttribute("aria-pressed", flipped ? "true" : "false");
  });
  $("tb-display").addEventListener("click", () => {
    $("tb-display-panel").hidden = !$("tb-display-panel").hidden;
    $("tb-display").setAttribute("aria-expanded", $("tb-display-panel").hidden ? "false" : "true");
  });
  for (const [id, key] of [["tb-large", "large"], ["tb-contrast", "contrast"],
    ["tb-two-taps", "twoTaps"]]) {
    $(id).addEventListener("click", () => {
      prefs[key] = !prefs[key];
      store("display", prefs);
      disarm();
      apply();
    });
  }
  document.addEventListener("click", guard, true);
  apply();
}
