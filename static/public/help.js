/* Calling the director from a player's card (templates/public/_help.html): for the table
 * the player sits at. The card asks help.json once; it asks again every 5 s only while a
 * call of its table is open, so 2,000 phones add nothing to a quiet room. */

const box = document.querySelector("[data-phone-help]");
const POLL_MS = 5000;

const csrfToken = () => {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
};

let timer = null;

function show(data, error) {
  const status = box.querySelector("[data-help-status]");
  const open = box.querySelector("[data-help-open]");
  box.hidden = !data || data.table === null || data.table === undefined;
  const h = data ? data.help : null;
  let text = error || "";
  if (!text && h) {
    if (h.status === "open") text = box.dataset.textOpen;
    else if (h.status === "coming") text = `${box.dataset.textComing} ${h.coming_by}.`;
    else if (h.status === "resolved") text = `${box.dataset.textResolved} ${h.resolved_by}.`;
  }
  status.textContent = text;
  status.dataset.status = h ? h.status : "";
  open.disabled = !!(h && h.status !== "resolved");
  clearTimeout(timer);
  if (h && h.status !== "resolved") timer = setTimeout(read, POLL_MS);
}

let last = null;

async function read() {
  try {
    const res = await fetch(box.dataset.stateUrl, { cache: "no-store",
      headers: { "Accept": "application/json" } });
    if (!res.ok) return;
    last = await res.json();
    show(last, "");
  } catch (e) {
    timer = setTimeout(read, POLL_MS);
  }
}

async function call(reason) {
  box.querySelector("[data-help-reasons]").hidden = true;
  let data = {};
  try {
    const res = await fetch(box.dataset.url, { method: "POST", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(),
        "Accept": "application/json" },
      body: JSON.stringify({ reason }) });
    data = await res.json().catch(() => ({}));
    if (res.ok) {
      last = Object.assign({}, last, { help: data.help });
      show(last, "");
      return;
    }
  } catch (e) { /* offline: say so */ }
  show(last, data.error || box.dataset.textFailed);
}

if (box) {
  box.querySelector("[data-help-open]").addEventListener("click", () => {
    const reasons = box.querySelector("[data-help-reasons]");
    reasons.hidden = !reasons.hidden;
  });
  for (const b of box.querySelectorAll("[data-reason]")) {
    b.addEventListener("click", () => call(b.dataset.reason));
  }
  read();
}
