import { h } from './dom.js';
import { t } from './i18n.js';

/** From half the screen's width to four times it: past that a phone draws canvases too large. */
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 4;
const STEP = 1.25;

/** The viewer's zoom buttons (out, fit to width, in) and the level they announce. */
export function zoomControls(current: () => number, zoomTo: (zoom: number) => void): { element: HTMLElement; show(zoom: number): void } {
  const level = h('span', { class: 'zoom-level', 'aria-live': 'polite' });
  const out = h('button', { type: 'button', class: 'secondary small', 'aria-label': t('zoomOut') }, '−');
  const fit = h('button', { type: 'button', class: 'secondary small' }, t('zoomFit'));
  const zoomIn = h('button', { type: 'button', class: 'secondary small', 'aria-label': t('zoomIn') }, '+');
  out.addEventListener('click', () => zoomTo(current() / STEP));
  fit.addEventListener('click', () => zoomTo(1));
  zoomIn.addEventListener('click', () => zoomTo(current() * STEP));
  const show = (zoom: number) => {
    level.textContent = t('zoomLevel', { percent: Math.round(zoom * 100) });
    out.disabled = zoom <= ZOOM_MIN;
    zoomIn.disabled = zoom >= ZOOM_MAX;
  };
  show(current());
  return { element: h('div', { class: 'zoom' }, out, fit, zoomIn, level), show };
}

/**
 * Two fingers on the pages zoom them (the browser's own pinch would zoom the whole page, bar
 * included, so the pages take the gesture: `touch-action: pan-x pan-y` in the styles).
 */
export function pinchZoom(surface: HTMLElement, current: () => number, zoomTo: (zoom: number) => void): void {
  const touches = new Map<number, { x: number; y: number }>();
  let start: { distance: number; zoom: number } | undefined;
  const spread = () => {
    const [a, b] = [...touches.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  surface.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch') return;
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (touches.size === 2) start = { distance: spread(), zoom: current() };
  });
  surface.addEventListener('pointermove', (event) => {
    if (!touches.has(event.pointerId)) return;
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (start && start.distance > 0 && touches.size === 2) zoomTo((start.zoom * spread()) / start.distance);
  });
  const lift = (event: PointerEvent) => {
    touches.delete(event.pointerId);
    if (touches.size < 2) start = undefined;
  };
  surface.addEventListener('pointerup', lift);
  surface.addEventListener('pointercancel', lift);
}
