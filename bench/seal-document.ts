/** The bench's template document: a contract of two pages with a buyer and a seller, as the seal benches render it. */
export const TWO_PAGES = `<!DOCTYPE html><html lang="es"><head><meta charset="UTF-8"><title>Compraventa</title></head><body>
<h1>Contrato de compraventa</h1>
<p>Comprador: <span name="buyer_name">x</span>. Vendedor: <span name="seller_name">y</span>. Precio: <span name="price">0</span>.</p>
${'<p>Cláusula de ejemplo con texto suficiente para ocupar espacio en la página y obligar a partir el documento.</p>'.repeat(30)}
<p style="break-before:page">Firmado el <span name="signDate">[fecha]</span>.</p>
<div id="buyer"></div><div id="seller"></div>
</body></html>`;
