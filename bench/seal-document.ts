/** The bench's template document: a contract of two pages with a buyer and a seller, as the seal benches render it. */
export const TWO_PAGES = `<!DOCTYPE html><html lang="es"><head><meta charset="UTF-8"><title>Compraventa</title></head><body>
<h1>Contrato de compraventa</h1>
<p>Comprador: <span name="buyer_name">x</span>. Vendedor: <span name="seller_name">y</span>. Precio: <span name="price">0</span>.</p>
${'<p>Cláusula de ejemplo con texto suficiente para ocupar espacio en la página y obligar a partir el documento.</p>'.repeat(30)}
<p style="break-before:page">Firmado el <span name="signDate">[fecha]</span>.</p>
<div id="buyer"></div><div id="seller"></div>
</body></html>`;

/**
 * A signature as the people's page sends it: a 600 × 200 PNG of dark strokes on a transparent
 * canvas (a typed name is drawn on the same canvas), so the benches seal what signers send.
 */
export async function drawnSignature(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><path d="M20 150 C 80 20, 120 180, 180 90 S 300 40, 340 140 S 480 60, 580 100" stroke="#10243e" stroke-width="3" fill="none"/><path d="M60 170 L 540 160" stroke="#10243e" stroke-width="2" fill="none"/></svg>';
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The same contract as an uploaded PDF of two A4 pages, a signature line on each: what most processes seal. */
export async function twoPagePdf(): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const number of [1, 2]) {
    const page = document.addPage([595.28, 841.89]);
    page.drawText(`Contrato de compraventa, página ${number}`, { x: 56, y: 780, font, size: 14 });
    for (let line = 0; line < 30; line++)
      page.drawText('Cláusula de ejemplo con texto suficiente para ocupar espacio.', { x: 56, y: 740 - line * 18, font, size: 10 });
    page.drawLine({ start: { x: 56, y: 150 }, end: { x: 300, y: 150 }, thickness: 1 });
  }
  return Buffer.from(await document.save());
}

/** One box for each of the PDF's two signers, one on each page, above its signature line: `[page, left, bottom, width, height]`. */
export const PLACED_BOXES: [number, number, number, number, number][] = [
  [1, 56, 155, 200, 70],
  [2, 56, 155, 200, 70],
];
