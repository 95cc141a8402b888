// Building the page without HTML strings: every name a client or user chose goes in as text, never as markup.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else if (name === "on_click") node.addEventListener("click", value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function byid(id) {
  return document.getElementById(id);
}

// A table of `rows` with one column per {title, cell(row) -> text or node}; `empty` when there are none.
export function fill_table(table, columns, rows, empty, row_attributes = () => ({})) {
  const head = el("thead", {}, el("tr", {}, columns.map((c) => el("th", {}, c.title))));
  const body = el("tbody");
  for (const row of rows) {
    body.append(el("tr", row_attributes(row), columns.map((c) => el("td", {}, c.cell(row)))));
  }
  if (rows.length === 0) body.append(el("tr", {}, el("td", { class: "empty", colspan: columns.length }, empty)));
  table.replaceChildren(head, body);
}

// An ISO 8601 time as the reader's local time; a dash for none.
export function when(iso) {
  if (!iso) return "–";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

export function duration(seconds) {
  const d = Math.floor(seconds / 86400), h = Math.floor((seconds % 86400) / 3600), m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return `${m} min ${seconds % 60} s`;
}

// The line under the header: what an action did, or why it failed.
export function say(text, bad = false) {
  const message = byid("message");
  message.textContent = text;
  message.className = bad ? "bad" : "";
  message.hidden = false;
}
