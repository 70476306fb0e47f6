// The check-in desk at the pace of a queue: type part of a name, Enter. Enter posts what
// was typed (the server checks in the only match, or lists several, or offers a walk-in),
// so it never waits for the search as you type; arrow keys pick among several and Enter
// checks in the one picked. After each check-in the box clears and keeps the focus.
// Without script the form is a plain search page with a tap per name.
(function () {
  "use strict";
  const form = document.getElementById("desk-form");
  if (!form || !window.htmx) return;
  const input = document.getElementById("desk-q");
  const results = document.getElementById("desk-results");
  let timer = null;
  let seq = 0; // a search answer older than the last request is dropped
  let active = -1;

  function rows() {
    return Array.from(results.querySelectorAll(".desk-row"));
  }
  function mark(index) {
    const list = rows();
    active = list.length ? Math.max(0, Math.min(index, list.length - 1)) : -1;
    list.forEach((row, i) => {
      row.classList.toggle("active", i === active);
      if (i === active) {
        row.setAttribute("aria-current", "true");
        row.scrollIntoView({ block: "nearest" });
      } else {
        row.removeAttribute("aria-current");
      }
    });
  }
  function search() {
    const mine = ++seq;
    const q = input.value.trim();
    const url = form.dataset.searchUrl + "?q=" + encodeURIComponent(q);
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then((r) => (r.ok ? r.text() : null))
      .then((html) => {
        // Nor is one that would replace a row the desk has already tabbed onto.
        if (html === null || mine !== seq || results.contains(document.activeElement)) return;
        results.innerHTML = html;
        window.htmx.process(results);
        active = -1;
      })
      .catch(() => {});
  }
  function enter() {
    window.clearTimeout(timer);
    const list = rows();
    if (active >= 0 && list[active]) {
      const button = list[active].querySelector("button");
      if (button) button.click();
      return;
    }
    if (!input.value.trim()) return;
    seq++;
    window.htmx.ajax("POST", form.dataset.enterUrl, {
      source: form, target: results, swap: "innerHTML", values: { q: input.value },
    });
  }

  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    active = -1;
    timer = window.setTimeout(search, 120);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); enter(); }
    else if (e.key === "ArrowDown") { e.preventDefault(); mark(active + 1); }
    else if (e.key === "ArrowUp") { e.preventDefault(); mark(active - 1); }
    else if (e.key === "Escape") { input.value = ""; window.clearTimeout(timer); search(); }
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); enter(); });
  // A request from the desk itself (a tap on Check in or undo) outdates a search in
  // flight; the page's other polls (the help banner) do not.
  document.body.addEventListener("htmx:beforeRequest", (e) => {
    if (e.target instanceof Element && e.target.closest("#desk-results, #desk-recent")) seq++;
  });
  document.body.addEventListener("deskDone", () => {
    window.clearTimeout(timer);
    input.value = "";
    active = -1;
    input.focus();
  });
  // A name typed while the page was still loading (a busy laptop, a slow hall network)
  // is searched now: its keystrokes came before this script was listening.
  if (input.value.trim()) search();
})();
