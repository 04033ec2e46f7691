import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'esbuild';

/** One file the pages load, compressed once, named by its content so browsers may keep it for ever. */
export interface Asset {
  path: string;
  contentType: string;
  body: Buffer;
  gzip: Buffer;
}

export interface PageAssets {
  /** The entry script and style sheet the page shell links. */
  script: string;
  style: string;
  /** The PDF viewer's module and worker, loaded only when a PDF is opened. */
  pdfModule: string;
  pdfWorker: string;
  /** The local WhatsApp chat page's own script and style sheet (src/people/web/local-chat). */
  localChatScript: string;
  localChatStyle: string;
  /** The operator console's script and style sheet (src/people/web/console). */
  consoleScript: string;
  consoleStyle: string;
  byPath: ReadonlyMap<string, Asset>;
}

export const ASSETS_PREFIX = '/assets/';

const here = path.dirname(new URL(import.meta.url).pathname);
const require = createRequire(import.meta.url);

function contentTypeOf(file: string): string {
  if (file.endsWith('.js') || file.endsWith('.mjs')) return 'text/javascript; charset=utf-8';
  if (file.endsWith('.css')) return 'text/css; charset=utf-8';
  return 'application/octet-stream';
}

function asset(name: string, body: Buffer): Asset {
  const hash = crypto.createHash('sha256').update(body).digest('base64url').slice(0, 12);
  const extension = path.extname(name);
  const file = `${path.basename(name, extension)}-${hash}${extension}`;
  return { path: `${ASSETS_PREFIX}${file}`, contentType: contentTypeOf(file), body, gzip: zlib.gzipSync(body, { level: 9 }) };
}

/**
 * The pages' script and styles, bundled and minified from src/people/web when the service starts
 * (about a tenth of a second with esbuild), so there is no build step to forget and no built file
 * to fall out of date; the PDF viewer comes as its package ships it.
 */
async function buildPageAssets(): Promise<PageAssets> {
  const result = await build({
    entryPoints: [
      path.join(here, 'web', 'main.ts'),
      path.join(here, 'web', 'styles.css'),
      path.join(here, 'web', 'local-chat', 'local-chat.ts'),
      path.join(here, 'web', 'local-chat', 'local-chat.css'),
      path.join(here, 'web', 'console', 'console.ts'),
      path.join(here, 'web', 'console', 'console.css'),
    ],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'safari15'],
    write: false,
    outdir: '/out',
    logLevel: 'silent',
    legalComments: 'none',
  });
  const output = (name: string) => result.outputFiles.find((f) => f.path === `/out/${name}`);
  const [script, style, chatScript, chatStyle, consoleScript, consoleStyle] = [
    output('main.js'),
    output('styles.css'),
    output('local-chat/local-chat.js'),
    output('local-chat/local-chat.css'),
    output('console/console.js'),
    output('console/console.css'),
  ];
  if (!script || !style || !chatScript || !chatStyle || !consoleScript || !consoleStyle) throw new Error('the pages bundle lacks a script or styles');
  const pdfBuild = path.dirname(require.resolve('pdfjs-dist/build/pdf.min.mjs'));
  const assets = [
    asset('main.js', Buffer.from(script.contents)),
    asset('styles.css', Buffer.from(style.contents)),
    asset('pdf.min.mjs', fs.readFileSync(path.join(pdfBuild, 'pdf.min.mjs'))),
    asset('pdf.worker.min.mjs', fs.readFileSync(path.join(pdfBuild, 'pdf.worker.min.mjs'))),
    asset('local-chat.js', Buffer.from(chatScript.contents)),
    asset('local-chat.css', Buffer.from(chatStyle.contents)),
    asset('console.js', Buffer.from(consoleScript.contents)),
    asset('console.css', Buffer.from(consoleStyle.contents)),
  ];
  const [main, css, pdf, worker, chat, chatCss, consoleJs, consoleCss] = assets as [Asset, Asset, Asset, Asset, Asset, Asset, Asset, Asset];
  return {
    script: main.path,
    style: css.path,
    pdfModule: pdf.path,
    pdfWorker: worker.path,
    localChatScript: chat.path,
    localChatStyle: chatCss.path,
    consoleScript: consoleJs.path,
    consoleStyle: consoleCss.path,
    byPath: new Map(assets.map((a) => [a.path, a])),
  };
}

let built: Promise<PageAssets> | undefined;

/** Built once per process: the sources cannot change while it runs, and tests start many services. */
export function pageAssets(): Promise<PageAssets> {
  built ??= buildPageAssets();
  return built;
}
