/* The one modal dialog: a title, a text, optional choices with a live preview, an
 * optional note, OK and Cancel. */

import { $, el } from "./dom.js";

let spec = null;
let choice = null;
let changed = () => {};

/* What to call when a dialog's action has run (render.js). */
export function onClose(render) {
  changed = render;
}

export function updateDialog() {
  if (!spec) return;
  const note = $("tb-dialog-note").value.trim();
  $("tb-dialog-preview").textContent = spec.preview ? spec.preview(choice) : "";
  $("tb-dialog-ok").disabled = (spec.choices && !choice && !spec.optional)
    || (spec.note && !note);
}

export function openDialog(next) {
  spec = next;
  choice = null;
  $("tb-dialog-title").textContent = spec.title;
  $("tb-dialog-text").textContent = spec.text || "";
  const choices = $("tb-dialog-choices");
  choices.replaceChildren();
  choices.hidden = !spec.choices;
  choices.setAttribute("aria-label", spec.title);
  for (const c of spec.choices || []) {
    choices.append(el("button", {
      type: "button", class: `tb-choice-btn tb-${(c.team || "").toLowerCase()}`,
      "aria-pressed": "false", "data-value": c.value, text: c.label,
      onclick: () => {
        choice = c.value;
        for (const b of choices.children) {
          b.setAttribute("aria-pressed", b.dataset.value === c.value ? "true" : "false");
        }
        updateDialog();
      },
    }));
  }
  const note = $("tb-dialog-note");
  note.value = "";
  note.hidden = !spec.note;
  $("tb-dialog-note-label").hidden = !spec.note;
  const ok = $("tb-dialog-ok");
  ok.textContent = spec.ok || "OK";
  ok.className = `${spec.danger ? "danger" : "primary"} tb-big`;
  updateDialog();
  $("tb-dialog").showModal();
}

export function closeDialog(run) {
  const done = spec;
  const chosen = choice;
  const note = $("tb-dialog-note").value.trim();
  spec = null;
  $("tb-dialog").close();
  if (run && done) done.onOk(chosen, note);
  changed();
}

/* The dialog was dismissed (Escape): nothing runs. */
export function dropDialog() {
  spec = null;
}
