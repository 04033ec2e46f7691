import fs from 'node:fs';
import { bundledChromium } from './src/rendering/bundled-chromium.js';
import { ChromiumRenderer } from './src/rendering/chromium-renderer.js';
const which = process.argv[2];
const r = new ChromiumRenderer(which === 'debian' ? async () => ({ executablePath: '/usr/bin/chromium', args: [], env: {} }) : bundledChromium, { concurrency: 2, engine: which ?? 'bundled' });
let t = Date.now();
const a = await r.render('<html><body><p>Hola señor Ñandú</p><img src="https://example.com/x.png"><img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="></body></html>', { footer: '<div style="font-size:8px;width:100%;text-align:center">Código ABC <span class="pageNumber"></span>/<span class="totalPages"></span></div>' });
console.log('first', Date.now() - t, a.length);
for (let i = 0; i < 3; i++) { t = Date.now(); await r.render('<p>two</p><p style="page-break-before:always">pages</p>'); console.log('warm', Date.now() - t); }
fs.writeFileSync('/tmp/pdfh/r.pdf', a);
await r.close();
