import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { portOf } from './ports.js';

const SDK_FILE = path.resolve(import.meta.dirname, '../../node_modules/auco-sdk-integration/dist/auco-sdk-integration.esm.js');

/** The integrator's backend minting a token for its page: the document the page embeds, for the page's origin. */
export type Mint = (document: string, origin: string) => Promise<string>;

/**
 * An integrator's page on an origin of its own: it loads the real SDK (auco-sdk-integration) and
 * points it at the service with `customOrigin`, recording the SDK's events for the test to read.
 * With `hostToken: true` in the settings the page gives the SDK an `onSDKToken` that asks its own
 * backend (`POST /token`, answered with `mint`) for a token.
 */
export async function startHost(config: () => Record<string, unknown>, mint?: Mint): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = '';
  const server = http.createServer((request, response) => {
    if (request.url === '/token' && request.method === 'POST' && mint) {
      const { sdkData } = config() as { sdkData: { document: string } };
      mint(sdkData.document, origin).then(
        (token) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ token }));
        },
        () => {
          response.writeHead(500);
          response.end();
        },
      );
      return;
    }
    if (request.url === '/sdk.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(`${fs.readFileSync(SDK_FILE, 'utf8')}\nwindow.AucoSDK = AucoSDK;`);
      return;
    }
    const settings = JSON.stringify(config());
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Integrator</title></head><body>
<iframe id="sdk" allow="camera" title="Firma" style="width:390px;height:800px;border:0"></iframe>
<script type="module">
await import('/sdk.js');
window.sdkEvents = [];
const { hostToken, ...settings } = ${settings};
const onSDKToken = async () => {
  window.sdkEvents.push({ event: 'token' });
  const answer = await fetch('/token', { method: 'POST' });
  return (await answer.json()).token;
};
window.AucoSDK({
  ...settings,
  iframeId: 'sdk',
  events: {
    onSDKReady: () => window.sdkEvents.push({ event: 'ready' }),
    onSDKClose: (...args) => window.sdkEvents.push({ event: 'close', args }),
    ...(hostToken ? { onSDKToken } : {}),
  },
});
</script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${portOf(server.address())}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type SdkEvent = { event: 'ready' } | { event: 'token' } | { event: 'close'; args: unknown[] };

export const eventsOf = (page: Page) => page.evaluate(() => (window as unknown as { sdkEvents?: SdkEvent[] }).sdkEvents ?? []);
