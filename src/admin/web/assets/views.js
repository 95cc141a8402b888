// The page's tables and lists, each filled from one API answer. Actions are the caller's (app.js): a view only
// calls the function it is given.

import { byid, duration, el, fill_table, when } from "./dom.js";

export function show_status(status) {
  const database = status.database;
  const rows = [
    ["Version", status.version],
    ["Up since", `${when(status.started_at)} (${duration(status.uptime_seconds)})`],
    ["Ready", status.ready ? el("span", { class: "ok" }, "ready") : el("span", { class: "bad" }, status.reason || "not ready")],
    ["Database", `schema ${database.schema_version} of ${database.latest_schema_version}` +
      (database.distributed ? ", distributed" : "")],
    ["Token", `${status.token.name} (${status.token.tenant ? "tenant " + status.token.tenant : "all tenants"})`],
  ];
  byid("status").replaceChildren(...rows.flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, value)]));
}

export function show_tenants(tenants, selected, on_select) {
  fill_table(byid("tenants"), [
    { title: "Tenant", cell: (t) => el("button", { class: "link", "data-tenant": t.name, on_click: () => on_select(t.name) }, t.name) },
    { title: "Auth", cell: (t) => [t.auth_basic ? "basic" : null, t.auth_md5 ? "md5" : null].filter(Boolean).join(", ") },
    { title: "Conflicts", cell: (t) => t.conflict_policy },
    { title: "Max sessions", cell: (t) => t.max_sessions },
    { title: "DAV", cell: (t) => (t.dav ? "on" : "off") },
  ], tenants, "no tenants", (t) => ({ class: t.name === selected ? "selected" : null }));
}

export function show_users(users, actions) {
  fill_table(byid("users"), [
    { title: "User", cell: (u) => u.name },
    { title: "State", cell: (u) => (u.disabled ? el("span", { class: "warn" }, "disabled") : "active") },
    { title: "", cell: (u) => u.disabled
        ? el("button", { class: "small", "data-enable": u.name, on_click: () => actions.enable(u.name) }, "Enable")
        : el("button", { class: "danger", "data-disable": u.name, on_click: () => actions.disable(u.name) }, "Disable") },
  ], users, "no users", (u) => ({ "data-user": u.name }));
}

export function show_devices(devices, on_reset) {
  fill_table(byid("devices"), [
    { title: "Device", cell: (d) => el("code", {}, d.device) },
    { title: "User", cell: (d) => d.user },
    { title: "Last sync", cell: (d) => when(d.last_sync) },
    { title: "Next sync", cell: (d) => (d.needs_slow_sync ? el("span", { class: "warn" }, "slow sync") : "normal") },
    { title: "Last error", cell: (d) => (d.last_error
        ? el("span", { class: "bad", title: when(d.last_error.at) }, d.last_error.message) : "–") },
    { title: "", cell: (d) => el("button", { class: "danger", "data-reset": d.device, on_click: () => on_reset(d.device) }, "Reset") },
  ], devices, "no devices", (d) => ({ "data-device": d.device }));
}

export function show_sessions(sessions) {
  fill_table(byid("sessions"), [
    { title: "Id", cell: (s) => s.id },
    { title: "User", cell: (s) => s.user || "–" },
    { title: "Device", cell: (s) => el("code", {}, s.device) },
    { title: "Started", cell: (s) => when(s.started) },
    { title: "Messages", cell: (s) => s.messages },
  ], sessions, "no live sessions");
}

export function show_failed_logins(logins) {
  fill_table(byid("failed-logins"), [
    { title: "When", cell: (f) => when(f.at) },
    { title: "User", cell: (f) => f.user || "–" },
    { title: "Device", cell: (f) => el("code", {}, f.device) },
    { title: "Address", cell: (f) => f.address },
  ], logins, "none");
}

export function show_tokens(tokens, on_revoke) {
  fill_table(byid("tokens"), [
    { title: "Name", cell: (t) => t.name },
    { title: "Scope", cell: (t) => (t.tenant ? "tenant " + t.tenant : "all tenants") },
    { title: "Created", cell: (t) => when(t.created_at) },
    { title: "Last used", cell: (t) => when(t.last_used_at) },
    { title: "", cell: (t) => el("button", { class: "danger", "data-revoke": t.name, on_click: () => on_revoke(t.name) }, "Revoke") },
  ], tokens, "no tokens");
}

// The scopes a new token may have: every tenant's, and all tenants for a token that has them itself.
export function show_token_scopes(tenants, all_tenants) {
  const options = tenants.map((t) => el("option", { value: t.name }, "tenant " + t.name));
  if (all_tenants) options.unshift(el("option", { value: "" }, "all tenants"));
  byid("new-token-tenant").replaceChildren(...options);
}
