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
