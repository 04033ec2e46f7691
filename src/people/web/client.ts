import type { ErrorCode } from '../../error-catalogue.js';
import type {
  AttachmentInput,
  Delegated,
  DelegateInput,
  DocumentsOpened,
  EmbeddedFlow,
  EmbedInput,
  FillChecked,
  FillCheckInput,
  FillConfirmInput,
  FillForm,
  FillPreview,
  FillResendInput,
  FillSubmitInput,
  FillSubmitted,
  FinishInput,
  LinkQr,
  LinkSent,
  OpenedInput,
  OtpCheckInput,
  OtpSent,
  PersonView,
  PhotoInput,
  ReadingPage,
  RejectInput,
  SendLinkInput,
  SignInput,
  SigningOutcome,
  SigningPage,
  SigningView,
  ValidationFinished,
  ValidationPage,
} from '../contract.js';

/** A refusal of the service: the catalogue code its message starts with, and the message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The seconds of Retry-After, when a limit refused. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** Whether the service refused with one of these catalogue codes. */
  is(...codes: ErrorCode[]): boolean {
    return (codes as readonly string[]).includes(this.code);
  }
}

/** The network failed (no answer at all): the page says so and offers to try again. */
export class NetworkFailure extends Error {}

type Method = 'GET' | 'POST';

/**
 * One request to the people's API. The answer is read as the route's type from the contract: the
 * handlers are checked against the same types, so this is the one place the page takes it on trust.
 */
async function request<Answer>(method: Method, path: string, options: { token?: string; body?: object } = {}): Promise<Answer> {
  const { token, body } = options;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { ...(token === undefined ? {} : { 'x-link-token': token }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new NetworkFailure();
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (response.ok) return answer as Answer;
  const message = typeof answer === 'object' && answer !== null && 'message' in answer ? String(answer.message) : '';
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  throw new ApiFailure(response.status, message.split(':', 1)[0] ?? '', message, Number.isFinite(retryAfter) ? retryAfter : undefined);
}

/**
 * The people's API as the pages call it, one function per route, authorised by the link's token.
 * The token travels in a header, never in a URL, so it stays out of logs and of what other sites see.
 */
export function peopleClient(token: string) {
  const as = { token };
  return {
    /** The link's token: what a signature made in a form is kept under (form-signature.ts). */
    token,
    signingPage: () => request<SigningPage>('GET', '/people/signing', as),
    readingPage: () => request<ReadingPage>('GET', '/people/reading', as),
    requestOtp: () => request<OtpSent>('POST', '/people/signing/otp', as),
    checkOtp: (body: OtpCheckInput) => request<SigningView>('POST', '/people/signing/otp/check', { ...as, body }),
    signingPhoto: (body: PhotoInput) => request<SigningView>('POST', '/people/signing/photo', { ...as, body }),
    documentOpened: (body: OpenedInput) => request<DocumentsOpened>('POST', '/people/signing/opened', { ...as, body }),
    sign: (body: SignInput) => request<SigningOutcome>('POST', '/people/signing/sign', { ...as, body }),
    approve: (body: FinishInput) => request<SigningOutcome>('POST', '/people/signing/approve', { ...as, body }),
    reject: (body: RejectInput) => request<SigningOutcome>('POST', '/people/signing/reject', { ...as, body }),
    signingAttachment: (body: AttachmentInput) => request<SigningView>('POST', '/people/signing/attachment', { ...as, body }),
    delegate: (body: DelegateInput) => request<Delegated>('POST', '/people/signing/delegate', { ...as, body }),
    emailCopy: () => request<LinkSent>('POST', '/people/signing/copy', as),
    sendSigningLink: (body: SendLinkInput) => request<LinkSent>('POST', '/people/signing/send-link', { ...as, body }),
    signingQr: () => request<LinkQr>('GET', '/people/signing/qr', as),
    validationPage: () => request<ValidationPage>('GET', '/people/validation', as),
    validationPhoto: (body: PhotoInput) => request<PersonView>('POST', '/people/validation/photo', { ...as, body }),
    finishValidation: () => request<ValidationFinished>('POST', '/people/validation/finish', as),
    sendValidationLink: (body: SendLinkInput) => request<LinkSent>('POST', '/people/validation/send-link', { ...as, body }),
    validationQr: () => request<LinkQr>('GET', '/people/validation/qr', as),
    fillForm: () => request<FillForm>('GET', '/people/fill', as),
    fillPreview: () => request<FillPreview>('GET', '/people/fill/preview', as),
    checkFill: (body: FillCheckInput) => request<FillChecked>('POST', '/people/fill/check', { ...as, body }),
    submitFill: (body: FillSubmitInput) => request<FillSubmitted>('POST', '/people/fill', { ...as, body }),
    confirmFill: (body: FillConfirmInput) => request<FillSubmitted>('POST', '/people/fill/confirm', { ...as, body }),
    resendFillCode: (body: FillResendInput) => request<FillSubmitted>('POST', '/people/fill/resend', { ...as, body }),
  };
}

export type PeopleClient = ReturnType<typeof peopleClient>;

/** The token of a person's page from its address (/s/<token>, /r/<token>, …): what its client acts with. */
export function linkTokenOf(url: string): string {
  return decodeURIComponent(new URL(url, window.location.href).pathname.split('/')[2] ?? '');
}

/** The embedded app's first call (public: no token yet): which flow and token the SDK's init message opens. */
export function openEmbedded(body: EmbedInput): Promise<EmbeddedFlow> {
  return request<EmbeddedFlow>('POST', '/people/embed', { body });
}

/** Base64 of a blob's bytes, for JSON bodies. */
export async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
