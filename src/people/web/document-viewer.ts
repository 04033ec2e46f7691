import type { SigningBox } from '../contract.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { pinchZoom, ZOOM_MAX, ZOOM_MIN, zoomControls } from './pdf-zoom.js';

export interface ViewerDocument {
  kind: 'document' | 'certificate';
  name: string;
  url: string;
  contentType: string;
  position?: number;
}

/** How the signing page shows a document while it is the person's turn. */
export interface ViewerOptions {
  /** Shown at once, not behind "Read …": the person reads before acting. */
  open?: boolean;
  /** The person's own boxes on this document, outlined on its pages. */
  boxes?: SigningBox[];
  /** Called once, when the document was first shown (or downloaded). */
  onOpened?(): void;
}

interface PdfViewport {
  width: number;
  height: number;
  convertToViewportRectangle(rect: number[]): number[];
}
interface PdfPage {
  getViewport(options: { scale: number }): PdfViewport;
  render(options: { canvasContext: CanvasRenderingContext2D; viewport: PdfViewport }): { promise: Promise<void>; cancel(): void };
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
 * A box as a share of its page, from the page's own viewport: PDF.js turns the box's points
 * (bottom-left origin) into the page as drawn, whatever its MediaBox offset.
 */
function boxArea(viewport: PdfViewport, box: SigningBox): { left: number; top: number; width: number; height: number } {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.convertToViewportRectangle([box.left, box.bottom, box.left + box.width, box.bottom + box.height]);
  const percent = (value: number, of: number) => (100 * value) / of;
  return {
    left: percent(Math.min(x1, x2), viewport.width),
    top: percent(Math.min(y1, y2), viewport.height),
    width: percent(Math.abs(x2 - x1), viewport.width),
    height: percent(Math.abs(y2 - y1), viewport.height),
  };
}

function signHereMark(viewport: PdfViewport, box: SigningBox): HTMLElement {
  const area = boxArea(viewport, box);
  const mark = h('div', { class: 'sign-here', 'data-sign-page': box.page }, h('span', {}, t('signHere')));
  mark.style.left = `${area.left}%`;
  mark.style.top = `${area.top}%`;
  mark.style.width = `${area.width}%`;
  mark.style.height = `${area.height}%`;
  return mark;
}

/**
 * Only the pages near the screen are drawn, and pages far from it give their canvas back, so a
 * hundred-page PDF opens on a phone without exhausting its memory. Pages are laid out at the
 * holder's width times the zoom; the person's boxes are outlined over them, placed as a share of
 * the page so they follow any zoom without being drawn again.
 */
async function showPdf(holder: HTMLElement, pages: HTMLElement, url: string, boxes: SigningBox[]): Promise<void> {
  const pdfjs = await loadPdfJs();
  const pdf = await pdfjs.getDocument({ url, isEvalSupported: false, withCredentials: false }).promise;
  const fitWidth = () => Math.min(pages.clientWidth || holder.clientWidth || 340, 900);
  const sizes: { width: number; height: number }[] = [];
  const slots: HTMLElement[] = [];
  const marks = new Map<number, HTMLElement[]>();
  const first = (await pdf.getPage(1)).getViewport({ scale: 1 });
  for (let n = 1; n <= pdf.numPages; n++) {
    // Only the first page and the pages with a box are read before drawing: the rest take the first's size.
    const viewport = n === 1 || !boxes.some((box) => box.page === n) ? first : (await pdf.getPage(n)).getViewport({ scale: 1 });
    sizes.push({ width: viewport.width, height: viewport.height });
    const own = boxes.filter((box) => box.page === n).map((box) => signHereMark(viewport, box));
    marks.set(n, own);
    const label = own.length > 0 ? t('pageSignHere', { page: n, pages: pdf.numPages }) : t('pdfPage', { page: n, pages: pdf.numPages });
    const slot = h('div', { class: 'pdf-page', role: 'img', 'aria-label': label, 'data-page': n }, ...own);
    slots.push(slot);
    pages.append(slot);
  }
  let zoom = 1;
  const drawn = new Map<number, { cancel(): void }>();
  const layout = () => {
    const width = fitWidth() * zoom;
    slots.forEach((slot, i) => {
      const size = sizes[i] ?? { width: 1, height: 1 };
      slot.style.width = `${Math.round(width)}px`;
      slot.style.height = `${Math.round((width * size.height) / size.width)}px`;
    });
  };
  const draw = async (n: number, slot: HTMLElement) => {
    if (drawn.has(n)) return;
    const page = await pdf.getPage(n);
    const size = sizes[n - 1] ?? { width: 1, height: 1 };
    const scale = ((fitWidth() * zoom) / size.width) * Math.min(window.devicePixelRatio || 1, 2);
    const viewport = page.getViewport({ scale });
    const canvas = h('canvas', { width: Math.round(viewport.width), height: Math.round(viewport.height) });
    const context = canvas.getContext('2d');
    if (!context) return;
    const task = page.render({ canvasContext: context, viewport });
    drawn.set(n, task);
    slot.replaceChildren(canvas, ...(marks.get(n) ?? []));
    await task.promise.catch(() => undefined);
  };
  const release = (n: number, slot: HTMLElement) => {
    drawn.get(n)?.cancel();
    drawn.delete(n);
    slot.replaceChildren(...(marks.get(n) ?? []));
  };
  const visible = new Set<number>();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const slot = entry.target as HTMLElement;
        const n = Number(slot.dataset.page);
        if (entry.isIntersecting) {
          visible.add(n);
          void draw(n, slot);
        } else {
          visible.delete(n);
          release(n, slot);
        }
      }
    },
    { root: pages, rootMargin: '150% 0px' },
  );
  // A new zoom stretches the drawn canvases at once; they are drawn again, sharp, once it settles.
  let settle: ReturnType<typeof setTimeout> | undefined;
  const zoomTo = (next: number) => {
    zoom = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, next));
    layout();
    controls.show(zoom);
    clearTimeout(settle);
    settle = setTimeout(() => {
      for (const n of [...drawn.keys()]) {
        const slot = slots[n - 1];
        if (!slot) continue;
        release(n, slot);
        if (visible.has(n)) void draw(n, slot);
      }
    }, 250);
  };
  const controls = zoomControls(() => zoom, zoomTo);
  holder.prepend(controls.element);
  pinchZoom(pages, () => zoom, zoomTo);
  layout();
  for (const slot of slots) observer.observe(slot);
}

/**
 * A document to read in the page: a PDF through PDF.js, a template document as its HTML in a frame
 * sandboxed without scripts (the service also serves it with a sandbox policy); always a download.
 * While it is the person's turn it is shown at once, with their boxes outlined.
 */
export function documentEntry(document: ViewerDocument, options: ViewerOptions = {}): HTMLElement {
  const name = document.kind === 'certificate' ? t('certificate') : document.name;
  const pages = h('div', { class: 'pdf-pages', role: 'region', tabindex: 0, 'aria-label': name });
  const holder = h('div', { class: 'viewer', hidden: true }, pages);
  let opened = false;
  const opening = () => {
    if (opened) return;
    opened = true;
    options.onOpened?.();
  };
  const show = async () => {
    if (holder.dataset.shown) return;
    holder.dataset.shown = 'true';
    if (document.contentType === 'application/pdf') {
      await showPdf(holder, pages, document.url, options.boxes ?? [])
        .then(opening)
        .catch(() => pages.replaceChildren(h('p', { class: 'error' }, t('pdfFailed'))));
    } else {
      const frame = h('iframe', { src: document.url, sandbox: '', title: t('htmlFrame', { name }), class: 'html-document', referrerpolicy: 'no-referrer' });
      frame.addEventListener('load', opening, { once: true });
      pages.append(frame);
    }
  };
  const download = h('a', { href: document.url, download: '', class: 'button secondary', rel: 'noopener' }, t('download', { name }));
  download.addEventListener('click', opening);
  if (options.open) {
    holder.hidden = false;
    void show();
    return h('li', { class: 'document open' }, h('h3', {}, name), holder, h('div', { class: 'actions' }, download));
  }
  const toggle = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false' }, t('read', { name }));
  toggle.addEventListener('click', () => {
    const open = holder.hidden;
    holder.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    toggle.textContent = t(open ? 'hide' : 'read', { name });
    if (open) void show();
  });
  return h('li', { class: 'document' }, h('div', { class: 'actions' }, toggle, download), holder);
}
