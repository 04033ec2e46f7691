import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { extractTar } from './tar.js';

/** How to start the Chromium that ships inside the @sparticuz/chromium npm package. */
export interface ChromiumLaunch {
  executablePath: string;
  args: string[];
  /** The browser's whole environment; the service's own when absent. */
  env?: Record<string, string>;
}

/**
 * Flags of the package meant for pages one trusts: with them a rendered document could reach
 * other origins. The documents rendered here come from integrators and participants.
 */
const UNSAFE_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content']);

/**
 * Flags of the package that emulate a GPU in software (SwiftShader, for pages drawing WebGL on
 * AWS Lambda). Printing a document needs no GPU, and compositing through the emulated one doubled
 * Chromium's CPU for each render (about 100 ms of CPU a two-page document, against 50 without).
 */
const SOFTWARE_GPU_FLAG = /^--(use-gl|use-angle|enable-unsafe-swiftshader|in-process-gpu|ignore-gpu-blocklist)(=|$)/;

async function unpackTarBrotli(archive: string, into: string): Promise<void> {
  if (existsSync(into)) return;
  // This unpacking's own folder: renderers of one process (threads) share its pid.
  const partial = `${into}.${process.pid}.${randomUUID()}.partial`;
  await mkdir(partial, { recursive: true });
  const tar = `${partial}.tar`;
  await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(tar));
  await extractTar(tar, partial);
  // Renamed whole, so an instance starting beside this one never sees half a folder.
  await rename(partial, into)
    .catch((error: unknown) => {
      if (!existsSync(into)) throw error;
    })
    .finally(() => Promise.all([rm(tar, { force: true }), rm(partial, { recursive: true, force: true })]));
}

/**
 * Unpacks the bundled Chromium (the package puts the binary and its fonts in the temporary
 * folder) and, beside it, the libraries it needs that a plain Debian lacks (nss, nspr, expat:
 * the package's al2023 archive, which it only unpacks itself on AWS Lambda), and writes a
 * fontconfig file of our own: the package's hard-codes /tmp/fonts, and without fonts the PDF
 * silently has no text. Nothing is downloaded.
 */
export async function bundledChromium(): Promise<ChromiumLaunch> {
  const { default: Chromium } = await import('@sparticuz/chromium');
  const executablePath = await Chromium.executablePath();
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', '..', 'bin');
  const libraries = path.join(tmpdir(), 'seal-chromium-al2023');
  await unpackTarBrotli(path.join(bin, 'al2023.tar.br'), libraries);
  const fontconfig = path.join(tmpdir(), 'seal-chromium-fontconfig');
  await mkdir(fontconfig, { recursive: true });
  const fonts = path.join(tmpdir(), 'fonts');
  await writeFile(
    path.join(fontconfig, 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${fonts}</dir>\n  <cachedir>${path.join(fontconfig, 'cache')}</cachedir>\n</fontconfig>\n`,
  );
  return {
    executablePath,
    args: Chromium.args.filter((flag) => !UNSAFE_FLAGS.has(flag) && !SOFTWARE_GPU_FLAG.test(flag)),
    env: { LD_LIBRARY_PATH: path.join(libraries, 'lib'), FONTCONFIG_PATH: fontconfig, HOME: tmpdir() },
  };
}
