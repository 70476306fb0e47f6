/* Small DOM helpers and the words the screen uses for seats and teams. */

import { gettext, pgettext } from "./i18n.js";

export const SEAT_NAMES = {
  N: gettext("North"), E: gettext("East"), S: gettext("South"), W: gettext("West"),
};
export const TEAM_NAMES = { NS: gettext("North–South"), EW: gettext("East–West") };

/* The mark beside a seated player's name: the division, or "house" for a house player
 * (§6), in the same words as the sheets and pages (msgctxt "house player"). */
export const markOf = (s) => (s.house ? pgettext("house player", "house") : s.division || "");

export const $ = (id) => document.getElementById(id);

export const el = (tag, attrs, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
};

export const show = (id, visible) => {
  $(id).hidden = !visible;
};

export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/* Put ``nodes`` in ``parent`` only when they show something else than what is there. The
 * screen is drawn again at every poll (every 3 s); swapping a button out between a
 * finger's press and its release loses the tap (the press and the release then land on
 * different elements, and the browser sends no click), so an unchanged button stays the
 * very same element. */
export function swap(parent, ...nodes) {
  const next = document.createElement(parent.tagName);
  for (const n of nodes) if (n !== null && n !== undefined) next.append(n);
  if (next.innerHTML !== parent.innerHTML) parent.replaceChildren(...next.childNodes);
}
