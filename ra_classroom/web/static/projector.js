// The projector's page: what the whole class sees, drawn from the server's projector call every second.
//
// It needs the teacher's secret, which the control room puts after the "#" of the page's link
// (a browser never sends that part); the page keeps it for this tab and takes it out of the
// address bar, so the projector never shows it. Nothing here names a student who has bid or not:
// the server sends counts only, and after the close every bid against its value, with theory's line.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const code = (location.pathname.match(/^\/projector\/([A-Za-z0-9]{3,12})$/) || [])[1] || "";
  const KEY = `ra-classroom-projector-${code}`;
  if (location.hash.length > 1) {
    sessionStorage.setItem(KEY, decodeURIComponent(location.hash.slice(1)));
    history.replaceState(null, "", location.pathname);
  }
  const secret = sessionStorage.getItem(KEY) || "";
  let shown = null;
  let deadline = null;
  let drawn = ""; // the results drawn last, so that the chart is not redrawn at every poll
  // A quarter second between two polls: a teacher's pause or close shows on the projector at once (at one
  // poll a second it took up to 1.4 s under load), for one small request per quarter second.
  const POLL_MS = 250;

  function problem(text) {
    $("problem").hidden = !text;
    $("problem").textContent = text || "";
  }

  async function poll() {
    if (!secret || !code) {
      problem("Open this page from the control room (room.projector()): it needs the teacher's secret.");
      return;
    }
    try {
      const answer = await fetch(`/api/rooms/${code}/projector`, { headers: { Authorization: `Bearer ${secret}` } });
      if (answer.status === 401 || answer.status === 403) {
        problem("This link's secret is not the teacher's: open the projector again from the control room.");
      } else if (!answer.ok) {
        problem(`The server says: ${(await answer.json()).error}`);
      } else {
        problem("");
        show(await answer.json());
      }
    } catch (e) { // the server is down: after the session's end that is expected, and the page says so already
      problem(shown && shown.ended ? "" : "The classroom server does not answer: trying again…");
    }
    setTimeout(poll, POLL_MS);
  }

  function screen(name) { document.body.dataset.screen = name; }

  function show(p) {
    shown = p;
    $("room-line").textContent = `Room ${p.room}`;
    $("corner").textContent = p.round ? `Join: ${p.link}` : "";
    if (p.ended) {
      $("paid-line").textContent = p.paid ? `One round was drawn at random to pay each of the ${p.paid} students who played`
        + " a paid round: your page says which, and what you earned there." : "";
      return screen("ended");
    }
    const r = p.round;
    if (!r || r.status === "void") return joinScreen(p);
    if (r.status === "open") return openScreen(r);
    return resultsScreen(r);
  }

  function joinScreen(p) {
    screen("join");
    if ($("qr").dataset.link !== p.link) {
      $("qr").innerHTML = p.qr; // a QR code drawn by the server (segno): no text from anyone in it
      $("qr").dataset.link = p.link;
    }
    $("link").textContent = p.link;
    $("code").textContent = p.room;
    $("joined").textContent = String(p.joined);
  }

  function openScreen(r) {
    screen("open");
    $("title").textContent = `Round ${r.number}: ${r.title}${r.practice ? " (practice)" : ""}`;
    $("paused").hidden = !r.paused;
    deadline = r.closes_in === null ? null : Date.now() + 1000 * r.closes_in;
    if (r.paused) deadline = null;
    clock(r);
    if (r.clock) { // a clock round: its price, large, where a deadline's countdown would be
      $("clock").textContent = Number(r.clock.price).toFixed(2);
      const english = r.clock.kind === "english";
      $("bids").textContent = `${english ? `${r.clock.in} still in; ` : ""}${r.clock.settled} of ${r.clock.groups} group${
        r.clock.groups === 1 ? "" : "s"} settled`;
    } else if (r.kind === "ra") {
      $("bids").textContent = `${r.tables} table${r.tables === 1 ? "" : "s"} playing, ${r.over} game${r.over === 1 ? "" : "s"} over`;
    } else {
      $("bids").textContent = `${r.bids} of ${r.bidders} have bid`;
    }
  }

  function clock(r) {
    const round = r || (shown && shown.round);
    if (!round || round.status !== "open" || round.clock) return;
    let left = round.closes_in;
    if (deadline !== null) left = Math.max(0, (deadline - Date.now()) / 1000);
    if (left === null) {
      $("clock").textContent = round.kind === "ra" ? "" : "∞";
      return;
    }
    const s = Math.ceil(left);
    $("clock").textContent = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }
  setInterval(() => { if (deadline !== null) clock(null); }, 250);

  function resultsScreen(r) {
    screen("results");
    $("results-title").textContent = `Round ${r.number}: ${r.title}${r.practice ? " (practice)" : ""}${
      r.excluded ? " (left out of the results)" : ""}`;
    const key = JSON.stringify([r.number, r.summary, r.chart]);
    if (key === drawn) return;
    drawn = key;
    const list = $("summary");
    list.replaceChildren();
    for (const line of r.summary || []) {
      const li = document.createElement("li");
      li.textContent = line;
      list.appendChild(li);
    }
    $("chart").replaceChildren();
    if (r.chart) $("chart").appendChild(chart(r.chart));
  }

  // Every bid against its value (or signal), with theory's line: white axes, large labels, two colours
  // that colour-blind eyes tell apart (Okabe and Ito's yellow and sky blue).
  function chart(c) {
    const NS = "http://www.w3.org/2000/svg";
    const W = 1000, H = 560, L = 110, R = 30, T = 20, B = 90;
    const span = Math.max(1e-9, c.top - c.low);
    const ylow = c.ylow ?? c.low, ytop = c.ytop ?? c.top;
    const yspan = Math.max(1e-9, ytop - ylow);
    const x = (v) => L + (W - L - R) * (v - c.low) / span;
    const y = (v) => H - B - (H - T - B) * (v - ylow) / yspan;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", c.y && c.y !== "bid" ? `${c.y} by ${c.x}, with ${c.label}` : `The bids against the ${c.x}, with ${c.label}`);
    const add = (name, attrs, text) => {
      const node = document.createElementNS(NS, name);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
      if (text !== undefined) node.textContent = text;
      svg.appendChild(node);
      return node;
    };
    add("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#fff", "stroke-width": 3 });
    add("line", { x1: L, y1: T, x2: L, y2: H - B, stroke: "#fff", "stroke-width": 3 });
    for (const v of [c.low, (c.low + c.top) / 2, c.top]) {
      add("text", { x: x(v), y: H - B + 40, fill: "#fff", "font-size": 30, "text-anchor": "middle" }, String(Math.round(v)));
    }
    for (const v of [ylow, (ylow + ytop) / 2, ytop]) {
      add("text", { x: L - 12, y: y(v) + 10, fill: "#fff", "font-size": 30, "text-anchor": "end" }, String(Math.round(v)));
    }
    add("text", { x: (L + W - R) / 2, y: H - 12, fill: "#fff", "font-size": 32, "text-anchor": "middle" }, c.x);
    add("text", { x: 30, y: (T + H - B) / 2, fill: "#fff", "font-size": 32, "text-anchor": "middle",
      transform: `rotate(-90 30 ${(T + H - B) / 2})` }, c.y || "bid");
    add("polyline", { points: c.line.map(([v, b]) => `${x(v)},${y(b)}`).join(" "), fill: "none", stroke: "#56B4E9",
      "stroke-width": 6 });
    for (const [v, b] of c.points) add("circle", { cx: x(v), cy: y(b), r: 11, fill: "#F0E442", stroke: "#000", "stroke-width": 2 });
    add("circle", { cx: L + 40, cy: T + 25, r: 11, fill: "#F0E442" });
    add("text", { x: L + 62, y: T + 36, fill: "#fff", "font-size": 30 }, `${c.point || "a bid"} (${c.count ?? c.points.length})`);
    add("line", { x1: L + 28, y1: T + 70, x2: L + 52, y2: T + 70, stroke: "#56B4E9", "stroke-width": 6 });
    add("text", { x: L + 62, y: T + 80, fill: "#fff", "font-size": 30 }, c.label);
    return svg;
  }

  document.addEventListener("DOMContentLoaded", poll);
})();
