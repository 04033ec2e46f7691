import crypto from 'node:crypto';
import type { FaceComparison, FaceMatcher, MatcherFlow } from '../face-matcher.js';
import { compareDescriptors, type Described, livenessSignal } from './compare-faces.js';
import { FaceWorkerPool, type FaceWorkerPoolOptions } from './worker-pool.js';

/** Document portraits remembered by the SHA-256 of their photo (512 bytes each). */
const DOCUMENT_CACHE_ENTRIES = 1000;

export interface LocalMatcherOptions extends FaceWorkerPoolOptions {
  /** FACE_MATCH_THRESHOLD: the similarity from which a face matches. */
  threshold: number;
  /** LIVENESS_THRESHOLD: the liveness score below which a face photo is suspect. */
  livenessThreshold: number;
}

/**
 * FACE_MATCHER=local: face-api in worker threads on this machine, no photo leaves it, and the
 * face photo's liveness scored beside it. The
 * document's descriptor is kept by the photo's hash, so a retake of the face costs one photo, not
 * two; the two photos of a first comparison are described side by side when two workers are free.
 */
export class LocalFaceMatcher implements FaceMatcher {
  readonly pool: FaceWorkerPool;
  private readonly documents = new Map<string, Float32Array>();

  constructor(private readonly options: LocalMatcherOptions) {
    this.pool = new FaceWorkerPool(options);
  }

  async compare(input: { documentPhoto: Buffer; facePhoto: Buffer; flow: MatcherFlow }): Promise<FaceComparison> {
    const { flow } = input;
    const documentHash = crypto.createHash('sha256').update(input.documentPhoto).digest('hex');
    const known = this.documents.get(documentHash);
    // Both photos are accepted or neither: a comparison is never left half queued.
    const refusal = this.pool.refusalFor(known ? 1 : 2, flow);
    if (refusal) throw refusal;
    const document: Promise<Described> = known ? Promise.resolve({ descriptor: known }) : this.pool.describe('document', input.documentPhoto, flow);
    const face = this.pool.describe('face', input.facePhoto, flow);
    const [documentDescribed, faceDescribed] = await Promise.all([document, face]);
    if ('descriptor' in documentDescribed) this.remember(documentHash, documentDescribed.descriptor);
    if (!('descriptor' in documentDescribed)) return documentDescribed;
    if (!('descriptor' in faceDescribed)) return faceDescribed;
    const comparison = compareDescriptors(documentDescribed.descriptor, faceDescribed.descriptor, this.options.threshold);
    const { liveness } = faceDescribed;
    return liveness === undefined ? comparison : { ...comparison, liveness: livenessSignal(liveness, this.options.livenessThreshold) };
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private remember(hash: string, descriptor: Float32Array): void {
    // A Map keeps insertion order: deleting and setting again makes it the most recent.
    this.documents.delete(hash);
    this.documents.set(hash, descriptor);
    const oldest = this.documents.keys().next();
    if (this.documents.size > DOCUMENT_CACHE_ENTRIES && !oldest.done) this.documents.delete(oldest.value);
  }
}
