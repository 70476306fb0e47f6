/* Device health (docs/tablet-api.md, "Device health"): the poll tells the server how many
 * entries wait here and the battery, where the browser says (navigator.getBattery), every
 * ``data-health-every`` seconds and at once when a figure changes. */

import { ds, st } from "./store.js";

const EVERY_MS = (Number(ds.healthEvery) || 20) * 1000;
let battery = null;
let last = { at: 0, value: "" };

export function watchBattery() {
  if (!navigator.getBattery) return;
  navigator.getBattery().then((b) => {
    const take = () => { battery = { level: Math.round(b.level * 100), charging: b.charging }; };
    take();
    b.addEventListener("levelchange", take);
    b.addEventListener("chargingchange", take);
  }).catch(() => { /* not offered: the board shows no battery */ });
}

/* The header's value when a report is due, else null. */
export function healthHeader() {
  const parts = [`unsent=${st.queue.length}`];
  if (battery) parts.push(`battery=${battery.level}`, `charging=${battery.charging ? 1 : 0}`);
  const value = parts.join(";");
  const now = Date.now();
  if (value === last.value && now - last.at < EVERY_MS) return null;
  last = { at: now, value };
  return value;
}
