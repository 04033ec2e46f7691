import { type PhotoRole, UNUSABLE_PHOTO_REASONS, type UnusablePhotoReason } from '../face-matcher.js';
import type { Described } from './compare-faces.js';

/** One photo to describe, sent to a worker thread (its bytes transferred, not copied). */
export interface DescribeRequest {
  id: number;
  role: PhotoRole;
  photo: Uint8Array;
}

export type WorkerMessage =
  | { kind: 'ready'; loadMs: number }
  | { kind: 'described'; id: number; described: Described }
  | { kind: 'failed'; id: number; error: string };

function isReason(value: unknown): value is UnusablePhotoReason {
  return typeof value === 'string' && (UNUSABLE_PHOTO_REASONS as readonly string[]).includes(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function describedOf(value: unknown): Described | undefined {
  if (!isRecord(value)) return undefined;
  if (value.descriptor instanceof Float32Array) {
    const { liveness } = value;
    return typeof liveness === 'number' && liveness >= 0 && liveness <= 1 ? { descriptor: value.descriptor, liveness } : { descriptor: value.descriptor };
  }
  if (isReason(value.unusable) && (value.photo === 'face' || value.photo === 'document')) return { unusable: value.unusable, photo: value.photo };
  return undefined;
}

/** What a worker posted, checked field by field: the thread boundary is a boundary like any other. */
export function parseWorkerMessage(value: unknown): WorkerMessage | undefined {
  if (!isRecord(value)) return undefined;
  if (value.kind === 'ready' && typeof value.loadMs === 'number') return { kind: 'ready', loadMs: value.loadMs };
  if (typeof value.id !== 'number') return undefined;
  if (value.kind === 'failed' && typeof value.error === 'string') return { kind: 'failed', id: value.id, error: value.error };
  const described = value.kind === 'described' ? describedOf(value.described) : undefined;
  return described ? { kind: 'described', id: value.id, described } : undefined;
}

export function parseDescribeRequest(value: unknown): DescribeRequest | undefined {
  if (!isRecord(value) || typeof value.id !== 'number' || !(value.photo instanceof Uint8Array)) return undefined;
  if (value.role !== 'face' && value.role !== 'document') return undefined;
  return { id: value.id, role: value.role, photo: value.photo };
}
