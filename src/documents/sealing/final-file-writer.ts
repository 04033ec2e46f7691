import { writeBlobBytes } from '../../files/blob-bytes.js';
import { contentTypeOf } from '../../files/blob-store.js';
import type { Claim } from '../../outbox/claim.js';
import type { SealContext } from './seal-job.js';

/** The seal's job was claimed again by another run (its lease ran out): this run writes nothing more. */
export class ClaimLostError extends Error {
  constructor() {
    super('the seal job was claimed by another run');
  }
}

/**
 * Writes the final files of one seal run, one after the other while the run makes the next, each
 * only once the run's claim on its job is renewed: a run whose lease ran out (a paused instance)
 * stops at its next write. A check cannot stop a write already under way (a very slow store call
 * that lands later), which is why each run writes under keys of its own that only its mark can
 * record; a run that does not record removes what it wrote.
 */
export class FinalFileWriter {
  private readonly attempted: string[] = [];
  private last: Promise<void> = Promise.resolve();
  private failed = false;

  /** Without a claim (a seal run by hand or in a test) there is no lease to lose. */
  constructor(
    private readonly ctx: SealContext,
    private readonly claim: Claim | undefined,
  ) {}

  /** Settles once the file is stored; fails with ClaimLostError, without writing, if the claim is lost. */
  write(key: string, bytes: Buffer): Promise<void> {
    const written = this.last.then(async () => {
      if (this.claim && !(await this.claim.renew())) throw new ClaimLostError();
      // Counted before the store call: a write cut off may still land.
      this.attempted.push(key);
      await writeBlobBytes(this.ctx.blobs, key, bytes, contentTypeOf(key));
    });
    written.catch(() => {
      this.failed = true;
    });
    this.last = written;
    return written;
  }

  /** Whether a write failed, so nothing more of this run can be recorded. */
  get stopped(): boolean {
    return this.failed;
  }

  /**
   * Removes every file this run wrote, once its writes have settled; for a run known not to have
   * recorded them. Best effort: a file left behind was never recorded, so never handed out.
   */
  async removeWritten(): Promise<void> {
    await this.last.catch(() => undefined);
    await this.ctx.blobs.delete(this.attempted).catch(() => undefined);
  }
}
