// The admin API as the page calls it: the token kept in this tab's sessionStorage only, sent as a bearer token;
// JSON in and out; a refusal becomes an api_error with the API's own words.

const storage_key = "syncml-admin-token";

export const token = {
  get: () => sessionStorage.getItem(storage_key) || "",
  set: (value) => sessionStorage.setItem(storage_key, value),
  clear: () => sessionStorage.removeItem(storage_key),
};

export class api_error extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// A path segment: tenant, user and device names go percent-encoded.
export const segment = encodeURIComponent;

// The next page of a list, from its Link header (RFC 8288); null on the last page.
function next_page(link) {
  const found = /<([^>]+)>;\s*rel="next"/.exec(link || "");
  return found ? found[1] : null;
}

// One request: resolves to {data, next}; rejects with api_error.
export async function call(method, path, body) {
  const headers = { Authorization: "Bearer " + token.get() };
  const init = { method, headers, cache: "no-store", credentials: "omit", redirect: "error" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const reply = await fetch(path, init);
  const text = await reply.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!reply.ok) throw new api_error(reply.status, (data && data.error) || reply.status + " " + reply.statusText);
  return { data, next: next_page(reply.headers.get("Link")) };
}
