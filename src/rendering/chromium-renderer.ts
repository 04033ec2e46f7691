import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ChromiumLaunch } from './bundled-chromium.js';
import { withSandbox } from './chromium-sandbox.js';
import type { PdfRenderer, RendererStatus } from './renderer.js';
import { rendererSelfTest } from './self-test.js';

/**
 * Every page keeps room at its bottom for the verification mark the seal draws there (code, QR
 * code, page number), so a document's preview and its final copy break their pages alike.
 */
export const PAGE_MARGINS = { top: '15mm', bottom: '22mm', left: '15mm', right: '15mm' } as const;

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

  async render(html: string): Promise<Buffer> {
    if (this.closed) throw new Error('the renderer is closed');
    const page = await this.acquire();
    let reusable: Page | undefined;
    try {
      await page.setContent(html, { waitUntil: 'load' });
      // No Chromium header or footer: printing one took as long as the page itself (34 ms a
      // two-page document without, 75–84 ms with); the seal draws its mark with pdf-lib instead.
      const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: false, margin: PAGE_MARGINS });
      reusable = page;
      return pdf;
    } finally {
      this.release(reusable);
    }
  }

  async selfTest(): Promise<void> {
    try {
      this.checked = { passedMs: await rendererSelfTest(this) };
    } catch (error) {
      this.checked = { failed: error instanceof Error ? error.message : String(error) };
      throw error;
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
