import { invalid } from '../../domain-error.js';
import { type SignerPlacement, signerPlacements } from '../placement/place-signatures.js';
import type { PackageInput, PackageUploadInput, SaveFromTemplateInput, SignerInput, UploadPdfInput } from '../schemas.js';
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

/**
 * `sign: false`: the document is e-mailed for printing and nobody signs, so what only a signing
 * flow does is refused rather than dropped: an overwrite, files asked, readers and CC copies.
 */
function refuseInPrint(input: SaveFromTemplateInput): void {
  if (input.code !== undefined) throw invalid('"code": a process in edit mode is sent again to be signed, not with "sign": false');
  const asking = (input.signProfile ?? []).findIndex((signer) => signer.files !== undefined);
  if (asking !== -1) throw invalid(`"signProfile[${asking}].files" are given on the signing page, which "sign": false does not open`);
  for (const key of ['readers', 'cc'] as const) {
    if (input[key] !== undefined) throw invalid(`"${key}" follow a signing flow, which "sign": false does not start`);
  }
}

/** POST /document/save: one document filled from a template; with `sign: false`, e-mailed for printing instead. */
export function draftFromTemplate(input: SaveFromTemplateInput): ProcessDraft {
  refusePlacement(input.signProfile ?? [], (i) => `signProfile[${i}]`);
  if (!input.sign) refuseInPrint(input);
  return {
    ...(input.sign ? {} : { print: true }),
    kind: 'document',
    fields: input,
    documents: [{ source: 'template', templateId: input.document, data: input.data }],
    ...(input.signProfile ? { signers: input.signProfile } : {}),
    ...(input.code === undefined ? {} : { replaces: input.code }),
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
    ...(input.code === undefined ? {} : { replaces: input.code }),
  };
}

/**
 * The participants of a package: the root's `signProfile`, or everyone named by the documents,
 * the same e-mail being the same person (first mention wins). Each signs the package as a whole.
 */
function packageSigners(input: PackageInput): { signers: SignerInput[]; labels: string[] } | undefined {
  if (input.signProfile) {
    for (const [d, document] of input.documents.entries()) {
      const s = (document.signProfile ?? []).findIndex((signer) => signer.files);
      if (s !== -1) throw invalid(`"documents[${d}].signProfile[${s}].files": the root signProfile names the participants; ask their files there`);
    }
    return { signers: input.signProfile, labels: input.signProfile.map((_, i) => `signProfile[${i}]`) };
  }
  const byEmail = new Map<string, { signer: SignerInput; label: string }>();
  for (const [d, document] of input.documents.entries()) {
    for (const [s, signer] of (document.signProfile ?? []).entries()) {
      const key = signer.email.toLowerCase();
      const first = byEmail.get(key);
      if (!first) byEmail.set(key, { signer, label: `documents[${d}].signProfile[${s}]` });
      // A person is asked their files once, where the package first names them: a later list would be dropped.
      else if (signer.files)
        throw invalid(`"documents[${d}].signProfile[${s}].files": ask ${signer.email}'s files in ${first.label}, where they are first named`);
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
    ...(input.package === undefined ? {} : { replaces: input.package }),
  };
}

/**
 * POST /package/upload: a package whose participants are asked files, with one PDF to sign or none
 * (the process only collects the files). Unlike /document/many it keeps turns and each signer's own
 * validations, as the real service's attachments processes do; everyone is notified.
 */
export function draftFromPackageUpload(input: PackageUploadInput): ProcessDraft {
  const withDocument = input.file !== undefined || input.compress === true;
  if (withDocument && input.name === undefined) throw invalid('"name" is required with a document to sign');
  if (!withDocument) {
    const i = input.signProfile.findIndex((signer) => (signer.files ?? []).every((file) => file.optional));
    // Without a document a participant is done once their required files are given: they need one.
    if (i !== -1) throw invalid(`"signProfile[${i}].files" must ask at least one file that is not optional when there is no document to sign`);
  }
  const { packageName, name, file, ...fields } = input;
  const documents: DocumentDraft[] = withDocument
    ? [
        {
          source: 'pdf',
          name: name ?? packageName,
          ...(file === undefined ? {} : { file }),
          placements: signerPlacements(input.signProfile, { field: (i) => `signProfile[${i}]`, participantOf: (i) => i }),
        },
      ]
    : [];
  return { kind: 'package', fields: { ...fields, name: packageName, notification: true }, documents, signers: input.signProfile, ownValidations: true };
}
