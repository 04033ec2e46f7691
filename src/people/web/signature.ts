import SignaturePad from 'signature_pad';
import type { SignatureKind } from '../contract.js';
import { h } from './dom.js';
import { t } from './i18n.js';

export interface SignatureInput {
  element: HTMLElement;
  /** The signature as a PNG and how it was made, or undefined when nothing was drawn or typed. */
  image(): Promise<{ png: Blob; kind: SignatureKind } | undefined>;
}

function canvasPng(canvas: HTMLCanvasElement): Promise<Blob | undefined> {
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob ?? undefined), 'image/png'));
}

/** The typed name drawn as a signature, on a transparent background like a drawn one. */
function typedSignature(name: string): Promise<Blob | undefined> {
  const canvas = h('canvas', { width: 600, height: 200 });
  const context = canvas.getContext('2d');
  if (!context) return Promise.resolve(undefined);
  let size = 72;
  context.font = `italic ${size}px "Segoe Script", "Brush Script MT", "Apple Chancery", cursive`;
  while (context.measureText(name).width > canvas.width - 40 && size > 20) {
    size -= 4;
    context.font = `italic ${size}px "Segoe Script", "Brush Script MT", "Apple Chancery", cursive`;
  }
  context.fillStyle = '#10243e';
  context.textBaseline = 'middle';
  context.fillText(name, 20, canvas.height / 2);
  return canvasPng(canvas);
}

/**
 * Draw the signature (signature_pad: finger, pen or mouse) or type the name, in two tabs a
 * keyboard can reach; the typed name is the way for anyone who cannot draw. Only the `kinds` the
 * participant's template allows are offered: one alone is shown without tabs.
 */
export function signatureInput(defaultName: string, kinds: readonly SignatureKind[]): SignatureInput {
  const canvas = h('canvas', { class: 'signature-pad', role: 'img', 'aria-label': t('drawArea') });
  const pad = new SignaturePad(canvas, { penColor: '#10243e', minWidth: 1, maxWidth: 2.8 });
  const resize = () => {
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    const width = canvas.offsetWidth || 320;
    canvas.width = width * ratio;
    canvas.height = 180 * ratio;
    canvas.getContext('2d')?.scale(ratio, ratio);
    pad.clear();
  };
  const clear = h('button', { type: 'button', class: 'secondary small' }, t('clear'));
  clear.addEventListener('click', () => pad.clear());
  const typed = h('input', { type: 'text', id: 'typed-signature', value: defaultName, autocomplete: 'name', maxlength: 80 });
  const preview = h('p', { class: 'typed-preview', 'aria-hidden': 'true' }, defaultName);
  typed.addEventListener('input', () => {
    preview.textContent = typed.value;
  });

  const drawPanel = h('div', { id: 'panel-draw', role: 'tabpanel', 'aria-labelledby': 'tab-draw' }, h('p', {}, t('drawHelp')), canvas, clear);
  const typePanel = h(
    'div',
    { id: 'panel-type', role: 'tabpanel', 'aria-labelledby': 'tab-type', hidden: true },
    h('label', { for: typed.id }, t('typeLabel')),
    typed,
    preview,
  );
  const drawTab = h('button', { type: 'button', role: 'tab', id: 'tab-draw', 'aria-controls': 'panel-draw', 'aria-selected': 'true' }, t('drawTab'));
  const typeTab = h(
    'button',
    { type: 'button', role: 'tab', id: 'tab-type', 'aria-controls': 'panel-type', 'aria-selected': 'false', tabindex: -1 },
    t('typeTab'),
  );
  let mode: 'draw' | 'type' = 'draw';
  const select = (next: 'draw' | 'type') => {
    mode = next;
    drawTab.setAttribute('aria-selected', String(next === 'draw'));
    typeTab.setAttribute('aria-selected', String(next === 'type'));
    drawTab.tabIndex = next === 'draw' ? 0 : -1;
    typeTab.tabIndex = next === 'type' ? 0 : -1;
    drawPanel.hidden = next !== 'draw';
    typePanel.hidden = next !== 'type';
    if (next === 'draw') resize();
  };
  drawTab.addEventListener('click', () => select('draw'));
  typeTab.addEventListener('click', () => select('type'));
  // Arrow keys move between tabs, as the ARIA tabs pattern expects.
  for (const tab of [drawTab, typeTab]) {
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      const next = mode === 'draw' ? 'type' : 'draw';
      select(next);
      (next === 'draw' ? drawTab : typeTab).focus();
    });
  }
  const both = kinds.includes('draw') && kinds.includes('font');
  const element = both
    ? h('div', { class: 'signature' }, h('div', { role: 'tablist', class: 'tabs' }, drawTab, typeTab), drawPanel, typePanel)
    : h('div', { class: 'signature' }, kinds.includes('draw') ? drawPanel : typePanel);
  if (!both) {
    // A panel alone is no tab panel; the typed one is shown.
    for (const panel of [drawPanel, typePanel]) for (const name of ['role', 'aria-labelledby']) panel.removeAttribute(name);
    if (!kinds.includes('draw')) select('type');
  }
  // Sized once it is on screen: a canvas measured while detached has no width.
  requestAnimationFrame(resize);
  const drawn = async (): Promise<{ png: Blob; kind: SignatureKind } | undefined> => {
    const png = pad.isEmpty() ? undefined : await canvasPng(canvas);
    return png && { png, kind: 'draw' };
  };
  const written = async (): Promise<{ png: Blob; kind: SignatureKind } | undefined> => {
    const name = typed.value.trim();
    const png = name === '' ? undefined : await typedSignature(name);
    return png && { png, kind: 'font' };
  };
  return {
    element,
    image: () => (mode === 'draw' ? drawn() : written()),
  };
}
