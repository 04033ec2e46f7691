import type { TestService } from './service.js';

/**
 * The people's API as a link's holder calls it (the link token in `x-link-token`), and a photo
 * sent as the page sends it. `service` is read at each call: a suite starts its service in
 * beforeAll, after these are made.
 */
export function peopleCalls(service: () => TestService) {
  const people = (token: string, method: 'GET' | 'POST', path: string, body?: Record<string, unknown>) =>
    service().app.inject({ method, url: `/people${path}`, headers: { 'x-link-token': token }, ...(body ? { payload: body } : {}) });
  const photo = (token: string, flow: 'signing' | 'validation', kind: string, image: Buffer) =>
    people(token, 'POST', `/${flow}/photo`, { kind, image: image.toString('base64') });
  return { people, photo };
}
