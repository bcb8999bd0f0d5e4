// The control room's live panel (an anywidget module): the room as Python drew it, and every control.
//
// A click sends one message that carries the whole form as the teacher sees it at that moment: the
// student chosen, the new name typed, the round chosen, the next round's settings. Nothing here is
// synced to the kernel field by field: ipywidgets sends a field's change only once the kernel has
// answered the previous one, and a kernel busy with `await room.wait()` never does, so a field kept
// its first change and a click acted on the student picked before. Python answers each click with
// its number and what it did (whom it acted on), shown in the message line.

function part(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function labelled(text, input) {
  const label = part("label", { class: "ra-panel-field" }, text);
  label.append(input);
  return label;
}

// Keep a <select>'s choice when its options are drawn again (a name that went away leaves it empty).
function fill(select, options, placeholder) {
  const keep = select.value;
  select.replaceChildren(part("option", { value: "" }, placeholder));
  for (const [text, value] of options) select.append(part("option", { value: String(value) }, text));
  select.value = options.some(([, v]) => String(v) === keep) ? keep : "";
}

function render({ model, el }) {
  const root = part("div", { class: "ra-panel" });
  const status = part("div", { class: "ra-panel-status" });
  const message = part("div", { class: "ra-panel-message", role: "status", "aria-live": "polite" });
  const kind = part("select", { "aria-label": "Kind" });
  for (const [text, value] of model.get("kinds")) kind.append(part("option", { value }, text));
  kind.value = model.get("kinds").length ? model.get("kinds")[0][1] : "";
  const size = part("input", { type: "number", min: "2", max: "12", value: "4", "aria-label": "Group" });
  const seconds = part("input", { type: "number", min: "0", max: "3600", value: "90", "aria-label": "Seconds" });
  const noise = part("input", { type: "number", min: "0", max: "1000", step: "any", value: "10", "aria-label": "Noise" });
  const practice = part("input", { type: "checkbox", "aria-label": "Practice" });
  const who = part("select", { "aria-label": "Student" });
  const newName = part("input", { type: "text", placeholder: "new name", "aria-label": "New name", maxlength: "40" });
  const played = part("select", { "aria-label": "Round" });
  let clicks = 0;

  // The form as the teacher sees it now: every click carries all of it.
  function form() {
    return {
      student: who.value, to: newName.value, round: played.value, kind: kind.value,
      size: size.value, seconds: seconds.value, noise: noise.value, practice: practice.checked,
    };
  }

  function button(text, control, style = "") {
    const b = part("button", { type: "button", class: `ra-panel-button ${style}`, "data-control": control }, text);
    b.addEventListener("click", () => {
      clicks += 1;
      root.dataset.sent = String(clicks);
      model.send({ control, click: clicks, ...form() });
    });
    return b;
  }

  function row(...nodes) {
    const r = part("div", { class: "ra-panel-row" });
    r.append(...nodes);
    return r;
  }

  root.append(
    status,
    row(button("Close now", "close", "warning"), button("Pause", "pause"), button("Resume", "resume"),
        button("+30 s", "extend"), button("Cancel round", "cancel", "danger")),
    row(labelled("Kind", kind), labelled("Group", size), labelled("Seconds", seconds), labelled("Noise", noise),
        labelled("Practice", practice), button("Open round", "open", "success")),
    row(labelled("Student", who), button("Let in", "reseat", "info"), button("Refuse", "refuse"),
        button("Remove", "remove", "danger"), button("Bot plays", "bot"), button("Give back", "back")),
    row(newName, button("Rename", "rename"), labelled("Round", played), button("Exclude", "exclude"),
        button("Include", "include")),
    message,
  );
  el.appendChild(root);

  function draw() {
    status.innerHTML = model.get("status"); // drawn by monitor_html, every name escaped
    fill(who, model.get("students").map((n) => [n, n]), "(choose)");
    fill(played, model.get("rounds"), "(choose)");
  }

  function said() {
    message.textContent = model.get("message");
  }

  // Python's answer to one click: what it did, and the student to keep chosen (a renamed one's new name).
  function answered(msg) {
    if (!msg || typeof msg.answer !== "number") return;
    message.textContent = msg.said;
    root.dataset.answered = String(msg.answer);
    if (typeof msg.student === "string" && [...who.options].some((o) => o.value === msg.student)) {
      who.value = msg.student;
    }
  }

  model.on("change:status", draw);
  model.on("change:students", draw);
  model.on("change:rounds", draw);
  model.on("change:message", said);
  model.on("msg:custom", answered);
  draw();
  said();
  return () => {
    model.off("change:status", draw);
    model.off("change:students", draw);
    model.off("change:rounds", draw);
    model.off("change:message", said);
    model.off("msg:custom", answered);
  };
}

export default { render };
