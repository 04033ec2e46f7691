import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The test photographs draw their text with the DejaVu fonts the `dejavu-fonts-ttf` package ships,
 * named by family, so what OCR and the machine-zone reader see does not depend on which font the
 * machine calls `monospace`. fontconfig (inside sharp's libvips, and in the Chromium the tests
 * start) reads FONTCONFIG_FILE when it first draws text: this runs before any test file is loaded.
 * The machine's own configuration, or one already given in FONTCONFIG_FILE, is kept and the
 * shipped folder added to it.
 */
const shipped = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const base = process.env.FIRMA_BASE_FONTCONFIG ?? process.env.FONTCONFIG_FILE ?? '/etc/fonts/fonts.conf';
const folder = path.join(tmpdir(), `firma-test-fonts-${createHash('sha256').update(`${base}\n${shipped}`).digest('hex').slice(0, 12)}`);
const file = path.join(folder, 'fonts.conf');
const config = `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <include ignore_missing="yes">${base}</include>\n  <dir>${shipped}</dir>\n  <cachedir>${path.join(folder, 'cache')}</cachedir>\n</fontconfig>\n`;
mkdirSync(folder, { recursive: true });
// Written aside and renamed: test workers starting together never read half a file.
const partial = `${file}.${process.pid}.${process.hrtime.bigint()}`;
writeFileSync(partial, config);
renameSync(partial, file);
process.env.FIRMA_BASE_FONTCONFIG = base;
process.env.FONTCONFIG_FILE = file;
