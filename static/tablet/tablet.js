/* The scorekeeper's tablet (docs/tablet-api.md): the entry point, which wires the
 * screen's controls to the actions and starts polling.
 *
 * Every change the table makes goes into an ordered queue kept in localStorage
 * (store.js), is shown at once marked "not yet sent" (view.js, render.js), and is sent in
 * order whenever the network allows (api.js). The modules: store (state and queue), api
 * (the server), rules (the scorer the preview needs), view (server state plus queue),
 * actions (what the table does), dialog, render, dom, and ../shared/time.js (the clock
 * formatter shared with the console and the projector).
 */

import { flush, onChange, poll, pollDelay, setOnline } from "./api.js";
import {
  answerCall, canEnter, changeAnswerDialog, confirmResult, misdealDialog, onAction,
  renegeDialog, saveHand, startMatch, undoDialog,
} from "./actions.js";
import { closeDialog, dropDialog, onClose, updateDialog } from "./dialog.js";
import { $ } from "./dom.js";
import { wireDisplay } from "./display.js";
import { watchBattery } from "./health.js";
import { kiosk, onKiosk, syncWakeLock, wireKiosk } from "./kiosk.js";
import { helpDialog, onHelp, readHelp } from "./help.js";
import { render, renderClock } from "./render.js";
import { ds, resetEntry, st, ui } from "./store.js";
import { view } from "./view.js";

const POLL_MS = 3000;

if (ds.scope) {
  onChange(render);
  onAction(render);
  onClose(render);
  onHelp(render);
  onKiosk(render);
  wireKiosk();
  wireDisplay();
  wireEntry();
  wireButtons();
  start();
}

/* The seats, Alone, Ordered up and the tricks: the entry being made. */
function wireEntry() {
  for (const btn of document.querySelectorAll(".tb-seat")) {
    btn.addEventListener("click", () => {
      const seat = btn.dataset.seat;
      const v = view();
      if (!v || !v.match) return;
      if (!v.match.first_dealer && !v.match.over) {
        ui.firstDealer = seat;
      } else if (canEnter(v)) {
        if (ui.maker === seat) resetEntry();
        else {
          ui.maker = seat;
          ui.ordered = false;
          ui.defender = null;
        }
      }
      render();
    });
  }
  $("tb-alone").addEventListener("click", () => { ui.alone = !ui.alone; render(); });
  $("tb-ordered").addEventListener("click", () => {
    ui.ordered = !ui.ordered;
    if (ui.ordered) ui.alone = true;  // the dealer's partner who orders up must go alone
    render();
  });
  for (const b of document.querySelectorAll("#tb-tricks button")) {
    b.addEventListener("click", () => { ui.tricks = Number(b.dataset.tricks); render(); });
  }
  $("tb-clear").addEventListener("click", () => { resetEntry(); render(); });
}

/* The buttons that act (actions.js) and the dialog's. */
function wireButtons() {
  $("tb-help").addEventListener("click", helpDialog);
  $("tb-change-answer").addEventListener("click", changeAnswerDialog);
  $("tb-entry-change-answer").addEventListener("click", changeAnswerDialog);
  $("tb-save").addEventListener("click", saveHand);
  $("tb-renege").addEventListener("click", renegeDialog);
  $("tb-misdeal").addEventListener("click", misdealDialog);
  $("tb-undo").addEventListener("click", undoDialog);
  $("tb-start-save").addEventListener("click", startMatch);
  $("tb-call-yes").addEventListener("click", () => answerCall(true));
  $("tb-call-no").addEventListener("click", () => answerCall(false));
  $("tb-agree").addEventListener("click", () => confirmResult(true));
  $("tb-dispute").addEventListener("click", () => confirmResult(false));
  $("tb-dialog-ok").addEventListener("click", () => closeDialog(true));
  $("tb-dialog-cancel").addEventListener("click", () => closeDialog(false));
  $("tb-dialog-note").addEventListener("input", updateDialog);
  $("tb-dialog").addEventListener("cancel", dropDialog);
}

/* The network, the offline worker, the first drawing and the timers. */
function start() {
  window.addEventListener("online", () => { setOnline(true); flush(); poll(); });
  window.addEventListener("offline", () => { setOnline(false); render(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") poll();
    syncWakeLock();
  });

  if ("serviceWorker" in navigator && ds.swUrl) {
    // The worker keeps the screen itself, so a reload without network still opens it.
    navigator.serviceWorker.register(`${ds.swUrl}?static=${encodeURIComponent(ds.staticUrl)}`)
      .then(() => (window.caches ? caches.open("snowman-tablet-v1") : null))
      .then((cache) => cache && cache.addAll([location.pathname,
        ...ds.assets.split(" ").filter(Boolean)]))
      .catch(() => { /* offline reloads are a bonus, never a requirement */ });
  }

  // Expose the queue for the browser tests and for a curious director with devtools.
  window.snowmanTablet = { queue: () => st.queue.slice(), poll, flush, kiosk };

  watchBattery();
  render();
  const beat = () => poll().then(readHelp).then(syncWakeLock).finally(() => setTimeout(beat, pollDelay(POLL_MS)));
  beat();
  setInterval(renderClock, 250);
  setInterval(() => { if (st.queue.length && !st.flushing) flush(); }, 5000);
}
