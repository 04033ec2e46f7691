/*
 * Small PDFs written by hand, each one page showing a line of text, in the forms intake must tell
 * apart: whole (with a cross-reference table), without a table (as some generators and the
 * README's walk-through wrote them), encrypted, damaged.
 */

function escapeText(text: string): string {
  return text.replace(/[()\\]/g, (c) => `\\${c}`);
}

function objects(text: string, extra: string[] = []): string[] {
  const content = `BT /F1 18 Tf 72 720 Td (${escapeText(text)}) Tj ET`;
  return [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>',
    `<</Length ${content.length}>>\nstream\n${content}\nendstream`,
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>',
    ...extra,
  ];
}

/** A one-page PDF showing `text`, with its cross-reference table; `comment` pads the file after its header. */
export function onePagePdf(text: string, options: { comment?: string; trailer?: string; extra?: string[] } = {}): Buffer {
  let body = `%PDF-1.4\n${options.comment === undefined ? '' : `%${options.comment}\n`}`;
  const offsets: number[] = [];
  objects(text, options.extra).forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${entries}`;
  body += `trailer\n<</Size ${offsets.length + 1}/Root 1 0 R${options.trailer ?? ''}>>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The same page without a cross-reference table or `startxref`: poppler and browsers open it, the seal cannot. */
export function pdfWithoutXref(text: string): Buffer {
  const body = objects(text)
    .map((object, index) => `${index + 1} 0 obj\n${object}\nendobj\n`)
    .join('');
  return Buffer.from(`%PDF-1.4\n${body}trailer\n<</Root 1 0 R>>\n%%EOF\n`, 'latin1');
}

/** A page whose file says it is encrypted (the standard security handler): refused whatever its password. */
export function encryptedPdf(text: string): Buffer {
  const key = '0'.repeat(64);
  return onePagePdf(text, {
    extra: [`<</Filter/Standard/V 1/R 2/O <${key}>/U <${key}>/P -44>>`],
    trailer: `/Encrypt 6 0 R/ID[<${'1'.repeat(32)}><${'1'.repeat(32)}>]`,
  });
}

/** No table and a page whose content object is missing: nothing faithful can be rebuilt. */
export function unrepairablePdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n2 0 obj\n<</Type/Pages/Kids[3 0 R]/Count 1>>\nendobj\n' +
      '3 0 obj\n<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R>>\nendobj\ntrailer\n<</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
}
