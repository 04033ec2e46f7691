/**
 * npm run bench (part): what a person's phone downloads to open each page, and how long until the
 * page can be used, on loopback.
 *
 * First load = the HTML, the script and the style sheet, gzip-compressed as the service sends them
 * (no fonts are loaded: the pages use the system's); the PDF viewer is excluded, since it is only
 * fetched when a PDF is opened. Time to interactive = from navigation until the step's first button
 * can be pressed, median of several loads in a fresh browser context each (nothing cached).
 * Chromium: CHROMIUM_PATH, Debian's, or the one inside @sparticuz/chromium (test/support/browser.ts).
 */
import zlib from 'node:zlib';
import { launchBrowser } from '../test/support/browser.js';
import { call, startServedService } from '../test/support/service.js';
import { PDF_BASE64, stored, templateWithHtml } from '../test/support/signing.js';
import { compareWithLastRecorded } from './last-recorded.js';
import { healthOf, waitUntilReady } from './ready.js';

const BUDGET = 100 * 1024;
const LOADS = 7;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const { svc, base } = await startServedService('sqlite');
  try {
    await waitUntilReady(healthOf(svc.app));
    const res = await call(svc.app, 'POST', '/document/upload', {
      key: svc.orgA.privateKey,
      body: { email: svc.orgA.email, name: 'Bench', file: PDF_BASE64, signProfile: [{ name: 'Ana', email: 'ana@bench.test', otpCode: true }] },
    });
    const { participants } = await stored(svc, svc.orgA, res.json().code);
    const template = await templateWithHtml(svc, svc.orgA);
    const reference = await call(svc.app, 'POST', '/template/reference', { key: svc.orgA.privateKey, body: { template } });
    const pages = {
      'participant page (/s/…)': `/s/${participants[0]?.link_token}`,
      'face-validation page (/v/…)': '/v/x',
      'embedded app (/)': '/?id=1',
      'questionnaire (/r/…)': new URL(reference.json().url).pathname,
    };
    const assets = svc.deps.pageAssets;
    const gz = (path: string) => assets.byPath.get(path)?.gzip.length ?? 0;
    console.log("\nPeople's pages: first load, gzip (budget 100 KB each; the PDF viewer loads only with a PDF)");
    for (const [name, path] of Object.entries(pages)) {
      const html = await (await fetch(`${base}${path}`)).text();
      const total = zlib.gzipSync(html).length + gz(assets.script) + gz(assets.style);
      console.log(
        `  ${name.padEnd(30)} ${kb(total).padStart(9)}  (HTML ${kb(zlib.gzipSync(html).length)}, script ${kb(gz(assets.script))}, styles ${kb(gz(assets.style))})  ${total <= BUDGET ? 'within' : 'OVER'} budget`,
      );
    }
    console.log(`  PDF viewer, on demand: ${kb(gz(assets.pdfModule))} + worker ${kb(gz(assets.pdfWorker))}`);

    const phone = await launchBrowser();
    try {
      const times: number[] = [];
      for (let i = 0; i < LOADS; i++) {
        const context = await phone.phone();
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(`${base}${pages['participant page (/s/…)']}`);
        await page.getByRole('button', { name: 'Enviarme el código' }).waitFor();
        times.push(performance.now() - started);
        await context.close();
      }
      console.log(
        `  participant page, time to interactive on loopback: median ${median(times).toFixed(0)} ms over ${LOADS} cold loads (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`,
      );
      compareWithLastRecorded('pages', [{ name: 'participant page, time to interactive', value: Math.round(median(times)), unit: 'ms', better: 'lower' }]);
    } finally {
      await phone.close();
    }
  } finally {
    await svc.close();
  }
}

await main();
