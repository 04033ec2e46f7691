/** A refusal of the service: the catalogue code its message starts with, and the message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The network failed (no answer at all): the page says so and offers to try again. */
export class NetworkFailure extends Error {}

/**
 * The pages' own API, authorised by the link's token. It travels in a header, never in a URL, so it
 * stays out of logs and of what other sites can see.
 */
export class PeopleApi {
  constructor(private readonly token: string) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`/people${path}`, {
        method,
        headers: { 'x-link-token': this.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw new NetworkFailure();
    }
    const answer: unknown = await response.json().catch(() => undefined);
    if (response.ok) return answer as T;
    const message = typeof answer === 'object' && answer !== null && 'message' in answer ? String(answer.message) : '';
    throw new ApiFailure(response.status, message.split(':', 1)[0] ?? '', message);
  }
}

/** The embedded app's first call: which flow and token the SDK's init message opens. */
export async function openEmbedded(input: {
  keyPublic: string;
  document: string;
  parentOrigin: string;
  token?: string;
}): Promise<{ flow: 'sign' | 'validation'; token: string }> {
  const response = await fetch('/people/embed', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
    credentials: 'omit',
  }).catch(() => {
    throw new NetworkFailure();
  });
  if (!response.ok) throw new ApiFailure(response.status, 'EMBED_NOT_FOUND', 'EMBED_NOT_FOUND');
  return (await response.json()) as { flow: 'sign' | 'validation'; token: string };
}

/** Base64 of a blob's bytes, for JSON bodies. */
export async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
