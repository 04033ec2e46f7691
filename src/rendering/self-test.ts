import type { PdfRenderer } from './renderer.js';

/** Accented text, so a renderer without fonts (a PDF with no text at all) is caught. */
const PROBE = 'Autoprueba de firma: ÁÉÍÓÚ ñ 12345';

/** The text of a PDF, page after page, as a reader would copy it. */
export async function pdfText(pdf: Buffer): Promise<string> {
  // Loaded when first needed, like the browser: only the self-test reads PDFs.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
    }
    return pages.join('\n');
  } finally {
    await document.destroy();
  }
}

/** Renders a one-line PDF and checks its text came through: answers the time it took, or throws why not. */
export async function rendererSelfTest(renderer: PdfRenderer): Promise<number> {
  const started = Date.now();
  const pdf = await renderer.render(`<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"></head><body><p>${PROBE}</p></body></html>`);
  const text = await pdfText(pdf);
  if (!text.includes(PROBE)) throw new Error(`the renderer's PDF lacks its text (found ${JSON.stringify(text.slice(0, 80))}): are fonts installed?`);
  return Date.now() - started;
}
