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
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Shieldwall-Token"] = token;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}
