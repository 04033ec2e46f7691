import { invalid } from '../../domain-error.js';
import { signerPlacements } from '../placement/place-signatures.js';
import type { PackageInput, SaveFromTemplateInput, SignerInput, UploadPdfInput } from '../schemas.js';
import type { DocumentDraft, ProcessDraft } from './create-process.js';

/** A document filled from a template places its signatures through the template (`sign-margin`), not on pages. */
function refusePlacement(signProfile: SignerInput[], field: (index: number) => string): void {
  for (const [i, signer] of signProfile.entries()) {
    const key = signer.position ? 'position' : signer.label ? 'label' : undefined;
    if (key) throw invalid(`"${field(i)}.${key}" places signatures on uploaded PDFs only; a template document places them where its HTML says`);
  }
}

/** POST /document/save: one document filled from a template. */
export function draftFromTemplate(input: SaveFromTemplateInput): ProcessDraft {
  refusePlacement(input.signProfile ?? [], (i) => `signProfile[${i}]`);
  return {
    kind: 'document',
    fields: input,
    documents: [{ source: 'template', templateId: input.document, data: input.data }],
    ...(input.signProfile ? { signers: input.signProfile } : {}),
  };
}

/** POST /document/upload: one PDF, inline or through the upload URL of the answer. */
export function draftFromPdf(input: UploadPdfInput): ProcessDraft {
  return {
    kind: 'document',
    fields: input,
    documents: [
      {
        source: 'pdf',
        name: input.name,
        ...(input.file === undefined ? {} : { file: input.file }),
        placements: signerPlacements(input.signProfile, { field: (i) => `signProfile[${i}]`, participantOf: (i) => i }),
      },
    ],
    signers: input.signProfile,
  };
}

/**
 * The participants of a package: the root's `signProfile`, or everyone named by the documents,
 * the same e-mail being the same person (first mention wins). Each signs the package as a whole.
 */
function packageSigners(input: PackageInput): { signers: SignerInput[]; labels: string[] } | undefined {
  if (input.signProfile) return { signers: input.signProfile, labels: input.signProfile.map((_, i) => `signProfile[${i}]`) };
  const byEmail = new Map<string, { signer: SignerInput; label: string }>();
  for (const [d, document] of input.documents.entries()) {
    for (const [s, signer] of (document.signProfile ?? []).entries()) {
      const key = signer.email.toLowerCase();
      if (!byEmail.has(key)) byEmail.set(key, { signer, label: `documents[${d}].signProfile[${s}]` });
    }
  }
  if (byEmail.size === 0) return undefined;
  const entries = [...byEmail.values()];
  return { signers: entries.map((e) => e.signer), labels: entries.map((e) => e.label) };
}

/** POST /document/many: several documents, one process code, one set of participants, root validations only. */
export function draftFromPackage(input: PackageInput): ProcessDraft {
  const documents: DocumentDraft[] = input.documents.map((document, i) => {
    const templateId = document.file === undefined ? (document.document ?? input.document) : undefined;
    if (templateId !== undefined) {
      return {
        source: 'template',
        templateId,
        data: document.data ?? input.data ?? [],
        ...(document.name === undefined ? {} : { name: document.name }),
      };
    }
    if (document.file === undefined && input.compress !== true) {
      throw invalid(`"documents[${i}]" needs "document" (a template id), "file" (a PDF in base64), or "compress": true at the root`);
    }
    return {
      source: 'pdf',
      name: document.name ?? `${input.name} (${i + 1})`,
      ...(document.file === undefined ? {} : { file: document.file }),
    };
  });
  const participants = packageSigners(input);
  return {
    kind: 'package',
    fields: input,
    documents,
    ...(participants ? { signers: participants.signers, signerLabels: participants.labels } : {}),
  };
}
