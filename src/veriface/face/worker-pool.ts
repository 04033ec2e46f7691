import { Worker } from 'node:worker_threads';
import { type DomainError, fail, failFor } from '../../domain-error.js';
import type { MatcherFlow, PhotoRole } from '../face-matcher.js';
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
  /** The line of the flow it came from. */
  flow: string;
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

/**
 * One flow's photos in the pool: waiting in the order they came, and held (waiting or in a
 * worker). `servedAt` is the pool's turn when one of its photos last went to a worker.
 */
interface FlowLine {
  jobs: Job[];
  held: number;
  servedAt: number;
}

/** Seconds a client is told to wait per photo queued for each worker (a photo takes about half a second). */
const SECONDS_PER_QUEUED_PHOTO = 1;

/** The photos of one comparison: the document's and the face's. */
const PHOTOS_PER_COMPARISON = 2;

const failed = () => fail('FACE_MATCHER_FAILED', 'the comparison could not be made, send the photo again');

/**
 * Worker threads that describe photos, started with the instance's background work or at the
 * first photo, and kept afterwards (a worker takes one to several seconds to load and warm its
 * model, a photo a few hundred milliseconds). Invariant: every accepted photo is
 * answered exactly once, with a description or an error, whatever happens to its worker; no
 * more than queueMax photos ever wait.
 *
 * Shared fairly between flows: each flow (a person's link, an organization's API calls) waits in
 * a line of its own, and a free worker takes the next photo of the line served longest ago (a new
 * line first). So while a flow has a photo waiting, every other flow gets at most one photo into
 * a worker before it: one link holder sending photos without pause delays another person's
 * comparison by at most one comparison of theirs. A person's link holds at most one comparison's
 * photos in the pool, an organization one comparison per worker and half the queue; more is refused at once
 * (429 FACE_COMPARISON_UNDER_WAY), so no flow can fill the queue that others need room in.
 */
export class FaceWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly lines = new Map<string, FlowLine>();
  private turn = 0;
  private nextId = 1;
  private closed = false;
  /** Who waits for every worker startWorkers() began to have loaded its model. */
  private loading: { resolve(): void; reject(error: Error): void }[] = [];

  constructor(private readonly options: FaceWorkerPoolOptions) {}

  /**
   * Why `count` more photos of `flow` cannot be accepted now, or undefined when they can: the
   * flow's own share (one comparison for a person; for an organization see organizationShare), then one
   * photo per worker not busy (started or still to start) and queueMax more waiting. Checked
   * before a comparison sends its first photo, so that its photos are accepted together.
   */
  refusalFor(count: number, flow: MatcherFlow): DomainError | undefined {
    const held = this.lines.get(lineOf(flow))?.held ?? 0;
    const share = flow.kind === 'person' ? PHOTOS_PER_COMPARISON : this.organizationShare();
    if (held + count > share) {
      const seconds = Math.max(1, held * SECONDS_PER_QUEUED_PHOTO);
      const whose = flow.kind === 'person' ? 'this link' : 'this organization';
      return failFor('FACE_COMPARISON_UNDER_WAY', seconds, `a comparison of ${whose} is under way; wait for its answer, then try again in ${seconds} s`);
    }
    const busy = this.slots.filter((s) => s.job).length;
    if (this.queued() + count <= this.options.queueMax + this.options.size - busy) return undefined;
    const seconds = Math.max(1, Math.ceil((this.queued() * SECONDS_PER_QUEUED_PHOTO) / this.options.size));
    return failFor('FACE_MATCHER_BUSY', seconds, `too many photos are being compared, try again in ${seconds} s`);
  }

  /**
   * An organization's API calls come from its backend, often several at once: one comparison per
   * worker, and half the queue's room on top, so a burst waits its turn rather than being refused,
   * while the other half stays for everybody else (the lines keep the turns fair either way).
   */
  private organizationShare(): number {
    const queued = Math.floor(this.options.queueMax / 2 / PHOTOS_PER_COMPARISON) * PHOTOS_PER_COMPARISON;
    return PHOTOS_PER_COMPARISON * this.options.size + queued;
  }

  describe(role: PhotoRole, photo: Uint8Array, flow: MatcherFlow): Promise<Described> {
    if (this.closed) return Promise.reject(failed());
    const refusal = this.refusalFor(1, flow);
    if (refusal) return Promise.reject(refusal);
    return new Promise<Described>((resolve, reject) => {
      const key = lineOf(flow);
      const line = this.lines.get(key) ?? { jobs: [], held: 0, servedAt: 0 };
      this.lines.set(key, line);
      line.jobs.push({ id: this.nextId++, flow: key, role, photo, resolve, reject });
      line.held++;
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
    return { workers: this.slots.length, queued: this.queued(), busy: this.slots.filter((s) => s.job).length };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failWaiting();
    this.settleLoading(new Error('the face workers were closed before they loaded'));
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot)));
  }

  private queued(): number {
    let count = 0;
    for (const line of this.lines.values()) count += line.jobs.length;
    return count;
  }

  /** The next photo to describe: the first of the line served longest ago (a new line has never been). */
  private next(): Job | undefined {
    let chosen: FlowLine | undefined;
    for (const line of this.lines.values()) if (line.jobs.length > 0 && (!chosen || line.servedAt < chosen.servedAt)) chosen = line;
    if (!chosen) return undefined;
    chosen.servedAt = ++this.turn;
    return chosen.jobs.shift();
  }

  /** A photo answered: its flow holds one less, and a line holding none is forgotten. */
  private release(job: Job): void {
    const line = this.lines.get(job.flow);
    if (!line) return;
    line.held--;
    if (line.held <= 0) this.lines.delete(job.flow);
  }

  private failWaiting(): void {
    for (const line of [...this.lines.values()]) for (const job of line.jobs.splice(0)) this.answer(job, failed());
  }

  private answer(job: Job, outcome: Described | Error): void {
    this.release(job);
    if (outcome instanceof Error) job.reject(outcome);
    else job.resolve(outcome);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job) continue;
      const job = this.next();
      if (!job) return;
      this.start(slot, job);
    }
    // Start workers only while photos wait for one that is not already starting.
    const starting = this.slots.filter((s) => !s.ready).length;
    const waiting = this.queued();
    for (let i = starting; i < waiting && this.slots.length < this.options.size; i++) this.spawn();
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
        this.answer(job, message.kind === 'described' ? message.described : failed());
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
    if (job) this.answer(job, failed());
    if (!slot.ready) this.settleLoading(new Error(`a face worker stopped before it loaded its model: ${error}`));
    // Workers that cannot even start (a broken install) must not be respawned for ever by the
    // photos waiting for them: once none is left, those photos are answered with the same error.
    if (!slot.ready && this.slots.length === 0) this.failWaiting();
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

/** The line a flow's photos wait in: kinds apart, so that no id of one kind can share another's. */
function lineOf(flow: MatcherFlow): string {
  return `${flow.kind}:${flow.id}`;
}
