// The game table's front end (an anywidget module): it shows what Python drew and sends back clicks.
//
// All the game is in Python. The board is an SVG drawn by ra_core.pictures.svg; every piece that stands for
// one of your choices carries it as data-action (the action's text, e.g. "bid 9") or data-ui (a
// step that prepares one, e.g. "god" or "pick art"). A click, or Enter or Space on a focused piece,
// sends that text with the board's version; a click anywhere else on the board sends what was
// clicked, so that Python can say why nothing happened. Nothing here changes the game.

function part(tag, cls, attrs = {}) {
  const node = document.createElement(tag);
  node.className = cls;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// Below this width (CSS px) the table shows the phone's board (ra_core.pictures.portrait): your suns,
// Pass, the bag, the statue and the lot on one screen, every piece at least 44 px.
const NARROW = 600;
// On a touch screen the words say "tap", not "click" (the words come from Python, for every screen).
const TOUCH = typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

function touchWords(text) {
  return TOUCH ? text.replace(/\bClick\b/g, "Tap").replace(/\bclick\b/g, "tap") : text;
}

function render({ model, el }) {
  const root = part("div", "ra-table");
  const status = part("div", "ra-table-status", { role: "status", "aria-live": "polite" });
  const message = part("div", "ra-table-message", { role: "alert" });
  const main = part("div", "ra-table-main");
  const board = part("div", "ra-table-board");
  const recent = part("aside", "ra-table-recent", { "aria-label": "What just happened" });
  const twin = part("details", "ra-facts");
  twin.innerHTML = "<summary>The board in words</summary><ul></ul>";
  main.append(board, recent);
  root.append(status, message, main, twin);
  el.appendChild(root);

  function focused() {
    const a = document.activeElement;
    if (!a || !board.contains(a)) return null;
    return a.getAttribute("data-action") !== null
      ? `[data-action="${a.getAttribute("data-action")}"]`
      : `[data-ui="${a.getAttribute("data-ui")}"]`;
  }

  function draw() {
    const keep = focused();
    board.innerHTML = model.get("board");
    if (keep) {
      // keyboard users stay where they were, or on the first choice if that piece is gone
      const again = board.querySelector(keep) || board.querySelector(".ra-target");
      if (again) again.focus();
    }
    root.dataset.version = String(model.get("version"));
  }

  function words() {
    status.textContent = touchWords(model.get("status"));
    message.textContent = touchWords(model.get("message"));
    recent.innerHTML = model.get("recent");
    twin.querySelector("ul").innerHTML = model.get("facts");
    root.classList.toggle("ra-busy", model.get("busy"));
  }

  function send(node, named) {
    const msg = { kind: "click", version: model.get("version") };
    if (node) {
      const action = node.getAttribute("data-action");
      if (action !== null) msg.action = action;
      else msg.ui = node.getAttribute("data-ui");
    } else {
      msg.label = named ? named.getAttribute("aria-label") : "";
      const sun = named ? named.getAttribute("data-sun") : null;  // a sun's number, so the refusal says why
      if (sun !== null) msg.sun = Number(sun);
    }
    model.send(msg);
  }

  board.addEventListener("click", (event) => {
    const node = event.target.closest("[data-action],[data-ui]");
    if (node && board.contains(node)) {
      send(node);
    } else {
      const named = event.target.closest("[aria-label]");
      send(null, named && board.contains(named) ? named : null);
    }
  });
  board.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const node = event.target.closest("[data-action],[data-ui]");
    if (!node) return;
    event.preventDefault();
    send(node);
  });

  // The board's shape follows the width the table has: a narrow output (a phone, a side panel) gets
  // the portrait board. Python draws it; the front end only says which one fits.
  function fit() {
    const width = root.getBoundingClientRect().width;
    if (!width) return;
    const layout = width < NARROW ? "portrait" : "wide";
    root.classList.toggle("ra-narrow", layout === "portrait");
    if (model.get("layout") !== layout) {
      model.set("layout", layout);
      model.save_changes();
    }
  }
  if (typeof ResizeObserver === "function") new ResizeObserver(fit).observe(root);

  model.on("change:board", draw);
  model.on("change:version", draw);
  for (const name of ["status", "message", "recent", "facts", "busy"]) model.on(`change:${name}`, words);
  draw();
  words();
}

export default { render };
