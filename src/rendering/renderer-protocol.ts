import { isRecord } from '../is-record.js';
import { isPageLayout, type PageLayout } from './page-layout.js';
import type { RendererStatus } from './renderer.js';

/** What the service's thread asks the renderer's thread (src/rendering/renderer-thread.ts). */
export type RendererRequest =
  | { id: number; kind: 'render'; html: string; layout?: PageLayout }
  | { id: number; kind: 'selfTest' }
  | { id: number; kind: 'close' };

/** What the renderer's thread answers: every answer carries the renderer's status after it. */
export type RendererReply =
  | { id: number; kind: 'done'; status: RendererStatus; pdf?: Uint8Array }
  | { id: number; kind: 'failed'; status: RendererStatus; error: string }
  | { kind: 'warn'; details: object; message: string };

export interface RendererThreadOptions {
  /** CHROMIUM_PATH, or undefined for the bundled Chromium. */
  chromiumPath: string | undefined;
  concurrency: number;
  engine: string;
}

function isStatus(value: unknown): value is RendererStatus {
  return (
    isRecord(value) && typeof value.engine === 'string' && typeof value.running === 'boolean' && (value.selfTest === 'not run' || isRecord(value.selfTest))
  );
}

export function parseRendererReply(value: unknown): RendererReply | undefined {
  if (!isRecord(value)) return undefined;
  if (value.kind === 'warn' && isRecord(value.details) && typeof value.message === 'string')
    return { kind: 'warn', details: value.details, message: value.message };
  if (typeof value.id !== 'number' || !isStatus(value.status)) return undefined;
  if (value.kind === 'done') return { id: value.id, kind: 'done', status: value.status, ...(value.pdf instanceof Uint8Array ? { pdf: value.pdf } : {}) };
  if (value.kind === 'failed' && typeof value.error === 'string') return { id: value.id, kind: 'failed', status: value.status, error: value.error };
  return undefined;
}

export function parseRendererRequest(value: unknown): RendererRequest | undefined {
  if (!isRecord(value) || typeof value.id !== 'number') return undefined;
  if (value.kind === 'render' && typeof value.html === 'string') {
    if (value.layout === undefined) return { id: value.id, kind: 'render', html: value.html };
    return isPageLayout(value.layout) ? { id: value.id, kind: 'render', html: value.html, layout: value.layout } : undefined;
  }
  if (value.kind === 'selfTest' || value.kind === 'close') return { id: value.id, kind: value.kind };
  return undefined;
}

export function isRendererThreadOptions(value: unknown): value is RendererThreadOptions {
  return (
    isRecord(value) &&
    (value.chromiumPath === undefined || typeof value.chromiumPath === 'string') &&
    typeof value.concurrency === 'number' &&
    typeof value.engine === 'string'
  );
}
