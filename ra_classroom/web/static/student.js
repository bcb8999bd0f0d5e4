// The student's page: it shows what the server sends and sends back what the student does.
//
// Nothing is decided here. The server sends the whole page as a "view" (the round, the student's
// own value, his results, or his Ra table's board drawn by ra_core, every clickable piece marked
// with the action it stands for, as in the notebooks' game table). A click sends that action's
// text with the board's version; a god tile or a disaster's tiles are chosen in steps ("ui"),
// which the server answers with the board redrawn. Text from the server is shown with
// textContent, never as HTML; only the board's SVG, drawn and escaped by ra_core, is inserted.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const SEATS = "ra-classroom-seats"; // localStorage: {room code: seat token}
  const LAST = "ra-classroom-room";
  const CODES = "ra-classroom-codes"; // localStorage: {room code: rejoin code}, to show it again
  const SECTIONS = ["join", "wait", "bid", "clock", "result", "ra", "gone"];
  let ws = null;
  let view = null;
  let joined = false;
  let backoff = 500;
  let seq = 0;
  let sel = { god: false, picked: [] };
  let deadline = null;
  let turnShown = null; // the board's version at which the page last brought your turn into view
  const epochsSeen = {}; // {table id: the epochs scored when the page last showed them}
  let stopped = false; // the seat left this page (removed, or open on another device): no reconnecting
  let asked = null; // the request of a device that typed this seat's rejoin code, while this page is asked

  function seats() {
    try { return JSON.parse(localStorage.getItem(SEATS) || "{}") || {}; } catch (e) { return {}; }
  }
  function keep(room, token) {
    const all = seats();
    all[room] = token;
    localStorage.setItem(SEATS, JSON.stringify(all));
    localStorage.setItem(LAST, room);
  }
  function forget(room) {
    const all = seats();
    delete all[room];
    localStorage.setItem(SEATS, JSON.stringify(all));
  }
  // Every trace of the seat in `room` on this device: its token, its rejoin code, the room last used, and on
  // the page its name, earnings, code and history (a shared device's next user sees none of it).
  function wipe(room) {
    forget(room);
    let codes = {};
    try { codes = JSON.parse(localStorage.getItem(CODES) || "{}") || {}; } catch (e) { codes = {}; }
    delete codes[room];
    localStorage.setItem(CODES, JSON.stringify(codes));
    if (localStorage.getItem(LAST) === room) localStorage.removeItem(LAST);
    view = null;
    $("who").textContent = "";
    $("earned").hidden = true;
    $("earnings").textContent = "";
    $("code-line").hidden = true;
    $("code").textContent = "";
    $("confirm").hidden = true;
    for (const id of ["ra-board", "ra-recent", "bid-done", "result-text"]) $(id).replaceChildren();
    $("result-group").querySelector("tbody").replaceChildren();
    $("name").value = "";
    $("rejoin").value = "";
  }
  function linkRoom() {
    const m = location.pathname.match(/^\/r\/([A-Za-z0-9]{3,12})$/);
    return m ? m[1].toUpperCase() : null;
  }
  function room() { return linkRoom() || localStorage.getItem(LAST); }

  // On a touch screen the words say "tap", not "click" (the server writes them for every screen).
  const TOUCH = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  function touchWords(text) {
    return TOUCH ? String(text || "").replace(/\bClick\b/g, "Tap").replace(/\bclick\b/g, "tap") : String(text || "");
  }

  function notice(text) { $("notice").textContent = text || ""; }
  function show(name) { for (const s of SECTIONS) $(s).hidden = s !== name; }
  function money(x) { return x === null || x === undefined ? "–" : Number(x).toFixed(2); }

  function send(msg) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      notice("Not connected: trying again…");
      return false;
    }
    msg.id = ++seq;
    ws.send(JSON.stringify(msg));
    return true;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/ws`);
    ws.onopen = () => {
      backoff = 500;
      const code = room();
      const token = code && seats()[code];
      if (token) {
        send({ t: "hello", token });
      } else {
        notice("");
        showJoin();
      }
    };
    ws.onmessage = (event) => receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      joined = false;
      if (stopped) return;
      if (event.code === 1012) { // the server moves this page to another of its processes: at once, unseen
        setTimeout(connect, 50 + Math.random() * 250);
        return;
      }
      if (view && view.screen === "ended") { // the session has ended: stay on that screen, look in now and then
        setTimeout(connect, 15000);
        return;
      }
      notice("Connection lost: reconnecting…");
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 5000);
    };
  }

  function showJoin() {
    show("join");
    const code = linkRoom();
    if (code && !$("room").value) $("room").value = code;
  }

  function receive(msg) {
    if (msg.t === "welcome") {
      joined = true;
      if (msg.token) keep(msg.room, msg.token);
      localStorage.setItem(LAST, msg.room);
      if (location.pathname !== `/r/${msg.room}`) history.replaceState(null, "", `/r/${msg.room}`);
      $("who").textContent = `${msg.name} · room ${msg.room}`;
      $("leave").hidden = false;
      $("ask").hidden = true;
      notice("");
      showCode(msg.room, msg.code);
    } else if (msg.t === "asking" || msg.t === "pending" || msg.t === "bye") {
      seatMessage(msg);
    } else if (msg.t === "confirm") {
      asked = msg.request;
      $("confirm-text").textContent = msg.why;
      $("confirm").hidden = false;
      $("confirm-yes").focus();
    } else if (msg.t === "view") {
      const before = view && view.table ? view.table.ply : null;
      const screen = view ? `${view.screen}:${view.round && view.round.id}` : null;
      view = msg;
      if (screen !== `${view.screen}:${view.round && view.round.id}`) notice(""); // a new screen: old news goes
      if (!view.table || view.table.ply !== before) sel = { god: false, picked: [] };
      render();
    } else if (msg.t === "tick") {
      // A clock's tick: the price and the count still in, for the group's pages; a page that shows
      // its result, another round, or a newer tick already, ignores it.
      const r = view && view.round;
      if (view && view.screen === "clock" && r.id === msg.round && msg.tick >= r.clock.tick) {
        Object.assign(r.clock, { tick: msg.tick, price: msg.price, in: msg.in, stopped: msg.stopped });
        renderClock(r);
      }
    } else if (msg.t === "table") {
      if (view) {
        view.table = msg.table;
        sel = msg.table.sel;
        renderTable();
        $("ra-message").textContent = touchWords(msg.table.message);
      }
    } else if (msg.t === "ack") {
      if (msg.price !== undefined && view && view.round && view.round.id === msg.round) {
        view.round.your_bid = msg.price; // a press: counted at the price his screen showed
        if (view.screen === "clock") renderClock(view.round);
        notice("");
      } else notice(msg.round !== undefined ? "Your bid is in." : "");
    } else if (msg.t === "refused") {
      if (!joined && /removed you/.test(msg.why)) { // his page says so, and keeps nothing of the seat
        const code = room();
        if (code) wipe(code);
        stopped = true;
        show("gone");
        $("gone-title").textContent = "The teacher has removed you";
        $("gone-text").textContent = msg.why;
        $("leave").hidden = true;
        return;
      }
      if (!joined && !seatOpenElsewhere(msg)) {
        const code = room();
        if (code && /seat is unknown/.test(msg.why)) forget(code);
        showJoin();
        $("ask").hidden = !/already|rejoin code/.test(msg.why);
      }
      if (view && view.screen === "ra") $("ra-message").textContent = touchWords(msg.why);
      else notice(msg.why);
    }
  }

  // A seat asked for (the teacher lets this device in), waited for, or gone from this page.
  function seatMessage(msg) {
    if (msg.t === "asking") keep(msg.room, msg.token);
    if (msg.t === "bye") { // removed, or the seat is on another device now: nothing of it stays here
      stopped = true;
      const code = room();
      if (code) wipe(code);
    }
    show("gone");
    $("gone-title").textContent = msg.t !== "bye" ? "Waiting for your teacher"
      : msg.removed ? "The teacher has removed you" : "You have left this seat";
    $("gone-text").textContent = msg.why;
    $("leave").hidden = msg.t === "bye";
    if (msg.t !== "bye") {
      setTimeout(() => { if (!joined && seats()[room()]) send({ t: "hello", token: seats()[room()] }); }, 3000);
    }
  }

  // The student's rejoin code: kept on this device and shown below, to copy down for another device.
  function showCode(code, rejoin) {
    let all = {};
    try { all = JSON.parse(localStorage.getItem(CODES) || "{}") || {}; } catch (e) { all = {}; }
    if (rejoin) {
      all[code] = rejoin;
      localStorage.setItem(CODES, JSON.stringify(all));
    }
    const shown = all[code];
    $("code-line").hidden = !shown;
    $("code").textContent = shown ? `${shown.slice(0, 3)} ${shown.slice(3)}` : "";
  }

  // The screens of a session that has ended, a cancelled round, and a round without this student.
  function waitText(r) {
    if (view.screen === "ended") {
      const p = view.paid;
      const paid = p ? ` The round that pays you, drawn at random: round ${p.round} (${p.title}), where you earned ${
        money(p.earnings)}.` : "";
      return `The session has ended.${paid} Thank you for taking part! You can close this page.`;
    }
    if (r && r.status === "void") return `The teacher cancelled round ${r.number}: it does not count. Wait for the next round.`;
    if (view.screen !== "sitout") return "Wait for the teacher to open the next round.";
    if (view.sitout === "late") return "This round began before you came in: you will be in the next one.";
    if (view.sitout === "ra") return "The tables were set while your page was away: you will be in the next round.";
    return "You sit this round out (the groups left one over, or your page was away when it began): you will be in the next one.";
  }

  // The seat is open on as many pages as it may be: say so, and offer no join form (a new name would
  // be a second student).
  function seatOpenElsewhere(msg) { return /open on \d+ pages already/.test(msg.why); }

  function render() {
    $("who").textContent = `${view.name} · room ${view.room}`; // the teacher may have renamed him
    $("earned").hidden = view.earnings === null || view.earnings === undefined;
    $("earnings").textContent = money(view.earnings);
    const r = view.round;
    if (view.screen === "bid") renderBid(r);
    else if (view.screen === "clock") renderClock(r);
    else if (view.screen === "result") renderResult(r, view.result);
    else if (view.screen === "ra") renderTable();
    else {
      show("wait");
      $("wait-title").textContent = view.screen === "ended" ? "The session has ended"
        : r ? `Round ${r.number}: ${r.title}` : "You are in.";
      $("wait-text").textContent = waitText(r);
    }
  }

  function renderBid(r) {
    show("bid");
    $("bid-title").textContent = `Round ${r.number}: ${r.title}${r.practice ? " (practice)" : ""}`;
    $("bid-rules").textContent = r.rules;
    $("value-label").textContent = r.label;
    $("value").textContent = money(r.value);
    $("amount").max = r.max_bid;
    const done = r.your_bid !== null && r.your_bid !== undefined;
    const lottery = r.form === "lottery";
    $("value-line").hidden = lottery;
    $("bid-form").hidden = lottery || done || r.paused;
    $("lottery-form").hidden = !lottery || done || r.paused;
    if (lottery) lotteryRows(r);
    $("bid-done").hidden = !done;
    $("bid-done").textContent = !done ? ""
      : lottery ? `Your choices are in: A in ${r.your_bid} rows of 10. They stand; wait for the round to close.`
      : `Your bid: ${money(r.your_bid)}. It stands; wait for the round to close.`;
    $("bid-count").textContent = lottery ? "" : `${r.bids_in} of ${r.group_size} in your group have bid.`;
    deadline = r.closes_in === null || r.paused ? null : Date.now() + 1000 * r.closes_in;
    tick();
    if (r.paused) {
      $("countdown").textContent = `The teacher has paused the round: the clock is stopped${
        r.closes_in === null ? "" : ` at ${Math.round(r.closes_in)} s`}. Wait until it goes on.`;
    }
  }

  // A clock round: the price as the server's last tick set it, the count still in (English, no
  // names), and the one button, which sends the tick this page shows (the server counts the press
  // at that tick). Pressed, or the group's clock stopped, the button is off.
  function renderClock(r) {
    show("clock");
    const c = r.clock;
    const english = c.kind === "english";
    $("clock-title").textContent = `Round ${r.number}: ${r.title}${r.practice ? " (practice)" : ""}`;
    $("clock-value").textContent = money(r.value);
    $("clock-price").textContent = money(c.price);
    $("clock-in").textContent = english ? `${c.in} of ${r.group_size} in your group are still in.` : "";
    $("clock-rules").textContent = r.rules;
    const pressed = r.your_bid !== null && r.your_bid !== undefined;
    const button = $("clock-button");
    button.textContent = r.button || (english ? "Drop out" : "Buy now");
    button.disabled = pressed || c.stopped || r.paused;
    let state = "";
    if (pressed) state = english ? `You dropped out at ${money(r.your_bid)}.` : `You pressed at ${money(r.your_bid)}.`;
    if (c.stopped) state += `${state ? " " : ""}${english ? "The auction is decided" : "The clock has stopped"} at ${money(c.price)}: the result comes in a moment.`;
    if (r.paused) state = "The teacher has paused the round: the clock stands still.";
    $("clock-state").textContent = state;
  }

  // Holt and Laury's ten rows, drawn once per round (a redraw would lose the choices being made).
  function lotteryRows(r) {
    const body = $("lottery-rows").querySelector("tbody");
    if (body.dataset.round === String(r.id)) return;
    body.dataset.round = String(r.id);
    body.replaceChildren();
    $("lottery-a").textContent = `A: ${r.rows[0].a[0]} or ${r.rows[0].a[1]}`;
    $("lottery-b").textContent = `B: ${r.rows[0].b[0]} or ${r.rows[0].b[1]}`;
    for (const row of r.rows) {
      const tr = document.createElement("tr");
      const cells = [String(row.row), `${row.chance} in 10`];
      for (const text of cells) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      }
      for (const [letter, prizes] of [["A", row.a], ["B", row.b]]) {
        const td = document.createElement("td");
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "radio";
        input.name = `row-${row.row}`;
        input.value = letter;
        input.setAttribute("aria-label", `Row ${row.row}: ${letter}, ${prizes[0]} with chance ${row.chance} in 10, else ${prizes[1]}`);
        label.append(input, letter);
        td.appendChild(label);
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }

  function lotteryChoices() {
    const rows = view.round.rows;
    const choices = [];
    for (const row of rows) {
      const picked = document.querySelector(`#lottery-rows input[name="row-${row.row}"]:checked`);
      if (!picked) return { missing: row.row };
      choices.push(picked.value);
    }
    return { choices };
  }

  function tick() {
    if (deadline === null) {
      if (!(view && view.round && view.round.paused)) $("countdown").textContent = "";
      return;
    }
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    $("countdown").textContent = left > 0 ? `Closes in ${left} s.` : "Time is up.";
  }
  setInterval(tick, 1000);

  function renderResult(r, res) {
    show("result");
    $("result-title").textContent = `Round ${r.number}: ${r.title}${r.practice ? " (practice)" : ""}, results`;
    const drawn = r.kind === "lottery" || (res.details && res.details.row !== undefined);
    $("result-group").hidden = drawn;
    $("result-text").hidden = drawn;
    $("result-lottery").hidden = !drawn;
    if (drawn) {
      const d = res.details;
      $("result-lottery").textContent = !d ? "You sent no choices: this round pays you nothing."
        : `Row ${d.row} was drawn for you. You chose ${d.chose} there; the ${d.high ? "high" : "low"} prize came`
          + ` (chance of the high prize: ${d.row} in 10): you earned ${money(d.prize)}.`;
      return;
    }
    let text = res.won
      ? `You won. You paid ${money(res.paid)} and earned ${money(res.earnings)}.`
      : `You did not win.${res.paid > 0 ? ` You paid your bid, ${money(res.paid)}.` : ""}`;
    if (!res.won && res.group.some((m) => m.won)) text += ` The price was ${money(res.price)}.`;
    if (!res.group.some((m) => m.won)) text = res.sentence ? "Nobody won the item." : "Nobody in your group bid.";
    if (res.common_value !== null && res.common_value !== undefined) text += ` The item was worth ${money(res.common_value)}.`;
    $("result-text").textContent = text;
    $("result-told").textContent = res.sentence ? res.sentence + (res.draw ? " You were in that draw." : "") : "";
    $("result-value-head").textContent = r.value_word || "value";
    const body = $("result-group").querySelector("tbody");
    body.replaceChildren();
    for (const m of res.group) {
      const row = document.createElement("tr");
      if (m.you) row.className = "you";
      for (const cell of [m.you ? "you" : "another student", money(m.value), money(m.bid), m.won ? "won" : ""]) {
        const td = document.createElement("td");
        td.textContent = cell;
        row.appendChild(td);
      }
      body.appendChild(row);
    }
  }

  function list(node, items) {
    node.replaceChildren();
    for (const text of items) {
      const li = document.createElement("li");
      li.textContent = text;
      node.appendChild(li);
    }
  }

  function renderTable() {
    show("ra");
    const t = view.table;
    const r = view.round;
    $("ra-title").textContent = `Round ${r.number}: Ra, table ${t.table_no}`;
    $("ra-status").textContent = r.paused ? "The teacher has paused the round: wait until it goes on."
      : touchWords(t.status); // the auction's lines are on the board itself
    $("ra-away").hidden = !t.bot_plays;
    $("ra-away").textContent = t.bot_plays ? "A bot plays your seat for now (the board marks it)." : "";
    $("ra-message").textContent = "";
    const board = $("ra-board");
    board.innerHTML = t.svg; // drawn by ra_core: every name and word in it is escaped there
    board.dataset.version = String(t.ply);
    list($("ra-recent"), t.recent);
    const recent = $("ra-recent");
    recent.scrollTop = recent.scrollHeight; // the newest move in view
    list($("ra-facts").querySelector("ul"), t.facts);
    const scores = t.scores || [];
    $("ra-scores").hidden = !scores.length;
    scoresTables($("ra-scores").querySelector(".scores"), scores);
    showEpoch(t, scores);
    if (t.yours && t.ply !== turnShown) { // your turn has come: what happened since, the status and the board in view
      turnShown = t.ply;
      inView();
    }
  }

  // On a phone the page scrolls, when your turn comes, so that what happened since your last move,
  // the status and the board are on screen together (the page's title goes above the fold).
  function inView() {
    if (!window.matchMedia("(max-width: 599px)").matches) return;
    const play = $("ra-play").getBoundingClientRect();
    if (play.top < 0 || play.bottom > window.innerHeight) $("ra-play").scrollIntoView({ block: "start" });
  }

  // The scores as tables of three columns (who, net, fame), the categories in words under each row,
  // one table per epoch: they fit a 360 px screen. Your rows are in bold.
  function scoresTables(node, rows) {
    node.replaceChildren();
    const epochs = [...new Set(rows.map((r) => r.epoch))];
    for (const epoch of epochs) {
      const table = document.createElement("table");
      const caption = table.createCaption();
      caption.textContent = `Epoch ${epoch}`;
      const head = table.createTHead().insertRow();
      for (const word of ["player", "net", "fame"]) {
        const th = document.createElement("th");
        th.scope = "col";
        th.textContent = word;
        head.appendChild(th);
      }
      const body = table.createTBody();
      for (const r of rows.filter((x) => x.epoch === epoch)) {
        const row = body.insertRow();
        row.className = r.you ? "who you" : "who";
        for (const cell of [r.who, r.net, String(r.fame)]) row.insertCell().textContent = cell;
        const parts = body.insertRow();
        if (r.you) parts.className = "you";
        const td = parts.insertCell();
        td.colSpan = 3;
        td.className = "parts";
        td.textContent = r.parts;
      }
      node.appendChild(table);
    }
  }

  // An epoch's scores over the page as soon as it is scored (as the notebook's table shows them over
  // its board), until Continue; a page opened later does not show the epochs scored before.
  function showEpoch(t, rows) {
    const epochs = rows.length ? Math.max(...rows.map((r) => r.epoch)) : 0;
    const key = `${t.id}`;
    if (!(key in epochsSeen)) epochsSeen[key] = epochs;
    if (epochs <= epochsSeen[key]) return;
    epochsSeen[key] = epochs;
    $("ra-epoch-title").textContent = t.over ? `Epoch ${epochs} is scored: the game is over` : `Epoch ${epochs} is scored`;
    scoresTables($("ra-epoch").querySelector(".scores"), rows.filter((r) => r.epoch === epochs));
    $("ra-epoch").hidden = false;
    $("ra-epoch-close").focus();
  }

  function click(node) {
    const t = view && view.table;
    if (!t) return;
    const action = node.getAttribute("data-action");
    if (action !== null) send({ t: "move", table: t.id, action, version: t.ply });
    else send({ t: "ui", table: t.id, ui: node.getAttribute("data-ui"), version: t.ply, sel });
  }

  function boardClick(event) {
    const node = event.target.closest("[data-action],[data-ui]");
    if (node && $("ra-board").contains(node)) click(node);
    else if (view && view.table) {
      // a tap on something that is no choice says why, and where the choices are
      const t = view.table;
      const why = t.yours ? `Nothing to do there. ${t.status.replace(/^Your turn\.\s*/, "")}` : t.status;
      $("ra-message").textContent = touchWords(why);
    }
  }

  function boardKey(event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    const node = event.target.closest("[data-action],[data-ui]");
    if (!node) return;
    event.preventDefault();
    click(node);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const msg = { t: "join", room: $("room").value.trim(), name: $("name").value };
      if ($("rejoin").value.trim()) msg.code = $("rejoin").value.trim();
      send(msg);
    });
    $("ask").addEventListener("click", () => {
      send({ t: "ask", room: $("room").value.trim(), name: $("name").value });
    });
    $("clock-button").addEventListener("click", () => {
      const r = view && view.round;
      if (view && view.screen === "clock" && r.clock && !$("clock-button").disabled) {
        $("clock-button").disabled = true; // once: the server's answer or the next view says the rest
        send({ t: "press", round: r.id, tick: r.clock.tick });
      }
    });
    $("bid-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const amount = Number($("amount").value);
      if ($("amount").value.trim() === "" || !Number.isFinite(amount)) {
        notice("Type your bid as a number.");
        return;
      }
      send({ t: "bid", round: view.round.id, amount });
    });
    $("lottery-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const found = lotteryChoices();
      if (found.missing) {
        notice(`Choose A or B in every row: row ${found.missing} has no choice yet.`);
        return;
      }
      notice("");
      send({ t: "act", round: view.round.id, data: { choices: found.choices } });
    });
    $("leave").addEventListener("click", () => { // a fresh page, with nothing of the seat left on this device
      const code = room();
      stopped = true;
      if (code) wipe(code);
      if (ws) ws.close();
      location.replace(code ? `/r/${code}` : "/");
    });
    for (const [id, yes] of [["confirm-yes", true], ["confirm-no", false]]) {
      $(id).addEventListener("click", () => {
        if (asked !== null) send({ t: "confirm", request: asked, yes });
        asked = null;
        $("confirm").hidden = true;
      });
    }
    $("ra-epoch-close").addEventListener("click", () => {
      $("ra-epoch").hidden = true;
      inView();
    });
    $("ra-board").addEventListener("click", boardClick);
    $("ra-board").addEventListener("keydown", boardKey);
    connect();
  });
})();
