import { h } from './dom.js';
import { t } from './i18n.js';

export interface ViewerDocument {
  kind: 'document' | 'certificate';
  name: string;
  url: string;
  contentType: string;
}

interface PdfPage {
  getViewport(options: { scale: number }): { width: number; height: number };
  render(options: { canvasContext: CanvasRenderingContext2D; viewport: { width: number; height: number } }): { promise: Promise<void>; cancel(): void };
  cleanup(): void;
}
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
}
interface PdfModule {
  GlobalWorkerOptions: { workerSrc: string };
  getDocument(options: { url: string; isEvalSupported: boolean; withCredentials: boolean }): { promise: Promise<PdfDocument> };
}

const app = () => document.getElementById('app');

/** PDF.js (about 400 KB) is fetched the first time a PDF is opened, never with the page. */
async function loadPdfJs(): Promise<PdfModule> {
  const moduleUrl = app()?.dataset.pdf ?? '';
  const pdfjs = (await import(moduleUrl)) as PdfModule;
  pdfjs.GlobalWorkerOptions.workerSrc = app()?.dataset.pdfWorker ?? '';
  return pdfjs;
}

/**
 * Only the pages near the screen are drawn, and pages far from it give their canvas back, so a
 * hundred-page PDF opens on a phone without exhausting its memory.
 */
async function showPdf(holder: HTMLElement, url: string): Promise<void> {
  const pdfjs = await loadPdfJs();
  const pdf = await pdfjs.getDocument({ url, isEvalSupported: false, withCredentials: false }).promise;
  const first = await pdf.getPage(1);
  const width = Math.min(holder.clientWidth || 340, 900);
  const base = first.getViewport({ scale: 1 });
  const scale = width / base.width;
  const slots: HTMLElement[] = [];
  const drawn = new Map<number, { cancel(): void }>();
  for (let n = 1; n <= pdf.numPages; n++) {
    const slot = h('div', {
      class: 'pdf-page',
      role: 'img',
      'aria-label': t('pdfPage', { page: n, pages: pdf.numPages }),
      'data-page': n,
    });
    slot.style.height = `${Math.round(base.height * scale)}px`;
    slots.push(slot);
    holder.append(slot);
  }
  const draw = async (n: number, slot: HTMLElement) => {
    if (drawn.has(n)) return;
    const page = await pdf.getPage(n);
    const viewport = page.getViewport({ scale: scale * Math.min(window.devicePixelRatio || 1, 2) });
    const canvas = h('canvas', { width: Math.round(viewport.width), height: Math.round(viewport.height) });
    const context = canvas.getContext('2d');
    if (!context) return;
    const task = page.render({ canvasContext: context, viewport });
    drawn.set(n, task);
    slot.replaceChildren(canvas);
    await task.promise.catch(() => undefined);
  };
  const release = (n: number, slot: HTMLElement) => {
    drawn.get(n)?.cancel();
    drawn.delete(n);
    slot.replaceChildren();
  };
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const slot = entry.target as HTMLElement;
        const n = Number(slot.dataset.page);
        if (entry.isIntersecting) void draw(n, slot);
        else release(n, slot);
      }
    },
    { root: holder, rootMargin: '150% 0px' },
  );
  for (const slot of slots) observer.observe(slot);
}

/**
 * A document to read in the page: a PDF through PDF.js, a template document as its HTML in a frame
 * sandboxed without scripts (the service also serves it with a sandbox policy); always a download.
 */
export function documentEntry(document: ViewerDocument): HTMLElement {
  const name = document.kind === 'certificate' ? t('certificate') : document.name;
  const holder = h('div', { class: 'viewer', hidden: true, tabindex: 0, 'aria-label': name });
  const toggle = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false' }, t('read', { name }));
  let opened = false;
  toggle.addEventListener('click', async () => {
    const open = holder.hidden;
    holder.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = t(open ? 'hide' : 'read', { name });
    if (!open || opened) return;
    opened = true;
    if (document.contentType === 'application/pdf') {
      await showPdf(holder, document.url).catch(() => holder.replaceChildren(h('p', { class: 'error' }, t('pdfFailed'))));
    } else {
      holder.append(h('iframe', { src: document.url, sandbox: '', title: t('htmlFrame', { name }), class: 'html-document', referrerpolicy: 'no-referrer' }));
    }
  });
  const download = h('a', { href: document.url, download: '', class: 'button secondary', rel: 'noopener' }, t('download', { name }));
  return h('li', { class: 'document' }, h('div', { class: 'actions' }, toggle, download), holder);
}
