/* Kiosk mode (docs/tablet-api.md, "Kiosk mode"; the event's setting, on by default): full
 * screen asked for at the first tap, the screen kept awake while the round runs (Screen
 * Wake Lock, taken again when the page comes back into view), a warning before leaving or
 * reloading with entries not yet sent, and the director's controls behind the PIN. */

import { $ } from "./dom.js";
import { ds, st } from "./store.js";

const on = ds.kiosk === "1";
// What the browser offered and what was done, for the browser tests and a curious director.
export const kiosk = {
  on,
  apis: {
    fullscreen: !!document.documentElement.requestFullscreen,
    wakeLock: !!(navigator.wakeLock && navigator.wakeLock.request),
    battery: typeof navigator.getBattery === "function",
  },
  fullscreenRequested: false,
  fullscreenError: null,
  wakeLockHeld: false,
  wakeLockError: null,
  directorOpen: false,
  // The director switched kiosk off on this tablet until the page is reloaded.
  released: false,
};

let sentinel = null;
let closeTimer = null;
let changed = () => {};

export function onKiosk(render) {
  changed = render;
}

function askFullscreen() {
  if (!on || kiosk.released || document.fullscreenElement || !kiosk.apis.fullscreen) return;
  kiosk.fullscreenRequested = true;
  document.documentElement.requestFullscreen().catch((e) => { kiosk.fullscreenError = e.name; });
}

const roundRuns = () => !!(st.server && st.server.round && st.server.round.status === "running");

/* Hold the wake lock while the round runs (and the page is seen); let it go otherwise. */
export function syncWakeLock() {
  const want = on && !kiosk.released && roundRuns() && document.visibilityState === "visible";
  if (want && !sentinel && kiosk.apis.wakeLock) {
    sentinel = "asking";
    navigator.wakeLock.request("screen").then((s) => {
      sentinel = s;
      kiosk.wakeLockHeld = true;
      s.addEventListener("release", () => {
        // The browser lets it go when the page is hidden: visibilitychange takes it again.
        sentinel = null;
        kiosk.wakeLockHeld = false;
      });
    }).catch((e) => {
      sentinel = null;
      kiosk.wakeLockError = e.name;
    });
  } else if (!want && sentinel && sentinel !== "asking") {
    sentinel.release().catch(() => {});
    sentinel = null;
    kiosk.wakeLockHeld = false;
  }
}

const csrfToken = () => {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
};

function setDirector(open, until) {
  kiosk.directorOpen = open;
  document.body.classList.toggle("tb-director-open", open);
  $("tb-director-panel").hidden = !open;
  clearTimeout(closeTimer);
  if (open) closeTimer = setTimeout(() => setDirector(false), Math.max(1000, until - Date.now()));
  changed();
}

async function submitPin() {
  const input = $("tb-pin-input");
  const error = $("tb-pin-error");
  let res;
  try {
    res = await fetch(ds.pinUrl, { method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(),
        "Accept": "application/json" },
      body: JSON.stringify({ pin: input.value }) });
  } catch (e) {
    error.textContent = ds.textPinOffline;
    return;
  }
  const data = await res.json().catch(() => ({}));
  input.value = "";
  if (res.ok) {
    error.textContent = "";
    $("tb-pin").close();
    setDirector(true, Date.parse(data.open_until) || Date.now() + 300000);
    return;
  }
  error.textContent = data.error || ds.textPinFailed;
}

export function wireKiosk() {
  document.body.classList.toggle("tb-kiosk", on);
  $("tb-director").hidden = !on;
  if (!on) return;
  document.addEventListener("pointerdown", askFullscreen, true);
  document.addEventListener("visibilitychange", syncWakeLock);
  window.addEventListener("beforeunload", (event) => {
    if (kiosk.released || !st.queue.length) return;
    // Entries not yet sent live only on this tablet: leaving now could strand them.
    event.preventDefault();
    event.returnValue = "";
  });
  $("tb-director").addEventListener("click", () => {
    if (kiosk.directorOpen) { setDirector(false); return; }
    $("tb-pin-error").textContent = "";
    $("tb-pin").showModal();
    $("tb-pin-input").focus();
  });
  $("tb-pin-ok").addEventListener("click", submitPin);
  $("tb-pin-input").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); submitPin(); }
  });
  $("tb-pin-cancel").addEventListener("click", () => $("tb-pin").close());
  $("tb-director-lock").addEventListener("click", () => setDirector(false));
  $("tb-director-release").addEventListener("click", () => {
    kiosk.released = true;
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    syncWakeLock();
    setDirector(false);
  });
}
