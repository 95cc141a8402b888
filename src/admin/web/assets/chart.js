// The chart of the last hour: completed sessions and errors per minute as bars, drawn as inline SVG.

const svg_namespace = "http://www.w3.org/2000/svg";
const width = 600, height = 160, left = 28, bottom = 18, top = 8;

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(svg_namespace, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// minutes: [{minute, sessions, errors}], oldest first.
export function draw_chart(container, minutes) {
  const peak = Math.max(1, ...minutes.map((m) => Math.max(m.sessions, m.errors)));
  const plot_height = height - bottom - top;
  const slot = (width - left) / Math.max(1, minutes.length);
  const bar = Math.max(1, slot / 2 - 1);
  const y = (value) => top + plot_height - (value / peak) * plot_height;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "sessions and errors per minute" });
  chart.append(svg("line", { class: "axis", x1: left, y1: y(0), x2: width, y2: y(0) }));
  chart.append(svg("line", { class: "axis", x1: left, y1: top, x2: left, y2: y(0) }));
  chart.append(svg("text", { class: "label", x: left - 4, y: top + 8, "text-anchor": "end" }, String(peak)));
  chart.append(svg("text", { class: "label", x: left - 4, y: y(0), "text-anchor": "end" }, "0"));
  minutes.forEach((m, i) => {
    const x = left + i * slot;
    const title = `${new Date(m.minute).toLocaleTimeString()}: ${m.sessions} sessions, ${m.errors} errors`;
    for (const [kind, value, offset] of [["sessions", m.sessions, 0], ["errors", m.errors, bar + 1]]) {
      if (value === 0) continue;
      const rect = svg("rect", { class: kind, x: x + offset, y: y(value), width: bar, height: y(0) - y(value) });
      rect.append(svg("title", {}, title));
      chart.append(rect);
    }
  });
  for (const [i, label, anchor] of [[0, "1 h ago", "start"], [30, "30 min ago", "middle"], [59, "now", "end"]]) {
    const x = anchor === "start" ? left : anchor === "end" ? width : left + i * slot + slot / 2;
    chart.append(svg("text", { class: "label", x, y: height - 4, "text-anchor": anchor }, label));
  }
  const sum = (key) => minutes.reduce((total, m) => total + m[key], 0);
  const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const legend = document.createElement("p");
  legend.className = "legend";
  for (const [kind, text] of [["sessions", count(sum("sessions"), "session completed", "sessions completed")],
    ["errors", count(sum("errors"), "error", "errors")]]) {
    const item = document.createElement("span");
    item.className = kind;
    item.textContent = text;
    legend.append(item);
  }
  container.replaceChildren(chart, legend);
}
