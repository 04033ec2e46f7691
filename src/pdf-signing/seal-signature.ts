import { SignPdf } from '@signpdf/signpdf';
import { CadesSigner } from './cades-signer.js';
import type { SigningIdentity } from './signing-identity.js';
import type { TimestampClient } from './timestamp-client.js';

/** What signs the instance's final documents: its identity and, for PAdES B-T, a timestamp authority. */
export interface DocumentSigner {
  identity: SigningIdentity;
  timestamps: TimestampClient | undefined;
}

/** Fills the one ByteRange and Contents placeholder of `pdf` with a CAdES detached signature. */
export async function fillSignature(pdf: Buffer, signer: DocumentSigner): Promise<Buffer> {
  return new SignPdf().sign(pdf, new CadesSigner(signer.identity, signer.timestamps));
}
