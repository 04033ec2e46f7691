import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import { CadesSigner } from './cades-signer.js';
import { IncrementalUpdate } from './incremental-update.js';
import { LevelUnreachable } from './level-unreachable.js';
import type { PadesLevel } from './pades-level.js';
import type { SigningIdentity } from './signing-identity.js';
import type { TimestampClient } from './timestamp-client.js';
import { addValidationData, type RevocationAnswers } from './validation-data.js';

/** What signs the instance's final documents: its identity, its timestamp authorities and the level it seals at unless an organization chose another. */
export interface DocumentSigner {
  identity: SigningIdentity;
  timestamps: TimestampClient | undefined;
  /** PADES_LEVEL. */
  defaultLevel: PadesLevel;
}

/** One seal's signatures: by whom, at which level, and the revocation answers its files share. */
export interface SignatureRequest {
  signer: DocumentSigner;
  level: PadesLevel;
  revocations: RevocationAnswers;
}

/** The signer @signpdf/signpdf calls for a document timestamp: the token over the bytes the ByteRange covers. */
class DocumentTimestamper extends Signer {
  constructor(private readonly timestamps: TimestampClient) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    return this.timestamps.timestamp(pdfBuffer);
  }
}

/** `pdf` with a document timestamp over all of it, in an incremental update (PAdES B-LTA). */
export async function addDocumentTimestamp(pdf: Buffer, timestamps: TimestampClient): Promise<Buffer> {
  const update = await IncrementalUpdate.open(pdf);
  if (!update) throw new Error('a signed PDF the seal wrote cannot be opened again');
  const earlier = pdf.toString('latin1').match(/\/DocTimeStamp\b/g)?.length ?? 0;
  update.addDocumentTimestampPlaceholder(`Archive timestamp ${earlier + 1}`);
  return new SignPdf().sign(await update.bytes(), new DocumentTimestamper(timestamps));
}

/**
 * Fills the one ByteRange and Contents placeholder of `pdf` with a CAdES detached signature at
 * the level asked for: B-B; B-T with a signature timestamp; B-LT with the validation data of its
 * certificates in a DSS after it; B-LTA with a document timestamp over that. A level that needs a
 * timestamp on an instance without an authority is LevelUnreachable, never a lower level.
 */
export async function fillSignature(pdf: Buffer, request: SignatureRequest): Promise<Buffer> {
  const { identity, timestamps } = request.signer;
  if (request.level === 'B-B') return new SignPdf().sign(pdf, new CadesSigner(identity));
  if (!timestamps) throw new LevelUnreachable(`PAdES ${request.level} needs a timestamp authority and this instance has none (set TSA_URLS)`);
  const signed = await new SignPdf().sign(pdf, new CadesSigner(identity, timestamps));
  if (request.level === 'B-T') return signed;
  const withValidationData = await addValidationData(signed, request.revocations);
  return request.level === 'B-LT' ? withValidationData : addDocumentTimestamp(withValidationData, timestamps);
}
