import type { ServiceContext } from '../../context.js';
import type { PdfTemplateRow } from '../../db/schema.js';
import { fail, invalid } from '../../domain-error.js';
import { readBlobBytes, writeBlobBytes } from '../../files/blob-bytes.js';
import { newObjectId } from '../../ids.js';
import { admitPdf } from '../creating/pdf-intake.js';
import { sha256 } from '../document-files.js';
import { placeSignatures } from '../placement/place-signatures.js';
import type { SignerInput } from '../schemas.js';
import { deletePdfTemplate, findPdfTemplate, insertPdfTemplate, listPdfTemplates } from './queries.js';
import { type CreatePdfTemplateInput, type StoredPositions, storedPositionsJoi } from './schemas.js';

const fileKey = (organizationId: string, id: string) => `pdf-templates/${organizationId}/${id}.pdf`;

function storedPositions(row: PdfTemplateRow): StoredPositions {
  const { value, error } = storedPositionsJoi.validate(JSON.parse(row.positions));
  if (error) throw new Error(`PDF template ${row.id}'s positions are not readable: ${error.message}`);
  return value;
}

function view(row: PdfTemplateRow) {
  return { id: row.id, name: row.name, sha256: row.sha256, positions: storedPositions(row), createdAt: row.created_at };
}

/**
 * Keeps an organization's PDF with the boxes of each signer type: the PDF passes the intake of
 * uploads, and every box is checked against its pages as a process's would be.
 */
export async function createPdfTemplate(ctx: ServiceContext, options: { organizationId: string; input: CreatePdfTemplateInput }): Promise<{ id: string }> {
  const { organizationId, input } = options;
  const bytes = Buffer.from(input.file, 'base64');
  if (bytes.length > ctx.uploadMaxBytes) throw fail('FILE_TOO_LARGE', `at most ${ctx.uploadMaxBytes} bytes`);
  const intake = await admitPdf(bytes);
  if (!intake.accepted) throw fail('FILE_NOT_VALID', intake.reason);
  await placeSignatures(
    intake.bytes,
    Object.entries(input.positions).map(([type, positions], participant) => ({ participant, tagIndex: participant, field: `positions.${type}`, positions })),
  );
  const now = ctx.clock.now();
  const id = newObjectId(now);
  const key = fileKey(organizationId, id);
  await writeBlobBytes(ctx.blobs, key, intake.bytes, 'application/pdf');
  await insertPdfTemplate(ctx.db, {
    id,
    organization_id: organizationId,
    name: input.name,
    file_key: key,
    sha256: sha256(intake.bytes),
    positions: JSON.stringify(input.positions),
    created_at: now.toISOString(),
  });
  return { id };
}

export async function readPdfTemplates(ctx: ServiceContext, options: { organizationId: string; id?: string }) {
  if (options.id === undefined) return { data: (await listPdfTemplates(ctx.db, options.organizationId)).map(view) };
  const row = await findPdfTemplate(ctx.db, options.organizationId, options.id);
  if (!row) throw fail('PDF_TEMPLATE_NOT_FOUND', { when: 'readingOne' });
  return view(row);
}

export async function removePdfTemplate(ctx: ServiceContext, options: { organizationId: string; id: string }): Promise<{ id: string; deleted: true }> {
  const row = await findPdfTemplate(ctx.db, options.organizationId, options.id);
  if (!row || (await deletePdfTemplate(ctx.db, options.organizationId, options.id)) === 0) throw fail('PDF_TEMPLATE_NOT_FOUND', { when: 'readingOne' });
  await ctx.blobs.delete([row.file_key]);
  return { id: row.id, deleted: true };
}

/**
 * The PDF of a template and, for each signer, the stored boxes of its `type` added to its own:
 * a type the template does not name is refused naming the field.
 */
export async function pdfFromTemplate(
  ctx: ServiceContext,
  options: { organizationId: string; id: string; signProfile: SignerInput[] },
): Promise<{ file: string; signProfile: SignerInput[] }> {
  const row = await findPdfTemplate(ctx.db, options.organizationId, options.id);
  const bytes = row && (await readBlobBytes(ctx.blobs, row.file_key));
  if (!row || !bytes) throw fail('PDF_TEMPLATE_NOT_FOUND', { when: 'elsewhere' });
  const positions = storedPositions(row);
  const signProfile = options.signProfile.map((signer, i) => {
    if (signer.type === undefined) return signer;
    const stored = positions[signer.type];
    if (!stored) throw invalid(`"signProfile[${i}].type" must be one of the PDF template's types [${Object.keys(positions).join(', ')}]`);
    return { ...signer, position: [...(signer.position ?? []), ...stored] };
  });
  return { file: bytes.toString('base64'), signProfile };
}

/** A creation's body with its PDF template (`document`), when it names one, in place as the file it is, its types as positions. */
export async function withTemplatePdf<T extends { document?: string | undefined; signProfile: SignerInput[] }>(
  ctx: ServiceContext,
  organizationId: string,
  body: T,
): Promise<T | (T & { file: string })> {
  if (body.document === undefined) return body;
  return { ...body, ...(await pdfFromTemplate(ctx, { organizationId, id: body.document, signProfile: body.signProfile })) };
}
