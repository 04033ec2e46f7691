import { PDFDocument } from 'pdf-lib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ChromiumLaunch } from './bundled-chromium.js';
import { withSandbox } from './chromium-sandbox.js';
import { bandsDocument, type PageLayout, POINTS_PER_MM, SERVICE_LAYOUT, textMargins } from './page-layout.js';
import type { PdfRenderer, RendererStatus } from './renderer.js';
import { rendererSelfTest } from './self-test.js';

/** Margins in points as Chromium takes them (it reads no points). */
function chromiumMargins(margins: PageLayout['border']): Record<keyof PageLayout['border'], string> {
  const mm = (points: number) => `${(points / POINTS_PER_MM).toFixed(3)}mm`;
  return { top: mm(margins.top), right: mm(margins.right), bottom: mm(margins.bottom), left: mm(margins.left) };
}

const NO_MARGINS = { top: 0, right: 0, bottom: 0, left: 0 };

/**
 * Tries of the start-up self-test, a second apart. A Chromium can die while it starts on a busy
 * machine ("Target page, context or browser has been closed", seen in CI), and the next render
 * starts another; but the instance is ready only once the self-test passed, and it runs once, so
 * one unlucky start would leave the instance out of its balancer for good.
 */
const SELF_TEST_TRIES = 3;
const SELF_TEST_PAUSE_MS = 1000;

/** A render Chromium died under is tried once more, on a new Chromium; a render that fails otherwise is not. */
const RENDER_TRIES = 2;

/**
 * Whatever Chromium renders: no GPU (printing needs none, and one emulated in software costs a
 * render as much CPU again as the render itself).
 */
const RENDER_FLAGS = ['--disable-gpu'];

/**
 * Renders with one long-lived Chromium: at most `concurrency` pages render at once, each reused
 * afterwards; a browser that died is started again on the next render. Pages run no JavaScript
 * and every request they would make is aborted, so a document can neither reach the network nor
 * read local files: what is printed is the HTML given, with data: images only. Chromium runs
 * with its sandbox whenever the machine allows it (src/rendering/chromium-sandbox.ts); when it
 * cannot, `warn` is told why, once per renderer.
 */
export class ChromiumRenderer implements PdfRenderer {
  private browser: Promise<{ browser: Browser; context: BrowserContext }> | undefined;
  private readonly idle: Page[] = [];
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  private checked: RendererStatus['selfTest'] = 'not run';

  constructor(
    private readonly launch: () => Promise<ChromiumLaunch>,
    private readonly options: { concurrency: number; engine: string; warn?: (details: object, message: string) => void },
  ) {}

  private warned = false;

  private start(): Promise<{ browser: Browser; context: BrowserContext }> {
    this.browser ??= (async () => {
      const how = await withSandbox(await this.launch());
      if (!how.sandbox && !this.warned) {
        this.warned = true;
        this.options.warn?.({ reason: how.reason }, `Chromium renders without its sandbox: ${how.reason}`);
      }
      // Loaded here, not at start: playwright-core takes a second or more to import, which every
      // start of the service (and of each test file) would otherwise pay before the first render.
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: how.executablePath,
        args: [...how.args, ...RENDER_FLAGS],
        headless: true,
        // Playwright adds --no-sandbox unless told the sandbox is wanted.
        chromiumSandbox: how.sandbox,
        ...(how.env ? { env: how.env } : {}),
      });
      const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
      await context.route('**/*', (route) => route.abort('blockedbyclient'));
      browser.on('disconnected', () => {
        this.browser = undefined;
        this.idle.length = 0;
      });
      return { browser, context };
    })().catch((error: unknown) => {
      this.browser = undefined;
      throw error;
    });
    return this.browser;
  }

  private async acquire(): Promise<Page> {
    while (this.busy >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy++;
    try {
      const { context } = await this.start();
      return this.idle.pop() ?? (await context.newPage());
    } catch (error) {
      this.release(undefined);
      throw error;
    }
  }

  private release(page: Page | undefined): void {
    this.busy--;
    if (page && !page.isClosed() && this.browser) this.idle.push(page);
    this.waiting.shift()?.();
  }

  async render(html: string, layout: PageLayout = SERVICE_LAYOUT): Promise<Buffer> {
    for (let tried = 1; ; tried++) {
      if (this.closed) throw new Error('the renderer is closed');
      const page = await this.acquire();
      let reusable: Page | undefined;
      try {
        const pdf = await print(page, html, textMargins(layout));
        const withBands = layout.header || layout.footer ? await addBands(page, pdf, layout) : pdf;
        reusable = page;
        return withBands;
      } catch (error) {
        // Chromium died under this render (killed, out of memory, a crash on a busy machine): the
        // next render starts another, so this one is tried once more there rather than leaving a
        // person's page with the HTML instead of its PDF, or a seal waiting for its retry.
        if (!page.isClosed() || this.closed || tried >= RENDER_TRIES) throw error;
        this.options.warn?.({ reason: error instanceof Error ? error.message : String(error) }, 'Chromium closed during a render: rendering it again');
      } finally {
        this.release(reusable);
      }
    }
  }

  async selfTest(): Promise<void> {
    for (let tried = 1; ; tried++) {
      try {
        this.checked = { passedMs: await rendererSelfTest(this) };
        return;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (tried >= SELF_TEST_TRIES || this.closed) {
          this.checked = { failed: reason };
          throw error;
        }
        this.options.warn?.({ reason, tried }, 'PDF renderer self-test failed: trying again');
        await new Promise((resolve) => setTimeout(resolve, SELF_TEST_PAUSE_MS));
      }
    }
  }

  describe(): RendererStatus {
    return { engine: this.options.engine, running: this.browser !== undefined, selfTest: this.checked };
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = this.browser;
    this.browser = undefined;
    if (running) await (await running.catch(() => undefined))?.browser.close();
  }
}

async function print(page: Page, html: string, margins: PageLayout['border']): Promise<Buffer> {
  await page.setContent(html, { waitUntil: 'load' });
  // No Chromium header or footer: printing one took as long as the page itself (34 ms a two-page
  // document without, 75–84 ms with), and it shows the same thing on every page; the seal draws
  // its mark with pdf-lib, and a template's header and footer are added by addBands.
  return page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: false, margin: chromiumMargins(margins) });
}

/**
 * A template's header and footer (docs/real-service.md §2.2 `custom`) over the document's pages.
 * Chromium's own header and footer templates show one HTML on every page, and choosing the first
 * or the last page's contents would take a script, which the renderer never runs; so, knowing
 * the number of pages from the document's render, a second render prints every page's bands, with
 * its contents and numbers, one sheet per page, each drawn over its page. Two renders, whatever
 * the length, and no script.
 */
async function addBands(page: Page, pdf: Buffer, layout: PageLayout): Promise<Buffer> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const pages = document.getPages();
  const bands = await print(page, bandsDocument(layout, pages.length), NO_MARGINS);
  const sheets = await document.embedPdf(
    bands,
    pages.map((_, index) => index),
  );
  pages.forEach((documentPage, index) => {
    const sheet = sheets[index];
    // Both printed on Chromium's A4: the sheet covers the page exactly.
    if (sheet) documentPage.drawPage(sheet);
  });
  // Without object streams, which pdf-lib deflates in JavaScript.
  return Buffer.from(await document.save({ useObjectStreams: false }));
}
