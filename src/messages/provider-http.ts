import { SendError } from './send-result.js';

export interface ProviderAnswer {
  status: number;
  /** The answer's JSON, or undefined when it was not JSON. */
  json: unknown;
}

/**
 * One POST to a messaging provider's API (a FormData body goes as multipart/form-data, fetch
 * writing its boundary into the Content-Type). No answer in time, or no connection at all, is a retryable
 * SendError; any HTTP answer is returned for the provider's own reading.
 */
export async function postToProvider(
  url: string,
  request: { headers: Record<string, string>; body: string | FormData },
  timeoutMs: number,
): Promise<ProviderAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw new SendError(networkFailure(error, timeoutMs), { retryable: true });
  }
  return { status: response.status, json: parseJson(text) };
}

/**
 * A refusal by HTTP status: 429 (slow down) and 5xx (the provider's own trouble) may pass; any other
 * 4xx is a request the provider will never accept as it is.
 */
export function httpRefusal(status: number, detail: string | undefined): SendError {
  const retryable = status === 429 || status >= 500;
  return new SendError(`HTTP ${status}${detail ? `: ${detail}` : ''}`, { retryable, statusCode: status });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function networkFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (error instanceof Error) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is its cause.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
