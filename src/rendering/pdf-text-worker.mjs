// Reads the text of the PDF it is given, page after page, and posts it back: see pdfText in
// self-test.ts for why this runs in a thread of its own. Plain JavaScript, as it needs no loader.
import { parentPort, workerData } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const document = await getDocument({ data: workerData, useSystemFonts: false, isEvalSupported: false }).promise;
try {
  const pages = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  parentPort?.postMessage(pages.join('\n'));
} finally {
  await document.destroy();
}
