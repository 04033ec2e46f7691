// Reads the text of the PDF it is given, page after page, and posts back each page's size and text
// runs (with where each is drawn): see pdfTextRuns in self-test.ts for why this runs in a thread of
// its own. Plain JavaScript, as it needs no loader.
import { parentPort, workerData } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const document = await getDocument({ data: workerData, useSystemFonts: false, isEvalSupported: false }).promise;
try {
  const pages = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    const runs = content.items.flatMap((item) => ('str' in item ? [{ text: item.str, transform: item.transform, width: item.width, height: item.height }] : []));
    pages.push(runs);
  }
  parentPort?.postMessage(pages);
} finally {
  await document.destroy();
}
