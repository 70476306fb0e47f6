// The desk's check-in by scan. A USB scanner types the pass's link and Enter
// into the focused input: the lookup and the check-in go by fetch, so the input keeps the
// focus for the next pass. Where the browser has BarcodeDetector, the camera can read the
// QR code instead; the typed input is always there (no third-party library: the hall is
// offline). Without script the form works as plain pages.
(function () {
  "use strict";
  const form = document.getElementById("scan-form");
  if (!form) return;
  const input = document.getElementById("scan-input");
  const result = document.getElementById("scan-result");
  const texts = document.getElementById("scan-texts").dataset;
  // The page's token, as htmx sends it (the cookie may be HttpOnly).
  const csrf = () => JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";

  function show(nodes) {
    result.replaceChildren(...nodes);
  }
  function para(text, cls, id) {
    const p = document.createElement("p");
    p.textContent = text;
    if (cls) p.className = cls;
    if (id) p.id = id;
    return p;
  }

  async function checkIn(scanned) {
    const body = new URLSearchParams({ pass: scanned });
    const answer = await fetch(form.dataset.checkInUrl, {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": csrf() },
      body,
    });
    const data = await answer.json();
    show([data.ok ? para(data.message, "good", data.already ? "scan-already" : "scan-done")
                  : para(data.refusal, "error", "scan-refusal")]);
    input.focus();
  }

  async function lookUp(scanned) {
    const url = form.action + "?" + new URLSearchParams({ pass: scanned });
    const answer = await fetch(url, { headers: { Accept: "application/json" } });
    const data = await answer.json();
    if (!data.ok) {
      show([para(data.refusal, "error", "scan-refusal")]);
      input.focus();
      return;
    }
    const name = para("", "scan-name");
    const strong = document.createElement("strong");
    strong.textContent = data.name;
    name.append(strong, ` · ${texts.division} ${data.division}`);
    if (data.checked_in_at) {
      show([name, para(`✓ ${data.checked_in_at}`, "good", "scan-already")]);
      input.focus();
      return;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "primary big";
    button.id = "scan-check-in";
    button.textContent = texts.checkedIn;
    button.addEventListener("click", () => checkIn(scanned));
    show([name, button]);
    button.focus();
  }

  form.addEventListener("submit", (event) => {
    const scanned = input.value.trim();
    if (!scanned) return;
    event.preventDefault();
    input.value = "";
    lookUp(scanned).catch(() => form.submit());
  });

  const camera = document.getElementById("scan-camera");
  const video = document.getElementById("scan-video");
  if ("BarcodeDetector" in window && navigator.mediaDevices) {
    camera.hidden = false;
    camera.addEventListener("click", async () => {
      try {
        const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
        const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
        video.srcObject = stream;
        video.hidden = false;
        await video.play();
        let last = "";
        const tick = async () => {
          const codes = await detector.detect(video).catch(() => []);
          if (codes.length && codes[0].rawValue !== last) {
            last = codes[0].rawValue;
            await lookUp(last);
            setTimeout(() => { last = ""; }, 3000);
          }
          requestAnimationFrame(tick);
        };
        tick();
      } catch (error) {
        show([para(texts.noCamera, "error")]);
        input.focus();
      }
    });
  }
})();
