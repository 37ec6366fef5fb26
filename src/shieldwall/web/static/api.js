// The JSON API: every request carries the side token (X-Shieldwall-Token) when there is one.

export class ApiError extends Error {
  constructor(status, body) {
    const detail = body && body.detail;
    let msg;
    if (typeof detail === "string") msg = detail;
    else if (Array.isArray(detail)) msg = detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
    else msg = `the server answered ${status}`;
    super(msg);
    this.status = status;
    this.rule = body && body.rule ? body.rule : null;
    this.reason = body && body.reason ? body.reason : null;
    this.ruleUrl = body && body.rule_url ? body.rule_url : null;
    // an order made for an older state of the game (409): the game's version now
    this.version = body && typeof body.version === "number" ? body.version : null;
  }
}

// `rawBody`: a JSON text sent as it is; `asText`: the answer's JSON text, not parsed. Both keep
// numbers JavaScript cannot hold exactly (a save's 128-bit seed) byte for byte.
export async function api(path, { method = "GET", body, rawBody, asText = false, token } = {}) {
  const headers = {};
  if (body !== undefined || rawBody !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Shieldwall-Token"] = token;
  const res = await fetch(path, {
    method,
    headers,
    body: rawBody !== undefined ? rawBody : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return asText ? text : data;
}

// A fresh id for one order: a retry of the same order carries it again, and the server answers the
// retry with the first answer instead of playing the order twice.
export function newClientId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
