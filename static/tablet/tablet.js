/* The scorekeeper's tablet (docs/tablet-api.md).
 *
 * Every change the table makes goes into an ordered queue kept in localStorage, is shown
 * at once (marked "not yet sent"), and is sent in order whenever the network allows. The
 * server drops retries by client key and refuses a second entry for the same hand, so a
 * lost answer, a reload or a double tap never records a hand twice. The screen shows the
 * last state the server sent, with the queued changes applied on top.
 */
(() => {
  "use strict";

  const root = document.getElementById("tablet");
  if (!root) return;
  const ds = root.dataset;
  const urls = {
    state: ds.stateUrl, hands: ds.handsUrl, firstDealer: ds.firstDealerUrl,
    undo: ds.undoUrl, answer: ds.answerUrl, confirm: ds.confirmUrl,
  };
  const POLL_MS = 3000;
  const SEATS = ["N", "E", "S", "W"];
  const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };
  const TEAM_NAMES = { NS: "North–South", EW: "East–West" };
  const key = (name) => `snowman.tablet.${ds.scope}.${name}`;

  // --- storage ------------------------------------------------------------------------
  const load = (name, fallback) => {
    try {
      const raw = localStorage.getItem(key(name));
      return raw === null ? fallback : JSON.parse(raw);
    } catch (e) {
      return fallback;
    }
  };
  const store = (name, value) => {
    try {
      localStorage.setItem(key(name), JSON.stringify(value));
    } catch (e) { /* a full store must not stop the table from playing */ }
  };

  let server = load("state", null);
  let queue = load("queue", []);
  let refused = load("refused", []);
  let keepers = load("keepers", {});
  let offsetMs = load("offset", 0);
  // After a reload without network the clock runs on from the state last stored, as of
  // the instant the server read it (not "Not started").
  let clockBase = server && server.clock ? {
    remaining: server.clock.remaining_seconds,
    at: Date.parse(server.clock.server_now || server.server_now) - offsetMs,
    paused: server.clock.paused, limited: server.clock.limited,
    called: server.clock.time_called, started: server.clock.started } : null;
  let online = navigator.onLine;
  let revoked = null;
  let flushing = false;
  let writes = 0;
  let lastMatchId = server && server.match ? server.match.id : null;
  const ui = { maker: null, alone: false, tricks: null, firstDealer: null, keeper: null,
    confirmBy: null, ordered: false, defender: null };

  const saveQueue = () => store("queue", queue);

  // --- small helpers ------------------------------------------------------------------
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...children) => {
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
  const teamOf = (seat) => (seat === "N" || seat === "S" ? "NS" : "EW");
  const otherTeam = (team) => (team === "NS" ? "EW" : "NS");
  const clockwise = (seat, steps) => SEATS[(SEATS.indexOf(seat) + steps) % 4];
  const partnerOf = (seat) => clockwise(seat, 2);
  const dealerFor = (first, number) => (first ? clockwise(first, number - 1) : null);
  const uuid = () => (crypto.randomUUID ? crypto.randomUUID()
    : "k" + Date.now().toString(36) + Math.random().toString(36).slice(2));
  const serverNow = () => new Date(Date.now() + offsetMs);
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

  const seatInfo = (v, seat) => (v && v.seats ? v.seats.find((s) => s.seat === seat) : null);
  const nameAt = (v, seat) => {
    const s = seatInfo(v, seat);
    return s && s.player ? s.player : SEAT_NAMES[seat];
  };

  // --- the rules the preview needs (the server scores for real) ----------------------
  function scoreHand(body, rules) {
    const points = { NS: 0, EW: 0 };
    const individual = {};
    if (body.outcome === "played") {
      const makers = teamOf(body.maker);
      if (body.maker_tricks <= 2) {
        points[otherTeam(makers)] = body.defender_alone && rules.defend_alone_allowed
          ? rules.points_alone_euchre : rules.points_euchre;
      }
      else if (body.maker_tricks < 5) points[makers] = rules.points_make;
      else if (body.alone) {
        points[makers] = rules.points_alone_march;
        if (rules.alone_march_award) individual[body.maker] = rules.alone_march_award;
      } else points[makers] = rules.points_march;
    } else if (body.outcome === "renege") {
      points[otherTeam(teamOf(body.renege_by))] = rules.points_renege;
      if (rules.renege_penalty) individual[body.renege_by] = rules.renege_penalty;
    }
    return { points, individual };
  }

  function describe(v, h) {
    if (h.outcome === "misdeal") return "Misdeal";
    if (h.outcome === "renege") return `${nameAt(v, h.renege_by)} reneged`;
    const who = `${nameAt(v, h.maker)} ${h.dealer_partner_ordered_up ? "ordered the dealer up"
      : "made trump"}${h.alone ? " alone" : ""}`;
    const t = h.maker_tricks;
    let what = `${t} trick${t === 1 ? "" : "s"}`;
    if (t <= 2) {
      what += h.defender_alone ? `, EUCHRED by ${nameAt(v, h.defender_alone)} alone`
        : ", EUCHRED";
    }
    else if (t === 5) what += h.alone ? ", lone march" : ", march";
    return `${who}: ${what}`;
  }

  function pointsText(v, points, individual) {
    const parts = [];
    for (const team of ["NS", "EW"]) if (points[team]) parts.push(`${team} +${points[team]}`);
    for (const [seat, p] of Object.entries(individual || {})) {
      if (p) parts.push(`${nameAt(v, seat)} ${signed(p)}`);
    }
    return parts.length ? parts.join(", ") : "no points";
  }

  // --- the view: the server's state with the queued changes on top -------------------
  function view() {
    if (!server) return null;
    const v = JSON.parse(JSON.stringify(server));
    const m = v.match;
    if (!m) return v;
    const sentKeys = new Set(v.history.map((h) => h.client_key));
    const rules = v.rules;
    for (const q of queue) {
      if (q.match !== m.id) continue;
      const b = q.body;
      if (q.kind === "first-dealer") {
        if (!m.first_dealer) m.first_dealer = b.seat;
      } else if (q.kind === "answer") {
        m.hand_in_progress_at_call = b.in_progress;
        m.awaiting_answer = false;
      } else if (q.kind === "undo") {
        const last = v.hands.pop();
        if (last) {
          const entry = v.history.find((h) => h.client_key === last.client_key);
          if (entry) { entry.state = "undone"; entry.pending = true; }
        }
      } else if (q.kind === "confirm") {
        m.status = b.agree ? "confirmed" : "disputed";
        m.confirmed_by = b.by;
        m.dispute_note = b.note || "";
        m.pending_confirm = true;
      } else if (q.kind === "hand" && !sentKeys.has(b.client_key)) {
        if (!m.first_dealer && b.first_dealer) m.first_dealer = b.first_dealer;
        const prev = v.hands.length ? v.hands[v.hands.length - 1].running : { NS: 0, EW: 0 };
        const s = scoreHand(b, rules);
        const running = { NS: prev.NS + s.points.NS, EW: prev.EW + s.points.EW };
        if (rules.cap_at_target) {
          running.NS = Math.min(running.NS, rules.target);
          running.EW = Math.min(running.EW, rules.target);
        }
        const row = Object.assign({}, b, {
          dealer: dealerFor(m.first_dealer, b.number), points: s.points, running,
          individual: s.individual, state: "standing", pending: true, phase: null,
        });
        v.hands.push(row);
        v.history.push(row);
        for (const [seat, p] of Object.entries(s.individual)) {
          const si = seatInfo(v, seat);
          if (si) si.individual += p;
        }
      }
    }
    const last = v.hands.length ? v.hands[v.hands.length - 1] : null;
    if (last && last.pending) {
      m.score = Object.assign({}, last.running);
      if (m.score.NS >= rules.target || m.score.EW >= rules.target) {
        m.over = true;
        m.pending_result = true;
        m.winner = m.score.NS > m.score.EW ? "NS" : "EW";
      }
    } else if (!last) {
      m.score = { NS: 0, EW: 0 };
    } else {
      m.score = Object.assign({}, last.running);
    }
    m.next_number = v.hands.length + 1;
    m.dealer = m.over ? null : dealerFor(m.first_dealer, m.next_number);
    m.pending = queue.some((q) => q.match === m.id);
    return v;
  }

  // --- talking to the server ---------------------------------------------------------
  const csrfToken = () => {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  };

  async function request(url, options) {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 10000);
    try {
      return await fetch(url, Object.assign({ credentials: "same-origin", signal: ctl.signal,
        cache: "no-store" }, options));
    } finally {
      clearTimeout(timer);
    }
  }

  const post = (url, body) => request(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(),
      "Accept": "application/json" },
    body: JSON.stringify(body),
  });

  const isJson = (res) => (res.headers.get("Content-Type") || "").includes("application/json");

  function acceptState(state, sentAt, receivedAt) {
    if (!state) return;
    if (sentAt && receivedAt && state.server_now) {
      // Half the round trip is the best guess for when the server read its clock.
      offsetMs = Date.parse(state.server_now) - (sentAt + receivedAt) / 2;
      store("offset", offsetMs);
    }
    // An answer about an older match (a queued hand sent late) must not replace the
    // screen of the table's current match.
    if (server && server.match && state.match && state.match.id !== server.match.id
        && state.match.id < server.match.id) return;
    if (!state.next_round && server && server.next_round && server.match && state.match
        && server.match.id === state.match.id) state.next_round = server.next_round;
    // The answer to a hand leaves out who sits where (a hand never changes it): keep the
    // names this tablet knows for the match; the poll after the queue is sent has them.
    const known = server && server.match && state.match && server.match.id === state.match.id
      ? server.seats : [];
    for (const s of state.seats || []) {
      if ("player" in s) continue;
      const k = known.find((x) => x.seat === s.seat);
      s.player = k ? k.player : null;
      s.division = k ? k.division : null;
    }
    server = state;
    store("state", server);
    const c = state.clock;
    clockBase = { remaining: c.remaining_seconds, at: receivedAt || Date.now(),
      paused: c.paused, limited: c.limited, called: c.time_called, started: c.started };
    const id = state.match ? state.match.id : null;
    if (id !== lastMatchId) {
      lastMatchId = id;
      resetEntry();
      ui.firstDealer = null;
      ui.keeper = null;
      ui.confirmBy = null;
    }
  }

  // When the browser knows it has no network, waiting for its "online" event is cheaper
  // than failing; when it only thinks it has one (venue Wi-Fi without internet), the
  // requests themselves fail and the queue waits.
  const knownOffline = () => navigator.onLine === false;

  async function poll() {
    if (knownOffline()) {
      setOnline(false);
      render();
      return;
    }
    const sentAt = Date.now();
    const mark = writes;
    let res;
    try {
      res = await request(urls.state, { headers: { "Accept": "application/json" } });
    } catch (e) {
      setOnline(false);
      render();
      return;
    }
    if (res.status === 403) {
      const data = await res.json().catch(() => ({}));
      revoked = data.error || "This tablet is no longer linked to the table.";
      setOnline(true);
      render();
      return;
    }
    if (!res.ok) {
      render();
      return;
    }
    revoked = null;
    setOnline(true);
    const data = await res.json();
    // A poll that crossed one of our own writes may predate it: the next poll is current.
    if (mark === writes) acceptState(data, sentAt, Date.now());
    render();
    if (queue.length) flush();
  }

  function setOnline(value) {
    online = value;
  }

  async function refreshCsrf() {
    try {
      await request(urls.state, { headers: { "Accept": "application/json" } });
    } catch (e) { /* offline: the next flush tries again */ }
  }

  function queueLabel(q) {
    if (q.kind === "hand") {
      const v = view();
      return `Hand ${q.body.number} (${v ? describe(v, q.body) : q.body.outcome})`;
    }
    if (q.kind === "undo") return `Undo of hand ${q.body.number}`;
    if (q.kind === "answer") return "The answer about the hand in progress";
    if (q.kind === "first-dealer") return "The first dealer";
    if (q.kind === "confirm") return q.body.agree ? "The confirmation" : "The dispute";
    return "An entry";
  }

  async function flush() {
    if (flushing || revoked) return;
    if (knownOffline()) {
      setOnline(false);
      render();
      return;
    }
    flushing = true;
    render();
    try {
      while (queue.length) {
        const q = queue[0];
        const sentAt = Date.now();
        let res;
        try {
          res = await post(q.url, q.body);
          if (res.status === 403 && !isJson(res)) {
            // Django's CSRF refusal is an HTML page: fetch a fresh token, try once more.
            await refreshCsrf();
            res = await post(q.url, q.body);
          }
        } catch (e) {
          setOnline(false);
          break;
        }
        setOnline(true);
        if (res.ok) {
          const data = await res.json().catch(() => ({}));
          queue = queue.filter((x) => x.id !== q.id);
          saveQueue();
          writes += 1;
          acceptState(data.state, sentAt, Date.now());
          continue;
        }
        if (res.status === 403) {
          const data = isJson(res) ? await res.json().catch(() => ({})) : {};
          if (data.revoked || !isJson(res)) {
            revoked = data.error || "This tablet's table session has ended.";
            break;
          }
        }
        if (res.status >= 500 || res.status === 429 || res.status === 408) break;
        // 400, 403 (another table's match), 409 or 422: this entry can never be stored.
        const data = await res.json().catch(() => ({}));
        // A stale answer comes back with the current state: show it at once.
        if (res.status === 409 && data.state) {
          writes += 1;
          acceptState(data.state, sentAt, Date.now());
        }
        queue = queue.filter((x) => x.id !== q.id);
        saveQueue();
        refused.push({ id: q.id, label: queueLabel(q),
          error: data.error || `Refused (${res.status}).` });
        store("refused", refused);
      }
    } finally {
      flushing = false;
      render();
    }
    if (!queue.length) poll();
  }

  function enqueue(kind, url, body, matchId) {
    queue.push({ id: uuid(), kind, url, body, match: matchId, queued_at: Date.now() });
    saveQueue();
    render();
    flush();
  }

  // --- actions ------------------------------------------------------------------------
  function resetEntry() {
    ui.maker = null;
    ui.alone = false;
    ui.tricks = null;
    ui.ordered = false;
    ui.defender = null;
  }

  // What an answer, an agreement or a dispute answers: the state the server last sent.
  function answered(m) {
    const s = server && server.match && server.match.id === m.id ? server.match : m;
    return { hands: s.hands_standing, version: s.version };
  }

  function handBody(v, fields) {
    const m = v.match;
    return Object.assign({
      client_key: uuid(), number: m.next_number, match: m.id,
      outcome: "played", maker: null, alone: false, maker_tricks: null, renege_by: null,
      first_dealer: m.first_dealer, entered_at: serverNow().toISOString(),
    }, fields);
  }

  function saveHand() {
    const v = view();
    if (!canEnter(v) || ui.maker === null || ui.tricks === null) return;
    const body = handBody(v, { maker: ui.maker, alone: ui.alone, maker_tricks: ui.tricks,
      dealer_partner_ordered_up: ui.ordered, defender_alone: ui.defender });
    resetEntry();
    enqueue("hand", urls.hands, body, v.match.id);
  }

  function canEnter(v) {
    const m = v && v.match;
    return !!(m && m.open && m.first_dealer && !m.over && !m.awaiting_answer && !revoked);
  }

  function renegeDialog() {
    const v = view();
    if (!canEnter(v)) return;
    openDialog({
      title: `Renege in hand ${v.match.next_number}`,
      text: "Who reneged? The hand ends at once.",
      choices: SEATS.map((s) => ({ value: s, label: `${nameAt(v, s)} (${SEAT_NAMES[s]})`,
        team: teamOf(s) })),
      preview: (seat) => {
        if (!seat) return "";
        const s = scoreHand({ outcome: "renege", renege_by: seat }, v.rules);
        return `${nameAt(v, seat)} reneged: ${pointsText(v, s.points, s.individual)}.`;
      },
      ok: "Save renege",
      onOk: (seat) => {
        const now = view();
        if (!canEnter(now)) return;
        enqueue("hand", urls.hands, handBody(now, { outcome: "renege", renege_by: seat }),
          now.match.id);
        resetEntry();
      },
    });
  }

  function misdealDialog() {
    const v = view();
    if (!canEnter(v)) return;
    const m = v.match;
    openDialog({
      title: `Misdeal in hand ${m.next_number}?`,
      text: `${nameAt(v, m.dealer)} dealt. A misdeal scores nothing; the deal passes to `
        + `${nameAt(v, clockwise(m.dealer, 1))}.`,
      ok: "Record misdeal",
      onOk: () => {
        const now = view();
        if (!canEnter(now)) return;
        enqueue("hand", urls.hands, handBody(now, { outcome: "misdeal" }), now.match.id);
        resetEntry();
      },
    });
  }

  function undoDialog() {
    const v = view();
    const m = v && v.match;
    if (!m || !v.hands.length || !m.open || revoked) return;
    const last = v.hands[v.hands.length - 1];
    openDialog({
      title: `Undo hand ${last.number}?`,
      text: `${describe(v, last)} (${pointsText(v, last.points, last.individual)}). `
        + (last.pending ? "It was not sent yet and is dropped from this tablet."
          : "It stays in the history, marked undone."),
      ok: "Undo hand",
      danger: true,
      onOk: () => {
        const index = queue.findIndex((q) => q.kind === "hand" && q.match === m.id
          && q.body.number === last.number);
        if (last.pending && index === queue.length - 1) {
          queue.splice(index, 1);
          saveQueue();
          render();
          return;
        }
        enqueue("undo", urls.undo, { number: last.number, match: m.id }, m.id);
      },
    });
  }

  function startMatch() {
    const v = view();
    const m = v && v.match;
    if (!m || m.first_dealer || !ui.firstDealer) return;
    if (ui.keeper) {
      keepers[m.id] = ui.keeper;
      store("keepers", keepers);
    }
    enqueue("first-dealer", urls.firstDealer,
      { seat: ui.firstDealer, match: m.id, keeper: ui.keeper }, m.id);
  }

  function answerCall(inProgress) {
    const v = view();
    const m = v && v.match;
    if (!m || !m.awaiting_answer) return;
    enqueue("answer", urls.answer,
      Object.assign({ in_progress: inProgress, match: m.id }, answered(m)), m.id);
  }

  function changeAnswerDialog() {
    const v = view();
    const m = v && v.match;
    if (!m || !m.can_change_answer || revoked) return;
    const now = m.hand_in_progress_at_call;
    openDialog({
      title: "Change the answer?",
      text: now
        ? "The table said a hand was being played when time was called. Change it to: "
          + "no hand was being played? The hand after the call then counts as a tie-break hand."
        : "The table said no hand was being played when time was called. Change it to: "
          + "a hand was being played? The next hand is then the hand in progress.",
      ok: now ? "No hand was being played" : "A hand was being played",
      danger: true,
      onOk: () => enqueue("answer", urls.answer,
        Object.assign({ in_progress: !now, match: m.id }, answered(m)), m.id),
    });
  }

  function confirmResult(agree) {
    const v = view();
    const m = v && v.match;
    if (!m || !m.over || !ui.confirmBy) return;
    const by = ui.confirmBy;
    if (agree) {
      enqueue("confirm", urls.confirm,
        Object.assign({ agree: true, by, note: "", match: m.id }, answered(m)), m.id);
      return;
    }
    openDialog({
      title: "Dispute the result",
      text: `${by}: say what is wrong. The director is told and comes to the table.`,
      note: true,
      ok: "Send dispute",
      danger: true,
      onOk: (_, note) => enqueue("confirm", urls.confirm,
        Object.assign({ agree: false, by, note, match: m.id }, answered(m)), m.id),
    });
  }

  // --- the dialog -----------------------------------------------------------------------
  let dialogSpec = null;
  let dialogChoice = null;

  function openDialog(spec) {
    dialogSpec = spec;
    dialogChoice = null;
    const dlg = $("tb-dialog");
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
          dialogChoice = c.value;
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
    dlg.showModal();
  }

  function updateDialog() {
    if (!dialogSpec) return;
    const note = $("tb-dialog-note").value.trim();
    $("tb-dialog-preview").textContent = dialogSpec.preview
      ? dialogSpec.preview(dialogChoice) : "";
    $("tb-dialog-ok").disabled = (dialogSpec.choices && !dialogChoice)
      || (dialogSpec.note && !note);
  }

  function closeDialog(run) {
    const spec = dialogSpec;
    const choice = dialogChoice;
    const note = $("tb-dialog-note").value.trim();
    dialogSpec = null;
    $("tb-dialog").close();
    if (run && spec) spec.onOk(choice, note);
    render();
  }

  // --- rendering ------------------------------------------------------------------------
  function fmtClock(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  function remainingNow() {
    if (!clockBase || !clockBase.limited || clockBase.remaining === null) return null;
    if (clockBase.paused || clockBase.called) return clockBase.remaining;
    return Math.max(0, clockBase.remaining - (Date.now() - clockBase.at) / 1000);
  }

  let calledLocally = false;
  function renderClock() {
    const node = $("tb-clock");
    const v = server;
    if (!v || !v.match) { node.textContent = "--:--"; return; }
    if (v.match.final) { node.textContent = v.round ? v.round.label : "Final"; return; }
    if (v.round && v.round.status === "finished") { node.textContent = "Over"; return; }
    if (!clockBase || !clockBase.started) { node.textContent = "Not started"; return; }
    const left = remainingNow();
    node.classList.toggle("tb-clock-low", left !== null && left <= 120);
    node.classList.toggle("tb-clock-paused", !!clockBase.paused);
    if (clockBase.called || left === 0) {
      node.textContent = "Time";
      if (!clockBase.called && !calledLocally && online) {
        // The server calls time; ask it at once rather than at the next poll.
        calledLocally = true;
        setTimeout(poll, 300);
      }
      return;
    }
    calledLocally = false;
    node.textContent = (clockBase.paused ? "Paused " : "") + fmtClock(left);
  }

  function renderNet() {
    const node = $("tb-net");
    const waiting = queue.length;
    let text;
    let cls;
    if (revoked) { text = "Link revoked"; cls = "bad"; }
    else if (!online) {
      text = waiting ? `Offline · ${waiting} not yet sent` : "Offline";
      cls = "bad";
    } else if (waiting) { text = `Sending ${waiting}…`; cls = "warn"; }
    else { text = "Online · all sent"; cls = "ok"; }
    node.textContent = text;
    node.className = `tb-net tb-net-${cls}`;
  }

  function show(id, visible) {
    $(id).hidden = !visible;
  }

  function renderSeats(v, mode) {
    const m = v && v.match;
    for (const btn of document.querySelectorAll(".tb-seat")) {
      const seat = btn.dataset.seat;
      const info = seatInfo(v, seat) || {};
      const dealer = m && m.dealer === seat;
      let pressed = null;
      if (mode === "start") pressed = ui.firstDealer === seat;
      if (mode === "entry") pressed = ui.maker === seat;
      btn.disabled = !(mode === "start" || mode === "entry");
      if (pressed === null) btn.removeAttribute("aria-pressed");
      else btn.setAttribute("aria-pressed", pressed ? "true" : "false");
      btn.classList.toggle("tb-dealer", !!dealer);
      const individual = info.individual || 0;
      btn.replaceChildren(
        el("span", { class: "tb-seat-pos", text: SEAT_NAMES[seat] }),
        el("span", { class: "tb-seat-name", text: info.player || "—" }),
        el("span", { class: "tb-seat-tags" },
          info.division ? el("span", { class: "tb-mark", text: info.division }) : null,
          dealer ? el("span", { class: "tb-chip", text: "Dealer" }) : null,
          individual ? el("span", { class: "tb-chip tb-chip-ind", text: signed(individual) })
            : null),
      );
      const parts = [`${SEAT_NAMES[seat]}: ${info.player || "empty seat"}`];
      if (info.division) parts.push(`division ${info.division}`);
      parts.push(`team ${TEAM_NAMES[teamOf(seat)]}`);
      if (dealer) parts.push("deals this hand");
      if (individual) parts.push(`individual ${signed(individual)}`);
      if (mode === "start") parts.push("tap to make first dealer");
      if (mode === "entry") parts.push("tap if this player made trump");
      btn.setAttribute("aria-label", parts.join(", "));
    }
    const centre = $("tb-centre");
    centre.textContent = m && m.dealer && !m.over
      ? `Hand ${m.next_number} · ${nameAt(v, m.dealer)} deals` : "";
  }

  function renderScores(v) {
    const m = v && v.match;
    for (const team of ["NS", "EW"]) {
      $(`tb-score-${team}`).textContent = m ? String(m.score[team]) : "0";
      $(`tb-score-${team}`).setAttribute("aria-label",
        `${TEAM_NAMES[team]} score ${m ? m.score[team] : 0}`);
      const names = v && v.seats ? v.seats.filter((s) => s.team === team)
        .map((s) => `${s.player || "—"}${s.division ? ` (${s.division})` : ""}`) : [];
      $(`tb-team-players-${team}`).textContent = names.join(" & ");
      $(`tb-team-${team}`).classList.toggle("tb-leading",
        !!(m && m.score[team] > m.score[otherTeam(team)]));
    }
  }

  function renderEntry(v) {
    const m = v.match;
    $("tb-entry-h").textContent = `Hand ${m.next_number} · ${nameAt(v, m.dealer)} deals`
      + (m.next_phase === "tiebreak" ? " · tie-break" : "")
      + (m.next_phase === "at_call" ? " · in progress at the call" : "");
    const partner = m.dealer ? partnerOf(m.dealer) : null;
    // Controls keep their place whatever is chosen: a double tap on Save must not land
    // on a control that moved up under the finger.
    const ordered = $("tb-ordered");
    ordered.disabled = ui.maker === null || ui.maker !== partner;
    ordered.setAttribute("aria-pressed", ui.ordered ? "true" : "false");
    ordered.textContent = ui.ordered ? "Ordered the dealer up ✓ (alone)"
      : "Ordered the dealer up (goes alone)";
    const defenders = $("tb-defenders");
    defenders.hidden = !v.rules.defend_alone_allowed;
    if (v.rules.defend_alone_allowed) {
      const seats = ui.maker === null ? [null, null]
        : SEATS.filter((s) => teamOf(s) !== teamOf(ui.maker));
      defenders.replaceChildren(...seats.map((s) => el("button", {
        type: "button", class: "tb-toggle tb-big", disabled: s === null,
        "aria-pressed": s !== null && ui.defender === s ? "true" : "false",
        text: s === null ? "A defender went alone" : `${nameAt(v, s)} defended alone`,
        onclick: () => { ui.defender = ui.defender === s ? null : s; render(); },
      })));
    }
    const alone = $("tb-alone");
    alone.disabled = ui.maker === null || ui.ordered;
    alone.setAttribute("aria-pressed", ui.alone ? "true" : "false");
    alone.textContent = ui.alone ? "Alone ✓" : "Alone";
    for (const b of document.querySelectorAll("#tb-tricks button")) {
      const t = Number(b.dataset.tricks);
      b.disabled = ui.maker === null;
      b.setAttribute("aria-pressed", ui.tricks === t ? "true" : "false");
      b.setAttribute("aria-label", `${t} trick${t === 1 ? "" : "s"}`);
    }
    const ready = ui.maker !== null && ui.tricks !== null;
    $("tb-save").disabled = !ready;
    let preview = "";
    if (ui.maker === null) preview = "Tap the player who made trump.";
    else if (!ready) preview = `${nameAt(v, ui.maker)} made trump${ui.alone ? " alone" : ""}: `
      + "how many tricks did the makers take?";
    else {
      const body = { outcome: "played", maker: ui.maker, alone: ui.alone,
        maker_tricks: ui.tricks, dealer_partner_ordered_up: ui.ordered,
        defender_alone: ui.tricks <= 2 ? ui.defender : null };
      const s = scoreHand(body, v.rules);
      const after = { NS: m.score.NS + s.points.NS, EW: m.score.EW + s.points.EW };
      // A euchre scores for the other team: it must not look like a make (a 2-for-3 mis-tap).
      const euchre = ui.tricks <= 2;
      preview = (euchre ? `EUCHRE: the defenders (${TEAM_NAMES[otherTeam(teamOf(ui.maker))]})`
        + " score. " : `${TEAM_NAMES[teamOf(ui.maker)]} score. `)
        + `${describe(v, body)} → ${pointsText(v, s.points, s.individual)}. `
        + `Score after: NS ${after.NS} – EW ${after.EW}.`;
      if (after.NS >= v.rules.target || after.EW >= v.rules.target) {
        preview += " This ends the match.";
      }
    }
    $("tb-preview").textContent = preview;
    const kind = ready ? (ui.tricks <= 2 ? "euchre" : "make") : "none";
    $("tb-preview").className = `tb-preview tb-preview-${kind}`;
  }

  function renderEnd(v) {
    const m = v.match;
    const winner = m.winner;
    let result = winner
      ? `${TEAM_NAMES[winner]} win ${m.score[winner]}–${m.score[otherTeam(winner)]}.`
      : `Final score ${m.score.NS}–${m.score.EW}.`;
    if (m.final && v.final) {
      result = `Game ${m.game}: ${result} Games: NS ${v.final.wins.NS} – EW ${v.final.wins.EW}.`;
    }
    if (m.pending_result) result += " (Final once the hands are sent.)";
    $("tb-end-h").textContent = m.final ? `Game ${m.game} over` : "Match over";
    $("tb-end-result").textContent = result;
    const rows = [];
    for (const s of v.seats) {
      const bonus = (m.bonuses || {})[s.team] || 0;
      const reason = (m.bonus_reasons || {})[s.team];
      const points = s.points !== null && s.points !== undefined ? s.points
        : m.score[s.team] + bonus + (s.individual || 0);
      rows.push(el("tr", { class: `tb-${s.team.toLowerCase()}` },
        el("th", { scope: "row" }, `${s.player || "—"} `,
          el("span", { class: "tb-mark", text: s.division || "" }),
          el("span", { class: "tb-sr", text: ` ${TEAM_NAMES[s.team]}` })),
        el("td", { text: String(m.score[s.team]) }),
        el("td", { text: bonus ? `${signed(bonus)}${reason ? ` (${reason})` : ""}` : "0" }),
        el("td", { text: s.individual ? signed(s.individual) : "0" }),
        el("td", { class: "tb-points", text: m.final ? "—" : String(points) })));
    }
    $("tb-end-rows").replaceChildren(...rows);

    const status = m.status;
    const done = status === "confirmed" || status === "disputed";
    show("tb-confirm", !done && !m.pending_result && !m.final);
    const keeper = keepers[m.id];
    const confirmers = v.seats.filter((s) => !keeper || s.team !== teamOf(keeper));
    const other = keeper ? TEAM_NAMES[otherTeam(teamOf(keeper))] : "the other team";
    $("tb-confirm-help").textContent = `A player of ${other} (who did not keep score) `
      + "checks the result and taps their name:";
    const who = $("tb-confirm-who");
    who.replaceChildren(...confirmers.map((s) => el("button", {
      type: "button", class: `tb-choice-btn tb-${s.team.toLowerCase()}`,
      "aria-pressed": ui.confirmBy === s.player ? "true" : "false",
      text: s.player, "aria-label": `I am ${s.player}`,
      onclick: () => { ui.confirmBy = s.player; render(); },
    })));
    $("tb-agree").disabled = !ui.confirmBy;
    $("tb-dispute").disabled = !ui.confirmBy;
    $("tb-agree").textContent = ui.confirmBy ? `Agree (${ui.confirmBy})` : "Agree";
    let confirmed = "";
    if (status === "confirmed") confirmed = `Confirmed by ${m.confirmed_by || "the director"}.`;
    if (status === "disputed") {
      confirmed = `Disputed by ${m.confirmed_by}: “${m.dispute_note}”. The director has been `
        + "told and will come to the table.";
    }
    if (m.pending_confirm) confirmed += " (Not yet sent.)";
    $("tb-confirmed").textContent = confirmed;
    show("tb-change-answer", !!m.can_change_answer && !m.pending);
    $("tb-confirmed").className = `tb-confirmed tb-${status}`;
  }

  let announcedNext = null;
  function renderNext(v) {
    const next = v.next_round;
    show("tb-next", !!next);
    if (!next) return;
    if (announcedNext !== next.id) {
      // Bring "where to go" to the top of the screen once, when it first appears.
      announcedNext = next.id;
      setTimeout(() => $("tb-next").scrollIntoView({ block: "start" }), 0);
    }
    $("tb-next-h").textContent = `${next.label}: where to go`;
    $("tb-moves").replaceChildren(...next.moves.map((mv) => {
      if (!mv.table) return el("li", { text: `${mv.player}: not seated in ${next.label}.` });
      const stay = mv.table === v.table ? " (stay here)" : "";
      return el("li", { class: `tb-${(mv.team || "").toLowerCase()}` },
        el("strong", { text: mv.player }),
        ` → table ${mv.table}${stay}, seat ${mv.seat} (${SEAT_NAMES[mv.seat]}), `
        + `partner ${mv.partner || "—"}`
        + (mv.opponents.length ? `; against ${mv.opponents.join(" & ")}` : ""));
    }));
  }

  function renderHistory(v) {
    const list = $("tb-hands");
    const items = [];
    const running = new Map(v.hands.map((h) => [h.client_key, h.running]));
    for (const h of [...v.history].reverse()) {
      const run = running.get(h.client_key);
      const state = h.state === "standing" ? (h.pending ? "pending" : "standing") : h.state;
      const pts = pointsText(v, h.points || { NS: 0, EW: 0 }, h.individual
        || individualOf(v, h));
      const badges = [];
      if (h.pending) badges.push(el("span", { class: "tb-badge tb-badge-pending",
        text: h.state === "undone" ? "undo not yet sent" : "not yet sent" }));
      if (h.state === "undone") badges.push(el("span", { class: "tb-badge", text: "undone" }));
      if (h.state === "superseded") {
        badges.push(el("span", { class: "tb-badge", text: "corrected" }));
      }
      if (h.phase === "tiebreak") badges.push(el("span", { class: "tb-badge", text: "tie-break" }));
      if (h.phase === "at_call") {
        badges.push(el("span", { class: "tb-badge", text: "at the call" }));
      }
      items.push(el("li", { class: `tb-hand tb-hand-${state}`, value: String(h.number) },
        el("span", { class: "tb-hand-no", text: `#${h.number}` }),
        el("span", { class: "tb-hand-desc" },
          el("span", { class: "tb-hand-what", text: describe(v, h) }),
          el("span", { class: "tb-hand-dealer", text: ` · dealer ${nameAt(v, h.dealer)}` })),
        el("span", { class: "tb-hand-pts", text: pts }),
        el("span", { class: "tb-hand-run",
          text: run && h.state === "standing" ? `${run.NS}–${run.EW}` : "" }),
        ...badges));
    }
    if (!items.length) items.push(el("li", { class: "tb-hand-none", text: "No hands yet." }));
    list.replaceChildren(...items);
  }

  function individualOf(v, h) {
    if (!v.rules || h.outcome === "misdeal" || !h.points) return {};
    return scoreHand(h, v.rules).individual;
  }

  function renderRefused() {
    const list = $("tb-refused");
    list.hidden = !refused.length;
    list.replaceChildren(...refused.map((r) => el("li", {},
      el("span", { text: `${r.label} was not saved: ${r.error}` }),
      el("button", { type: "button", class: "tb-big", "aria-label": `Dismiss: ${r.label}`,
        text: "OK",
        onclick: () => {
          refused = refused.filter((x) => x.id !== r.id);
          store("refused", refused);
          render();
        } }))));
  }

  function banner(v) {
    if (revoked) {
      return `${revoked}${queue.length ? ` ${queue.length} entries are kept on this tablet `
        + "and are sent once it is linked again." : ""}`;
    }
    const m = v && v.match;
    if (m && m.final && v.final && !m.over) {
      const w = v.final.wins;
      const done = v.final.games.filter((g) => g.winner).map((g) =>
        `Game ${g.game}: ${TEAM_NAMES[g.winner]} won ${g.score_ns}–${g.score_ew}.`);
      return `${done.length ? done.join(" ") + " " : ""}Final, game ${m.game}: games won `
        + `NS ${w.NS} – EW ${w.EW} (first to ${v.final.games_to_win}).`;
    }
    if (!m || m.over) return "";
    if (clockBase && clockBase.paused) return "The director has paused the round.";
    if (m.in_tiebreak && m.time_called) {
      return "Tie-break: the score is tied. Play hands until one leaves it untied.";
    }
    if (m.time_called && m.next_phase === "at_call" && m.hand_in_progress_at_call) {
      return "Time is called: finish the hand in progress and enter it.";
    }
    if (m.time_called && !m.awaiting_answer) return "Time is called.";
    return "";
  }

  function render() {
    renderNet();
    renderClock();
    renderRefused();
    const v = view();
    const m = v && v.match;
    const text = banner(v);
    $("tb-banner").textContent = text;
    $("tb-banner").hidden = !text;
    $("tb-banner").classList.toggle("tb-banner-bad", !!revoked);
    $("tb-banner").classList.toggle("tb-banner-info", !revoked && !!(m && m.final));
    if (v && v.round) $("tb-round").textContent = m && m.final
      ? `${v.round.label} · game ${m.game}` : v.round.label;

    let mode = "wait";
    let wait = "";
    if (!v) wait = "Loading the table…";
    else if (!m) wait = "There is no match at this table yet. Wait for the director to seat it.";
    else if (m.over) mode = "end";
    else if (!m.first_dealer) mode = "start";
    else if (!m.open) {
      wait = v.round.status === "seated"
        ? `${v.round.label} has not started. Wait for the director to start the clock.`
        : `${v.round.label} is closed.`;
    } else if (m.awaiting_answer) mode = "call";
    else mode = "entry";
    if (revoked) mode = mode === "end" ? "end" : "wait";

    show("tb-start", mode === "start");
    show("tb-call", mode === "call");
    show("tb-entry", mode === "entry");
    show("tb-end", mode === "end");
    show("tb-wait", !!wait);
    $("tb-wait-text").textContent = wait;

    renderSeats(v, mode);
    renderScores(v);
    const prompt = { start: "Tap the first dealer.", entry: "Tap the player who made trump.",
      call: "Time is called.", end: "", wait: "" }[mode];
    $("tb-prompt").textContent = prompt;
    if (v) {
      if (mode === "start") {
        $("tb-start-choice").textContent = ui.firstDealer
          ? `${nameAt(v, ui.firstDealer)} (${SEAT_NAMES[ui.firstDealer]}) deals first.`
          : "No dealer chosen yet.";
        $("tb-start-save").disabled = !ui.firstDealer;
        $("tb-keeper").replaceChildren(...SEATS.map((s) => el("button", {
          type: "button", class: `tb-choice-btn tb-${teamOf(s).toLowerCase()}`,
          "aria-pressed": ui.keeper === s ? "true" : "false",
          text: nameAt(v, s), "aria-label": `${nameAt(v, s)} keeps score`,
          onclick: () => { ui.keeper = ui.keeper === s ? null : s; render(); },
        })));
      }
      if (mode === "entry") renderEntry(v);
      show("tb-entry-change-answer", mode === "entry" && !!m.can_change_answer && !m.pending);
      if (mode === "end") renderEnd(v);
      renderNext(v);
      renderHistory(v);
    }
    const undoable = !!(m && v.hands.length && m.open && !revoked
      && m.status !== "confirmed" && m.status !== "disputed");
    $("tb-undo").disabled = !undoable;
    $("tb-undo").hidden = !undoable;
  }

  // --- wiring ---------------------------------------------------------------------------
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
  $("tb-change-answer").addEventListener("click", changeAnswerDialog);
  $("tb-entry-change-answer").addEventListener("click", changeAnswerDialog);
  for (const b of document.querySelectorAll("#tb-tricks button")) {
    b.addEventListener("click", () => { ui.tricks = Number(b.dataset.tricks); render(); });
  }
  $("tb-save").addEventListener("click", saveHand);
  $("tb-clear").addEventListener("click", () => { resetEntry(); render(); });
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
  $("tb-dialog").addEventListener("cancel", () => { dialogSpec = null; });

  window.addEventListener("online", () => { setOnline(true); flush(); poll(); });
  window.addEventListener("offline", () => { setOnline(false); render(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") poll();
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
  window.snowmanTablet = { queue: () => queue.slice(), poll, flush };

  render();
  poll();
  setInterval(poll, POLL_MS);
  setInterval(renderClock, 250);
  setInterval(() => { if (queue.length && !flushing) flush(); }, 5000);
})();
