import { invalid } from '../../domain-error.js';
import { type SignerPlacement, signerPlacements } from '../placement/place-signatures.js';
import type { PackageInput, SaveFromTemplateInput, SignerInput, UploadPdfInput } from '../schemas.js';
import type { DocumentDraft, ProcessDraft } from './create-process.js';

/**
 * A document filled from a template places its signatures through the template (`sign-margin`),
 * not on pages; a package's root signProfile is about no document in particular.
 */
function refusePlacement(signProfile: SignerInput[], field: (index: number) => string): void {
  for (const [i, signer] of signProfile.entries()) {
    const key = signer.position ? 'position' : signer.label ? 'label' : undefined;
    if (key) throw invalid(`"${field(i)}.${key}" places signatures on an uploaded PDF only, given in that document's signProfile`);
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

/**
 * Where each participant signs a package's PDF: in that document's own `signProfile`, its entries
 * naming participants by e-mail, N of their tags being their index there. A placement naming
 * someone outside the package is refused.
 */
function packagePlacements(signProfile: SignerInput[], options: { documentIndex: number; participants: SignerInput[] }): SignerPlacement[] {
  const emails = options.participants.map((p) => p.email.toLowerCase());
  const field = (i: number) => `documents[${options.documentIndex}].signProfile[${i}]`;
  return signerPlacements(signProfile, {
    field,
    participantOf: (i) => {
      const at = emails.indexOf(signProfile[i]?.email.toLowerCase() ?? '');
      if (at === -1) throw invalid(`"${field(i)}.email" places the signature of someone who is not a participant of the package`);
      return at;
    },
  }).filter((placement) => placement.tag === true || placement.positions !== undefined);
}

/** POST /document/many: several documents, one process code, one set of participants, root validations only. */
export function draftFromPackage(input: PackageInput): ProcessDraft {
  refusePlacement(input.signProfile ?? [], (i) => `signProfile[${i}]`);
  const participants = packageSigners(input);
  const documents: DocumentDraft[] = input.documents.map((document, i) => {
    const templateId = document.file === undefined ? (document.document ?? input.document) : undefined;
    if (templateId !== undefined) {
      refusePlacement(document.signProfile ?? [], (s) => `documents[${i}].signProfile[${s}]`);
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
      placements: packagePlacements(document.signProfile ?? [], { documentIndex: i, participants: participants?.signers ?? [] }),
    };
  });
  return {
    kind: 'package',
    fields: input,
    documents,
    ...(participants ? { signers: participants.signers, signerLabels: participants.labels } : {}),
  };
}
