import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFPageTree,
  PDFRef,
  PDFString,
} from 'pdf-lib';

/** Bytes reserved for the CMS signature: the certificate chain and a timestamp token fit with room to spare. */
export const SIGNATURE_BYTES = 16_384;
const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 /********** /********** /**********]';

function serialize(object: PDFObject): Buffer {
  const bytes = Buffer.alloc(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}

function refKey(ref: PDFRef): string {
  return `${ref.objectNumber} ${ref.generationNumber}`;
}

/** `D:20250305140322Z`, the form of dates inside a PDF. */
function pdfDate(date: Date): string {
  return `D:${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/** Where the last cross-reference section of a PDF starts, read from its last `startxref`. */
function lastStartXref(pdf: Buffer): number | undefined {
  const tail = pdf.subarray(Math.max(0, pdf.length - 2048)).toString('latin1');
  const matches = [...tail.matchAll(/startxref\s+(\d+)/g)];
  const last = matches.at(-1)?.[1];
  return last === undefined ? undefined : Number(last);
}

/**
 * The highest object number the file uses. pdf-lib forgets the numbers of object and cross-reference
 * streams it has unpacked, so new objects could take one of them; the trailers' /Size and every
 * object header in the file say what is taken.
 */
function largestObjectNumber(pdf: Buffer): number {
  const text = pdf.toString('latin1');
  let largest = 0;
  for (const match of text.matchAll(/\/Size\s+(\d+)/g)) largest = Math.max(largest, Number(match[1]) - 1);
  for (const match of text.matchAll(/(?:^|[\r\n\s])(\d+)\s+\d+\s+obj\b/g)) largest = Math.max(largest, Number(match[1]));
  return largest;
}

/**
 * Why a PDF cannot be updated: `encrypted`; `damaged` (pdf-lib cannot read it); `no-pages`;
 * `no-xref` (readable, but its last `startxref` leads to no cross-reference section, so an update
 * could not point back at one: readers that rebuild the table open it, the seal cannot).
 */
export type PdfProblem = 'encrypted' | 'damaged' | 'no-pages' | 'no-xref';
export type PdfOpening = { pages: number } | { problem: PdfProblem };

/** Whether a PDF holds a signature dictionary (its ByteRange): a rewrite or a change to its pages would break it. */
export function carriesSignature(pdf: Buffer): boolean {
  return pdf.includes('/ByteRange');
}

/** Whether `offset` starts a cross-reference table or an object (a cross-reference stream). */
function startsXrefSection(pdf: Buffer, offset: number): boolean {
  const head = pdf.subarray(offset, offset + 32).toString('latin1');
  return /^\s*(?:xref\b|\d+\s+\d+\s+obj\b)/.test(head);
}

async function load(original: Buffer): Promise<{ document: PDFDocument; previousXref: number } | { problem: PdfProblem }> {
  let document: PDFDocument;
  try {
    // updateMetadata: false keeps pdf-lib from changing the Info dictionary on its own.
    document = await PDFDocument.load(original, { updateMetadata: false, ignoreEncryption: true });
  } catch {
    return { problem: 'damaged' };
  }
  if (document.isEncrypted) return { problem: 'encrypted' };
  try {
    if (document.getPageCount() === 0) return { problem: 'no-pages' };
  } catch {
    return { problem: 'damaged' };
  }
  const previousXref = lastStartXref(original);
  if (previousXref === undefined || !startsXrefSection(original, previousXref)) return { problem: 'no-xref' };
  return { document, previousXref };
}

/** What the signature dictionary says besides the signature itself. */
export interface SignaturePlaceholder {
  page: PDFPage;
  fieldName: string;
  signerName: string;
  reason: string;
  location: string;
  signedAt: Date;
  /** Written as plain ASCII (a URL), so it can be read back from the bytes of a changed copy. */
  contactInfo?: string;
}

/**
 * An invisible signature field on `page` whose value is a signature dictionary with a ByteRange
 * and Contents placeholder, the form @signpdf/signpdf fills: in an incremental update, or in a
 * document the service makes whole.
 */
export function addSignaturePlaceholder(document: PDFDocument, options: SignaturePlaceholder): void {
  const text = (value: string) => PDFHexString.fromText(value).toString();
  addSignatureField(
    document,
    options,
    ['/Type /Sig', '/Filter /Adobe.PPKLite', '/SubFilter /ETSI.CAdES.detached'],
    [
      `/M ${PDFString.of(pdfDate(options.signedAt)).toString()}`,
      `/Name ${text(options.signerName)}`,
      `/Reason ${text(options.reason)}`,
      `/Location ${text(options.location)}`,
      ...(options.contactInfo === undefined ? [] : [`/ContactInfo (${options.contactInfo.replace(/[^\x21-\x7e]|[()\\]/g, (c) => encodeURIComponent(c))})`]),
    ],
  );
}

/**
 * An invisible field holding a document timestamp (PAdES B-LTA, ISO 32000-2 12.8.5): an RFC 3161
 * token over the bytes its ByteRange covers, which the whole file up to it.
 */
export function addDocumentTimestampPlaceholder(document: PDFDocument, options: { page: PDFPage; fieldName: string }): void {
  addSignatureField(document, options, ['/Type /DocTimeStamp', '/Filter /Adobe.PPKLite', '/SubFilter /ETSI.RFC3161'], []);
}

/**
 * A signature field on `page` whose value is a dictionary of the `kind` entries (type and
 * filters), a ByteRange and Contents placeholder, and the `details` entries.
 */
function addSignatureField(document: PDFDocument, options: { page: PDFPage; fieldName: string }, kind: string[], details: string[]): void {
  const context = document.context;
  const dictionary = ['<<', ...kind, BYTE_RANGE_PLACEHOLDER, `/Contents <${'0'.repeat(SIGNATURE_BYTES * 2)}>`, ...details, '>>'].join('\n');
  const signatureRef = context.register(PDFInvalidObject.of(Buffer.from(dictionary, 'latin1')));
  const pageRef = context.getObjectRef(options.page.node);
  const widget = context.obj({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    // Print and locked: an invisible field that cannot be moved or deleted.
    F: 132,
    Rect: [0, 0, 0, 0],
    T: PDFHexString.fromText(options.fieldName),
    V: signatureRef,
    ...(pageRef ? { P: pageRef } : {}),
  });
  const widgetRef = context.register(widget);
  const annots = options.page.node.Annots();
  if (annots) annots.push(widgetRef);
  else options.page.node.set(PDFName.of('Annots'), context.obj([widgetRef]));

  const catalog = document.catalog;
  const existing = catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const form = existing ?? context.obj({});
  if (!existing) catalog.set(PDFName.of('AcroForm'), context.register(form));
  const fields = form.lookupMaybe(PDFName.of('Fields'), PDFArray);
  if (fields) fields.push(widgetRef);
  else form.set(PDFName.of('Fields'), context.obj([widgetRef]));
  // SignaturesExist and AppendOnly: viewers must keep further changes incremental.
  form.set(PDFName.of('SigFlags'), PDFNumber.of(3));
}

/**
 * A PDF changed by incremental update (ISO 32000 7.5.6): the original bytes stay as they are and
 * the changed and new objects follow them with a cross-reference section of their own, so a
 * signature made over the original still covers exactly what it covered. pdf-lib reads the file
 * (classic or stream cross-references) and makes the changes; what changed is found by comparing
 * every object's bytes with a snapshot taken on opening.
 */
export class IncrementalUpdate {
  private constructor(
    readonly document: PDFDocument,
    private readonly original: Buffer,
    private readonly previousXref: number,
    private readonly snapshot: Map<string, Buffer>,
  ) {}

  /**
   * Whether the file can be updated, and why not: the one check that both intake and the seal run,
   * so a PDF accepted is a PDF the seal opens.
   */
  static async inspect(original: Buffer): Promise<PdfOpening> {
    const opened = await load(original);
    return 'problem' in opened ? opened : { pages: opened.document.getPageCount() };
  }

  /** Undefined when the file cannot be updated (see `inspect`). */
  static async open(original: Buffer): Promise<IncrementalUpdate | undefined> {
    const opened = await load(original);
    if ('problem' in opened) return undefined;
    const { document, previousXref } = opened;
    document.context.largestObjectNumber = Math.max(document.context.largestObjectNumber, largestObjectNumber(original));
    const snapshot = new Map(document.context.enumerateIndirectObjects().map(([ref, object]): [string, Buffer] => [refKey(ref), serialize(object)]));
    return new IncrementalUpdate(document, original, previousXref, snapshot);
  }

  /** Whether the original already carries a digital signature: its pages must then stay untouched. */
  get alreadySigned(): boolean {
    return carriesSignature(this.original);
  }

  /**
   * Adds pages copied from another PDF at the end, under a page-tree node of their own hung from
   * the root, so only the root node of the original tree changes.
   */
  async appendPages(from: PDFDocument): Promise<PDFPage[]> {
    const pages = await this.document.copyPages(from, from.getPageIndices());
    if (pages.length === 0) return [];
    const context = this.document.context;
    const rootRef = this.document.catalog.get(PDFName.of('Pages'));
    const root = this.document.catalog.lookup(PDFName.of('Pages'), PDFDict);
    if (!(rootRef instanceof PDFRef)) throw new Error('the page tree root is not an indirect object');
    // A page-tree node pdf-lib knows as one, so the pages hung under it can be drawn on afterwards
    // (resources are looked up through the parents).
    const node = PDFPageTree.withContext(context, rootRef);
    node.set(PDFName.of('Count'), PDFNumber.of(pages.length));
    const nodeRef = context.register(node);
    for (const page of pages) {
      page.node.set(PDFName.of('Parent'), nodeRef);
      node.Kids().push(context.register(page.node));
    }
    root.lookup(PDFName.of('Kids'), PDFArray).push(nodeRef);
    const count = root.lookup(PDFName.of('Count'), PDFNumber).asNumber();
    root.set(PDFName.of('Count'), PDFNumber.of(count + pages.length));
    return pages;
  }

  /** See `addSignaturePlaceholder`: the field added to this update. */
  addSignaturePlaceholder(options: SignaturePlaceholder): void {
    addSignaturePlaceholder(this.document, options);
  }

  /** See `addDocumentTimestampPlaceholder`: the field added to this update, on the last page. */
  addDocumentTimestampPlaceholder(fieldName: string): void {
    const page = this.document.getPages().at(-1);
    if (!page) throw new Error('a PDF without pages cannot be timestamped');
    addDocumentTimestampPlaceholder(this.document, { page, fieldName });
  }

  /** The original bytes followed by the update: every object that changed or is new, its xref and trailer. */
  async bytes(): Promise<Buffer> {
    // Fonts and images pdf-lib embeds are only written into the context on flush.
    await this.document.flush();
    const context = this.document.context;
    const changed = context
      .enumerateIndirectObjects()
      .map(([ref, object]) => ({ ref, bytes: serialize(object) }))
      .filter(({ ref, bytes }) => !this.snapshot.get(refKey(ref))?.equals(bytes))
      .sort((a, b) => a.ref.objectNumber - b.ref.objectNumber);
    const parts: Buffer[] = [this.original];
    let offset = this.original.length;
    const push = (part: Buffer) => {
      parts.push(part);
      offset += part.length;
    };
    if (this.original.at(-1) !== 0x0a) push(Buffer.from('\n'));
    const offsets = new Map<number, { offset: number; generation: number }>();
    for (const { ref, bytes } of changed) {
      offsets.set(ref.objectNumber, { offset, generation: ref.generationNumber });
      push(Buffer.concat([Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`), bytes, Buffer.from('\nendobj\n')]));
    }
    const xrefAt = offset;
    const lines = ['xref'];
    const numbers = [...offsets.keys()];
    for (let start = 0; start < numbers.length; ) {
      let end = start;
      while (end + 1 < numbers.length && numbers[end + 1] === (numbers[end] ?? 0) + 1) end++;
      lines.push(`${numbers[start]} ${end - start + 1}`);
      for (let index = start; index <= end; index++) {
        const entry = offsets.get(numbers[index] ?? -1);
        if (entry) lines.push(`${String(entry.offset).padStart(10, '0')} ${String(entry.generation).padStart(5, '0')} n\r`);
      }
      start = end + 1;
    }
    const trailer = context.obj({
      Size: context.largestObjectNumber + 1,
      Prev: this.previousXref,
      Root: context.trailerInfo.Root,
      ...(context.trailerInfo.Info ? { Info: context.trailerInfo.Info } : {}),
      ...(context.trailerInfo.ID ? { ID: context.trailerInfo.ID } : {}),
    });
    push(Buffer.from(`${lines.join('\n')}\ntrailer\n${trailer.toString()}\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'));
    return Buffer.concat(parts);
  }
}
