// The set-up form: a format (preset) fills the rules folded under "Advanced", and the
// tiebreak chain is ordered with buttons instead of typed. The posted fields are what
// counts: without script, the same fields are there to type.
(function () {
  "use strict";
  const presets = document.getElementById("presets");
  if (presets) {
    const values = JSON.parse(presets.dataset.presets);
    presets.addEventListener("change", (e) => {
      const chosen = values[e.target.value];
      if (!chosen) {
        document.getElementById("advanced").open = true;
        return;
      }
      Object.entries(chosen).forEach(([name, value]) => {
        const field = document.querySelector(`.settings-form [name="${name}"]`);
        if (!field) return;
        if (field.type === "checkbox") field.checked = !!value;
        else field.value = String(value);
      });
      renderChain();
    });
  }

  const holder = document.getElementById("tiebreak-field");
  const input = holder && holder.querySelector("input[name=tiebreaks]");
  const labels = holder ? JSON.parse(holder.dataset.labels) : {};
  let list = null;
  function keys() {
    return input.value.split(",").map((k) => k.trim().toLowerCase()).filter((k) => k);
  }
  function move(index, step) {
    const chain = keys();
    const to = index + step;
    if (to < 0 || to >= chain.length) return;
    [chain[index], chain[to]] = [chain[to], chain[index]];
    input.value = chain.join(", ");
    renderChain();
    list.querySelectorAll("li")[to].querySelector(step < 0 ? "[data-up]" : "[data-down]")?.focus();
  }
  function renderChain() {
    if (!list) return;
    list.replaceChildren(...keys().map((key, i, all) => {
      const li = document.createElement("li");
      const name = document.createElement("span");
      name.textContent = labels[key] || key;
      const up = document.createElement("button");
      up.type = "button"; up.textContent = "↑"; up.dataset.up = "";
      up.setAttribute("aria-label", `${holder.dataset.textUp}: ${name.textContent}`);
      up.disabled = i === 0;
      up.addEventListener("click", () => move(i, -1));
      const down = document.createElement("button");
      down.type = "button"; down.textContent = "↓"; down.dataset.down = "";
      down.setAttribute("aria-label", `${holder.dataset.textDown}: ${name.textContent}`);
      down.disabled = i === all.length - 1;
      down.addEventListener("click", () => move(i, 1));
      li.append(name, " ", up, down);
      return li;
    }));
  }
  if (input && !input.disabled) {
    list = document.createElement("ol");
    list.className = "tiebreak-chain";
    list.id = "tiebreak-chain";
    input.type = "hidden";
    holder.insertBefore(list, input);
    renderChain();
  }
})();
