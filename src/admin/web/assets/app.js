// The page's flow: log in with a token, load what it may see, and run the actions the buttons and forms ask for.

import { call, segment, token } from "./api.js";
import { draw_chart } from "./chart.js";
import { byid, say } from "./dom.js";
import * as views from "./views.js";

const state = { status: null, tenants: [], tenant: null, users: [], users_next: null, devices: [], devices_next: null };
const page_size = 50;
let refresh_timer = null;

function tenant_path(...rest) {
  return ["/admin/v1/tenants", segment(state.tenant), ...rest].join("/");
}

// Runs an action, says what became of it, and never leaves a rejection unhandled.
async function act(what, done_text) {
  try {
    await what();
    if (done_text) say(done_text);
  } catch (error) {
    if (error.status === 401) return log_out("The token was refused: log in again.");
    say(error.message, true);
  }
}

async function load_overview() {
  const [status, tenants] = await Promise.all([call("GET", "/admin/v1/status"), call("GET", "/admin/v1/tenants")]);
  state.status = status.data;
  state.tenants = tenants.data;
  views.show_status(state.status);
  views.show_tenants(state.tenants, state.tenant, select_tenant);
  views.show_token_scopes(state.tenants, !state.status.token.tenant);
  byid("who").textContent = "token " + state.status.token.name;
  await Promise.all([load_chart(), load_tokens()]);
}

async function load_chart() {
  const query = state.tenant ? "?tenant=" + segment(state.tenant) : "";
  const activity = await call("GET", "/admin/v1/activity" + query);
  byid("chart-scope").textContent = (state.tenant ? "tenant " + state.tenant : "all tenants") + ", this instance";
  draw_chart(byid("chart"), activity.data.minutes);
}

async function load_tokens() {
  views.show_tokens((await call("GET", "/admin/v1/tokens")).data, revoke_token);
}

const user_actions = {
  disable: (name) => act(async () => {
    await call("POST", tenant_path("users", segment(name), "disable"));
    await load_users();
  }, `User ${name} disabled: no logins, its sessions ended.`),
  enable: (name) => act(async () => {
    await call("POST", tenant_path("users", segment(name), "enable"));
    await load_users();
  }, `User ${name} enabled.`),
};

async function load_users(more = false) {
  const page = await call("GET", more ? state.users_next : tenant_path("users") + "?limit=" + page_size);
  state.users = more ? state.users.concat(page.data) : page.data;
  state.users_next = page.next;
  views.show_users(state.users, user_actions);
  byid("users-more").hidden = !page.next;
}

async function load_devices(more = false) {
  const page = await call("GET", more ? state.devices_next : tenant_path("devices") + "?limit=" + page_size);
  state.devices = more ? state.devices.concat(page.data) : page.data;
  state.devices_next = page.next;
  views.show_devices(state.devices, reset_device);
  byid("devices-more").hidden = !page.next;
}

async function load_tenant() {
  const failed = "/admin/v1/failed-logins?limit=20&tenant=" + segment(state.tenant);
  const [sessions, logins] = await Promise.all([call("GET", tenant_path("sessions")), call("GET", failed),
    load_users(), load_devices(), load_chart()]);
  views.show_sessions(sessions.data);
  views.show_failed_logins(logins.data);
}

function select_tenant(name) {
  state.tenant = name;
  byid("tenant-title").textContent = "Tenant " + name;
  byid("tenant").hidden = false;
  views.show_tenants(state.tenants, state.tenant, select_tenant);
  return act(load_tenant);
}

function reset_device(device) {
  return act(async () => {
    const reply = await call("POST", tenant_path("devices", segment(device), "reset"));
    await load_devices();
    say(`Device ${device} reset (${reply.data.devices_reset}): its next sync is a slow sync.`);
  });
}

function revoke_token(name) {
  return act(async () => {
    await call("DELETE", "/admin/v1/tokens/" + segment(name));
    await load_tokens();
  }, `Token ${name} revoked.`);
}

function add_user(event) {
  event.preventDefault();
  const name = byid("new-user").value.trim();
  const password = byid("new-password").value;
  return act(async () => {
    await call("POST", tenant_path("users"), { name, password });
    event.target.reset();
    await load_users();
  }, `User ${name} added.`);
}

function add_token(event) {
  event.preventDefault();
  const name = byid("new-token-name").value.trim();
  const tenant = byid("new-token-tenant").value || null;
  return act(async () => {
    const created = (await call("POST", "/admin/v1/tokens", { name, tenant })).data;
    event.target.reset();
    const shown = byid("new-token");
    shown.textContent = `${created.name}: ${created.token} (shown once: copy it now)`;
    shown.hidden = false;
    await load_tokens();
  }, `Token ${name} created.`);
}

function show_logged_in(logged_in) {
  byid("login").hidden = logged_in;
  byid("main").hidden = !logged_in;
  byid("who").hidden = !logged_in;
  byid("logout").hidden = !logged_in;
}

function log_out(text) {
  token.clear();
  clearInterval(refresh_timer);
  Object.assign(state, { tenant: null, users: [], devices: [] });
  byid("tenant").hidden = true;
  byid("new-token").hidden = true;
  show_logged_in(false);
  if (text) say(text, true);
  else byid("message").hidden = true;
}

async function log_in() {
  show_logged_in(true);
  await act(load_overview);
  clearInterval(refresh_timer);
  refresh_timer = setInterval(() => act(async () => {
    views.show_status((await call("GET", "/admin/v1/status")).data);
    await load_chart();
  }), 30000);
}

byid("login").addEventListener("submit", (event) => {
  event.preventDefault();
  token.set(byid("token").value.trim());
  byid("token").value = "";
  log_in();
});
byid("logout").addEventListener("click", () => log_out());
byid("add-user").addEventListener("submit", add_user);
byid("add-token").addEventListener("submit", add_token);
byid("users-more").addEventListener("click", () => act(() => load_users(true)));
byid("devices-more").addEventListener("click", () => act(() => load_devices(true)));
if (token.get()) log_in();
