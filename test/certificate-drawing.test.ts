import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { addCertificatePages } from '../src/documents/sealing/drawing/certificate-pages.js';
import { keptSignature, prepareSignatureImage } from '../src/documents/sealing/drawing/signature-image.js';
import { DocumentFaces, standardWritable } from '../src/documents/sealing/drawing/text-faces.js';
import { textLines } from '../src/documents/sealing/drawing/text-lines.js';
import type { CertificateBlock } from '../src/documents/sealing/seal-evidence.js';
import { pdfToolsInstalled, pdftotext, qpdfCheck } from './support/pdf-tools.js';

/*
 * The evidence certificate is drawn with pdf-lib (src/documents/sealing/drawing/): these are the
 * rules of its layout. Sealing as a whole, with the certificate inside real final files, is
 * test/seal-process.test.ts.
 */

async function drawn(blocks: CertificateBlock[]): Promise<{ pdf: Buffer; pages: number }> {
  const document = await PDFDocument.create();
  const pages = await addCertificatePages(document, blocks);
  // Without object streams, so the fonts' names can be looked for in the bytes.
  return { pdf: Buffer.from(await document.save({ useObjectStreams: false })), pages: pages.length };
}

/** The text of each page, as pdftotext separates pages with form feeds. */
function pageTexts(pdf: Buffer): string[] {
  return pdftotext(pdf)
    .split('\f')
    .filter((page) => page.trim() !== '')
    .map((page) => page.replace(/\s+/g, ' '));
}

describe('lines break between words, and inside a word only when it is wider than the line', () => {
  it('wraps at spaces, keeps line breaks, and cuts a word longer than the line', async () => {
    const face = (await DocumentFaces.for(await PDFDocument.create(), [])).face('regular', '');
    const width = face.width('contrato de compraventa', 8) - 1;
    expect(textLines('contrato de compraventa', face, 8, width)).toEqual(['contrato de', 'compraventa']);
    expect(textLines('uno\ndos', face, 8, 500)).toEqual(['uno', 'dos']);
    const long = 'x'.repeat(200);
    const lines = textLines(long, face, 8, 100);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join('')).toBe(long);
    for (const line of lines) expect(face.width(line, 8)).toBeLessThanOrEqual(100);
  });

  it('a column that breaks anywhere (a hash) fills each line before breaking', async () => {
    const face = (await DocumentFaces.for(await PDFDocument.create(), [])).face('mono', '');
    const hash = 'ab'.repeat(32);
    const lines = textLines(`${hash} ${hash}`, face, 6.5, face.width('a'.repeat(50), 6.5), true);
    expect(lines.map((line) => line.length)).toEqual([50, 50, 29]);
    // Without breaking anywhere, the second hash starts a line of its own.
    expect(textLines(`${hash} ${hash}`, face, 6.5, face.width('a'.repeat(50), 6.5)).map((line) => line.length)).toEqual([50, 14, 50, 14]);
    expect(lines.join('').replace(/ /g, '')).toBe(hash + hash);
  });
});

describe('text the standard fonts cannot write is written as it was given', () => {
  it('Latin, Spanish, Portuguese and French text stays in the standard fonts, Ł, Greek and Cyrillic do not', () => {
    expect(standardWritable('Señora Conceição, façade, Œuvre — 5 €')).toBe(true);
    expect(standardWritable('Łukasz')).toBe(false);
    expect(standardWritable('Ελένη')).toBe(false);
    expect(standardWritable('Дмитрий')).toBe(false);
  });

  it.runIf(pdfToolsInstalled)('names in other scripts come out of the PDF as they went in (DejaVu embedded only then)', async () => {
    const names = ['Łukasz Wąsowicz', 'Ελένη Παπαδοπούλου', 'Дмитрий Смирнов'];
    const { pdf } = await drawn([
      { kind: 'title', text: 'Certificado de evidencias' },
      { kind: 'fields', fields: names.map((name): [string, string] => ['Nombre', name]) },
      { kind: 'signature', label: 'Firma', name: names[2] ?? '', image: undefined },
    ]);
    const text = pdftotext(pdf);
    for (const name of names) expect(text).toContain(name);
    expect(pdf.includes('DejaVu')).toBe(true);
    expect(qpdfCheck(pdf).output).toContain('No syntax or stream encoding errors found');

    const plain = await drawn([{ kind: 'fields', fields: [['Nombre', 'Ana Gómez']] }]);
    expect(plain.pdf.includes('DejaVu')).toBe(false);
    expect(pdftotext(plain.pdf)).toContain('Ana Gómez');
  });
});

describe('a table longer than a page goes on over the next pages', () => {
  it.runIf(pdfToolsInstalled)('repeats its header on every page and loses no row', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => [`row-${i}`, 'PARTICIPANT_SIGN', `detail ${i}`]);
    const { pdf, pages } = await drawn([
      { kind: 'heading', text: 'Registro de auditoría' },
      { kind: 'table', columns: ['Hora', 'Acción', 'Detalles'], rows, breakable: [] },
    ]);
    expect(pages).toBeGreaterThan(2);
    const texts = pageTexts(pdf);
    expect(texts).toHaveLength(pages);
    for (const page of texts) expect(page).toContain('Hora Acción Detalles');
    const all = texts.join(' ');
    for (let i = 0; i < rows.length; i++) expect(all).toContain(`row-${i} `);
  });

  it.runIf(pdfToolsInstalled)('a cell taller than a whole page is split between pages line by line', async () => {
    const lines = Array.from({ length: 250 }, (_, i) => `line-${i}`);
    const { pdf, pages } = await drawn([{ kind: 'fields', fields: [['Detalles', lines.join('\n')]] }]);
    expect(pages).toBeGreaterThan(1);
    const all = pageTexts(pdf).join(' ');
    for (const line of lines) expect(all).toContain(`${line} `);
  });
});

describe('a signature image is drawn as 8-bit RGB on white, whatever PNG it came as', () => {
  const stroke =
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="90"><path d="M10 70 C 60 5, 90 5, 120 60" stroke="#1a237e" stroke-width="4" fill="none"/></svg>';

  it('a transparent, a grey and a 16-bit PNG all become the PNG rows a PDF reads with the predictor', async () => {
    const transparent = await sharp(Buffer.from(stroke)).png().toBuffer();
    const grey = await sharp(transparent).flatten({ background: '#ffffff' }).toColourspace('b-w').png().toBuffer();
    const deep = await sharp(transparent).toColourspace('rgb16').png().toBuffer();
    expect((await sharp(grey).metadata()).channels).toBe(1);
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    for (const png of [transparent, grey, deep]) {
      const image = await prepareSignatureImage(png);
      expect({ width: image.width, height: image.height }).toEqual({ width: 300, height: 90 });
      expect(image.rows.length).toBeGreaterThan(0);
    }
  });

  it.runIf(pdfToolsInstalled)('the certificate draws it at most 165 × 42 points, its proportions kept', async () => {
    const image = await prepareSignatureImage(await sharp(Buffer.from(stroke)).png().toBuffer());
    const document = await PDFDocument.create();
    await addCertificatePages(document, [{ kind: 'signature', label: 'Firma', name: 'Ana Gómez', image }]);
    const pdf = Buffer.from(await document.save());
    expect(qpdfCheck(pdf).output).toContain('No syntax or stream encoding errors found');
    const loaded = await PDFDocument.load(pdf);
    const contents = loaded.getPage(0).node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray() : [];
    const operators = streams
      .map((ref) => loaded.context.lookup(ref))
      .map((stream) => (stream instanceof PDFRawStream ? inflateSync(stream.getContents()).toString('latin1') : ''))
      .join('\n');
    // 300 × 90 scaled into 165 × 42: the height limits, to 140 × 42.
    expect(operators).toMatch(/q 140 0 0 42 [\d.]+ [\d.]+ cm \/\S+ Do Q/);
  });

  it('a signature kept since signing is drawn from its own rows, not decoded again', async () => {
    const kept = await keptSignature(await sharp(Buffer.from(stroke)).png().toBuffer());
    const image = await prepareSignatureImage(kept);
    const idat = kept.indexOf('IDAT', 0, 'latin1');
    expect(image.rows.subarray(0, 16).equals(kept.subarray(idat + 4, idat + 20))).toBe(true);
  });

  it('a kept signature is no larger than 1600 × 600 pixels, its proportions kept', async () => {
    const wide = await sharp({ create: { width: 3200, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .png()
      .toBuffer();
    expect(await sharp(await keptSignature(wide)).metadata()).toMatchObject({ width: 1600, height: 300, channels: 3 });
  });

  it('a file that only starts like a PNG is refused', async () => {
    await expect(prepareSignatureImage(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]))).rejects.toThrow();
  });
});
