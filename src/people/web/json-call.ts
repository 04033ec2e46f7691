/*
 * One call of a page's own JSON routes (the console's, the local chat's): same origin, never cached,
 * a body sent as JSON. A refused call throws what the page's `refused` makes of the answer, so each
 * page names its refusals in its own words.
 */

export interface CallInit {
  method?: 'GET' | 'POST' | 'PUT';
  body?: unknown;
  headers?: Record<string, string>;
}

/** The `message` of a refusal's JSON answer, or '' when it has none. */
export async function messageOf(res: Response): Promise<string> {
  try {
    const body: unknown = await res.json();
    return typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : '';
  } catch {
    return '';
  }
}

export async function callJson(path: string, init: CallInit, refused: (res: Response) => Promise<Error>): Promise<Response> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    credentials: 'same-origin',
    cache: 'no-store',
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (!res.ok) throw await refused(res);
  return res;
}
