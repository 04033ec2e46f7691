import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { bundledChromium } from '../../src/rendering/bundled-chromium.js';

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH, else Debian's (`apt-get install chromium`,
 * which .ci/run does), else the one @sparticuz/chromium ships inside its npm package, so that a
 * fresh machine with only `npm install` runs them too. Never a browser download.
 */
async function chromiumToLaunch(): Promise<{ executablePath: string; env?: Record<string, string> }> {
  const installed = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (candidate): candidate is string => candidate !== undefined && fs.existsSync(candidate),
  );
  if (installed && process.env.TEST_BUNDLED_CHROMIUM !== '1') return { executablePath: installed };
  const bundled = await bundledChromium();
  return { executablePath: bundled.executablePath, ...(bundled.env ? { env: bundled.env } : {}) };
}

/** The flags this machine needs (no sandbox as root, no network beyond loopback), then the fake camera's. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A Y4M video (what Chromium's fake camera plays) of one still image, made at test time from a
 * photograph a package ships: 4:2:0 planes converted from sharp's RGB.
 */
export async function y4mOf(image: Buffer, file: string, size = { width: 640, height: 480 }): Promise<string> {
  const { width, height } = size;
  const rgb = await sharp(image).resize(width, height, { fit: 'cover' }).removeAlpha().raw().toBuffer();
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const i = (row * width + col) * 3;
      const [r, g, b] = [rgb[i] ?? 0, rgb[i + 1] ?? 0, rgb[i + 2] ?? 0];
      y[row * width + col] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const j = (row / 2) * (width / 2) + col / 2;
        u[j] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)));
        v[j] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)));
      }
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F5:1 Ip A1:1 C420jpeg\n`), frame, frame, frame]));
  return file;
}

export interface PhoneBrowser {
  browser: Browser;
  /** A new context the size of a phone, its camera playing `camera`. */
  phone(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export const PHONE_VIEWPORT = { width: 390, height: 844 };

export async function launchBrowser(options: { camera?: string } = {}): Promise<PhoneBrowser> {
  const { executablePath, env } = await chromiumToLaunch();
  const browser = await chromium.launch({
    executablePath,
    ...(env ? { env: { ...process.env, ...env } } : {}),
    headless: true,
    args: [
      ...FLAGS,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      ...(options.camera ? [`--use-file-for-fake-video-capture=${options.camera}`] : []),
    ],
  });
  return {
    browser,
    phone: () =>
      browser.newContext({
        viewport: PHONE_VIEWPORT,
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        permissions: ['camera'],
        locale: 'es-CO',
      }),
    async close() {
      await browser.close();
    },
  };
}

/**
 * Where the pages' screenshots go: a folder git ignores, so a test run changes no tracked file.
 * `npm run screenshots` points it at docs/screenshots to refresh the copies the README shows.
 */
export const SCREENSHOTS_DIR = path.resolve(import.meta.dirname, '../..', process.env.SCREENSHOTS_DIR ?? 'test-output/screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`), fullPage: false });
}
