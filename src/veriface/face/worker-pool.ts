import { Worker } from 'node:worker_threads';
import { type DomainError, fail, failFor } from '../../domain-error.js';
import type { PhotoRole } from '../face-matcher.js';
import type { Described } from './compare-faces.js';
import { parseWorkerMessage } from './worker-protocol.js';

export interface FaceWorkerPoolOptions {
  /** Worker threads at most, each with its own copy of the model. */
  size: number;
  /** Photos that may wait for a worker; one more is refused with 503 rather than kept waiting. */
  queueMax: number;
  /** A photo longer than this in a worker is given up and its worker replaced. */
  jobTimeoutMs: number;
  /** Told when a worker starts (its model load time) or dies: for logs and the bench. */
  onWorkerEvent?: (event: { kind: 'ready'; loadMs: number } | { kind: 'died'; error: string }) => void;
}

interface Job {
  id: number;
  role: PhotoRole;
  photo: Uint8Array;
  resolve(described: Described): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

/** Seconds a client is told to wait per photo queued for each worker (a photo takes about half a second). */
const SECONDS_PER_QUEUED_PHOTO = 1;

const failed = () => fail('FACE_MATCHER_FAILED', 'the comparison could not be made, send the photo again');

/**
 * Worker threads that describe photos, started with the instance's background work or at the
 * first photo, and kept afterwards (a worker takes one to several seconds to load and warm its
 * model, a photo a few hundred milliseconds). Invariant: every accepted photo is
 * answered exactly once, with a description or an error, whatever happens to its worker; no
 * more than queueMax photos ever wait.
 */
export class FaceWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Who waits for every worker startWorkers() began to have loaded its model. */
  private loading: { resolve(): void; reject(error: Error): void }[] = [];

  constructor(private readonly options: FaceWorkerPoolOptions) {}

  /**
   * Whether `count` more photos can be accepted now: one per worker not busy (started or still
   * to start) and queueMax more waiting; checked before a comparison sends its first photo.
   */
  hasRoomFor(count: number): boolean {
    const busy = this.slots.filter((s) => s.job).length;
    return this.queue.length + count <= this.options.queueMax + this.options.size - busy;
  }

  busyError(): DomainError {
    const seconds = Math.max(1, Math.ceil((this.queue.length * SECONDS_PER_QUEUED_PHOTO) / this.options.size));
    return failFor('FACE_MATCHER_BUSY', seconds, `too many photos are being compared, try again in ${seconds} s`);
  }

  describe(role: PhotoRole, photo: Uint8Array): Promise<Described> {
    if (this.closed) return Promise.reject(failed());
    if (!this.hasRoomFor(1)) return Promise.reject(this.busyError());
    return new Promise<Described>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, role, photo, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Starts every worker now rather than at the first photo: what a serving instance does. Resolves
   * once all have loaded their model (what /health waits for), rejects if one dies before it has.
   */
  startWorkers(): Promise<void> {
    while (!this.closed && this.slots.length < this.options.size) this.spawn();
    return new Promise((resolve, reject) => {
      this.loading.push({ resolve, reject });
      this.settleLoading();
    });
  }

  /** Statistics for the bench and for tests: threads started and photos waiting. */
  get state(): { workers: number; queued: number; busy: number } {
    return { workers: this.slots.length, queued: this.queue.length, busy: this.slots.filter((s) => s.job).length };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(failed());
    this.settleLoading(new Error('the face workers were closed before they loaded'));
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot)));
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job) continue;
      const job = this.queue.shift();
      if (!job) return;
      this.start(slot, job);
    }
    // Start workers only while photos wait for one that is not already starting.
    const starting = this.slots.filter((s) => !s.ready).length;
    for (let i = starting; i < this.queue.length && this.slots.length < this.options.size; i++) this.spawn();
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => this.fail(slot, 'the photo took too long'), this.options.jobTimeoutMs);
    const photo = new Uint8Array(job.photo);
    slot.worker.postMessage({ id: job.id, role: job.role, photo }, [photo.buffer]);
  }

  private spawn(): void {
    const worker = new Worker(new URL('./matcher-worker.mjs', import.meta.url));
    const slot: Slot = { worker, ready: false, job: undefined, timer: undefined };
    this.slots.push(slot);
    worker.on('message', (value: unknown) => {
      const message = parseWorkerMessage(value);
      if (!message) return;
      if (message.kind === 'ready') {
        slot.ready = true;
        this.options.onWorkerEvent?.(message);
        this.settleLoading();
      } else if (slot.job && slot.job.id === message.id) {
        const job = slot.job;
        this.finish(slot);
        if (message.kind === 'described') job.resolve(message.described);
        else job.reject(failed());
      }
      this.dispatch();
    });
    worker.on('error', (error) => this.fail(slot, error.message));
    worker.on('exit', (code) => this.fail(slot, `exited with code ${code}`));
  }

  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  /** A worker that died, failed to start or hung: its photo is answered with an error and it is replaced when photos wait. */
  private fail(slot: Slot, error: string): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const job = slot.job;
    this.finish(slot);
    void this.stop(slot);
    this.options.onWorkerEvent?.({ kind: 'died', error });
    job?.reject(failed());
    if (!slot.ready) this.settleLoading(new Error(`a face worker stopped before it loaded its model: ${error}`));
    // Workers that cannot even start (a broken install) must not be respawned for ever by the
    // photos waiting for them: once none is left, those photos are answered with the same error.
    if (!slot.ready && this.slots.length === 0) for (const waiting of this.queue.splice(0)) waiting.reject(failed());
    if (!this.closed) this.dispatch();
  }

  private settleLoading(error?: Error): void {
    if (error) {
      for (const waiting of this.loading.splice(0)) waiting.reject(error);
    } else if (this.slots.length >= this.options.size && this.slots.every((s) => s.ready)) {
      for (const waiting of this.loading.splice(0)) waiting.resolve();
    }
  }

  private async stop(slot: Slot): Promise<void> {
    slot.worker.removeAllListeners();
    // An 'error' after removal would otherwise be thrown as an uncaught exception.
    slot.worker.on('error', () => undefined);
    await slot.worker.terminate();
  }
}
