import { participantLink } from '../../documents/notify-participants.js';
import { requirementsOf, signatureKindsOf } from '../../documents/participant/signer-access.js';
import {
  approveDocument,
  openDocument,
  openSigning,
  type PhotoKind,
  rejectDocument,
  requestOtp,
  type SigningRequirements,
  signDocument,
  submitPhoto,
  verifyOtp,
} from '../../documents/participant/signer-flow.js';
import { readableFile } from '../../documents/preview/document-preview.js';
import { listDocuments } from '../../documents/queries.js';
import { lastFour } from '../../documents/sealing/seal-evidence.js';
import { awaitsReview } from '../../identity-attempts/check-identity.js';
import { say } from '../../people/words-chat.js';
import type { ChatContext } from '../chat-context.js';
import type { SigningFlow } from './chat-flows.js';
import { buttonId, type ChatAction, type ChatInput } from './chat-input.js';
import { findChatFlow, findParticipantRow } from './chat-queries.js';
import type { Outcome } from './chat-replies.js';
import { answeringRefusals, downloadPhoto, photoRefusalAnswer } from './photo-answers.js';
import { typedSignature } from './typed-signature.js';

/*
 * A signer's conversation. Every step calls the signing page's own operations with the
 * participant's link token, so the state is one: a code verified or a photo sent on the page is
 * done here too, and the other way round. What the conversation keeps itself (chat_flows) is only
 * whether the person started, is writing a rejection's reason, or must send a photo again.
 */

type SignerStep = 'invitation' | 'notYourTurn' | 'code' | PhotoKind | 'consent' | 'rejectReason';

const PHOTO_KINDS: readonly PhotoKind[] = ['documentFront', 'documentBack', 'face'];

function photoToSend(requirements: SigningRequirements, retake: string | null): PhotoKind {
  const { camera } = requirements;
  if (camera.mode === 'identification') {
    if (!camera.captured.documentFront) return 'documentFront';
    if (camera.documentBack && !camera.captured.documentBack) return 'documentBack';
  }
  if (!camera.captured.face) return 'face';
  return PHOTO_KINDS.find((kind) => kind === retake) ?? 'face';
}

function stepOf(flow: SigningFlow): SignerStep {
  const { chat, participant } = flow;
  if (participant.status === 'PENDING') return 'notYourTurn';
  if (chat.step === 'invited') return 'invitation';
  if (chat.step === 'rejecting') return 'rejectReason';
  const requirements = requirementsOf(participant);
  if (requirements.otpCode.required && !requirements.otpCode.verified) return 'code';
  if (requirements.camera.required && !requirements.camera.verified) return photoToSend(requirements, chat.retake);
  return 'consent';
}

const PHOTO_WORDS = { documentFront: 'photoFront', documentBack: 'photoBack', face: 'photoFace' } as const;

export class SignerConversation {
  private readonly token: string;

  constructor(
    private readonly ctx: ChatContext,
    private readonly flow: SigningFlow,
    private readonly outcome: Outcome,
  ) {
    this.token = flow.participant.link_token;
  }

  private words(key: Parameters<typeof say>[1], values: Record<string, string | number> = {}): string {
    const { voice, process, participant } = this.flow;
    return say(voice.language, key, { process: process.name, name: participant.name, organization: voice.organization, contact: voice.contact, ...values });
  }

  private text(key: Parameters<typeof say>[1], values?: Record<string, string | number>): void {
    this.outcome.text(this.flow, this.words(key, values));
  }

  private buttons(key: Parameters<typeof say>[1], buttons: [Parameters<typeof buttonId>[1], Parameters<typeof say>[1]][]): void {
    this.outcome.say(this.flow, 'step', {
      kind: 'buttons',
      text: this.words(key),
      buttons: buttons.map(([action, title]) => ({ id: buttonId(this.flow.chat.id, action), title: this.words(title) })),
    });
  }

  /** The participant as the last operation left them. */
  private async reload(): Promise<void> {
    const participant = await findParticipantRow(this.ctx.db, this.flow.participant.id);
    if (participant) this.flow.participant = participant;
    const chat = await findChatFlow(this.ctx.db, { participantRowId: this.flow.participant.id });
    // What this handling moved stays moved: it is written with its answers at the end.
    if (chat) this.flow.chat = { ...chat, step: this.flow.chat.step, retake: this.flow.chat.retake };
  }

  async handle(input: ChatInput): Promise<void> {
    await answeringRefusals(
      () => this.act(input),
      (code) => this.refused(code),
    );
  }

  private async act(input: ChatInput): Promise<void> {
    const step = stepOf(this.flow);
    const action = input.kind === 'action' ? input.action : undefined;
    switch (step) {
      case 'notYourTurn':
        return this.text('notYourTurn');
      case 'invitation':
        if (action === 'start' || action === 'choose') return this.start();
        return this.prompt();
      case 'rejectReason':
        if (action === 'back') {
          this.outcome.move(this.flow, { step: 'started' });
          return this.prompt();
        }
        if (action === 'sign' || action === 'approve') {
          this.outcome.move(this.flow, { step: 'started' });
          return this.consent(action);
        }
        if (input.kind === 'text' && input.text.trim() !== '') {
          await rejectDocument(this.ctx, { token: this.token, reason: input.text });
          return this.text('rejected');
        }
        return this.prompt();
      case 'code':
        if (input.kind === 'text' && /^\d{6}$/.test(input.text.replace(/[\s-]/g, ''))) {
          await verifyOtp(this.ctx, { token: this.token, code: input.text.replace(/[\s-]/g, '') });
          await this.reload();
          this.text('codeAccepted');
          return this.prompt();
        }
        if (action === 'resend') {
          await requestOtp(this.ctx, { token: this.token });
          await this.reload();
        }
        return this.prompt();
      case 'consent':
        return this.consent(action);
      default:
        if (input.kind === 'photo') return this.photo(step, input.mediaId);
        return this.prompt();
    }
  }

  /** The person starts: the documents arrive in the chat, which is opening them, then the first step. */
  private async start(): Promise<void> {
    await openSigning(this.ctx, { token: this.token });
    this.outcome.move(this.flow, { step: 'started' });
    await this.sendDocuments();
    return this.prompt();
  }

  private async sendDocuments(): Promise<void> {
    const documents = await listDocuments(this.ctx.db, this.flow.process.id);
    for (const document of documents) {
      const key = await readableFile(this.ctx, document);
      if (key === undefined) continue;
      const pdf = key.endsWith('.pdf');
      const extension = pdf ? '.pdf' : '.html';
      const filename = document.name.toLowerCase().endsWith(extension) ? document.name : `${document.name}${extension}`;
      this.outcome.say(this.flow, 'document', {
        kind: 'document',
        blobKey: key,
        filename,
        mimeType: pdf ? 'application/pdf' : 'text/html',
        caption: this.words('documentCaption', { document: document.name }),
      });
      await openDocument(this.ctx, { token: this.token, document: document.position });
    }
  }

  private async consent(action: ChatAction | undefined): Promise<void> {
    const { role } = this.flow.participant;
    if (action === 'reject') {
      this.outcome.move(this.flow, { step: 'rejecting' });
      return this.prompt();
    }
    const whatsapp = lastFour(this.flow.chat.phone);
    if (role === 'SIGNER' && action === 'sign') {
      if (!this.mayType()) return this.prompt();
      const image = await typedSignature(this.flow.participant.name);
      await signDocument(this.ctx, { token: this.token, signature: { kind: 'font', image }, whatsapp });
      return this.text('signed');
    }
    if (role === 'APPROVER' && action === 'approve') {
      await approveDocument(this.ctx, { token: this.token, whatsapp });
      return this.text('approved');
    }
    return this.prompt();
  }

  private async photo(kind: PhotoKind, mediaId: string): Promise<void> {
    const image = await downloadPhoto(this.ctx, mediaId);
    if (!image) {
      this.text('photoDownloadFailed');
      return this.prompt();
    }
    const failuresBefore = this.flow.participant.camera_failures;
    try {
      const view = await submitPhoto(this.ctx, { token: this.token, kind, image });
      const mismatch = view.requirements.camera.failures > failuresBefore;
      this.outcome.move(this.flow, { retake: mismatch ? 'face' : null });
    } catch (error) {
      const { words, retake } = photoRefusalAnswer(error, kind);
      this.text(words);
      if (retake) this.outcome.move(this.flow, { retake });
    }
    await this.reload();
    return this.prompt();
  }

  /** The current step, asked again: what every unreadable message, "AYUDA" and each answer end with. */
  async prompt(): Promise<void> {
    const step = stepOf(this.flow);
    switch (step) {
      case 'notYourTurn':
        return this.text('notYourTurn');
      case 'invitation':
        return this.buttons(this.flow.participant.role === 'APPROVER' ? 'approvingInvitation' : 'signingInvitation', [['start', 'start']]);
      case 'rejectReason':
        return this.buttons('rejectAsk', [['back', 'back']]);
      case 'code':
        return this.askCode();
      case 'consent':
        // A chat can only type the name: a signature that must be drawn is drawn on the person's page.
        if (this.flow.participant.role === 'SIGNER' && !this.mayType())
          return this.text('drawOnPage', { link: participantLink(this.ctx, this.flow.participant) });
        return this.flow.participant.role === 'APPROVER'
          ? this.buttons('consentApprove', [
              ['approve', 'approve'],
              ['reject', 'reject'],
            ])
          : this.buttons('consentSign', [
              ['sign', 'acceptAndSign'],
              ['reject', 'reject'],
            ]);
      default:
        return this.text(step === 'face' && this.flow.participant.camera_last_failure === 'FACE_MISMATCH' ? 'photoFaceAgain' : PHOTO_WORDS[step]);
    }
  }

  /** Whether the participant's template lets them sign with their typed name, the only signature a chat makes. */
  private mayType(): boolean {
    return signatureKindsOf(this.flow.participant).includes('font');
  }

  /** Sends a code unless one is still valid (a new one replaces it, so asking again never spends it), then asks for it. */
  private async askCode(): Promise<void> {
    const { participant } = this.flow;
    const live = participant.otp_hash !== null && participant.otp_expires_at !== null && participant.otp_expires_at > this.ctx.clock.now().toISOString();
    if (!live) {
      await requestOtp(this.ctx, { token: this.token });
      await this.reload();
    }
    const medium = requirementsOf(this.flow.participant).otpCode.medium;
    this.buttons(medium === 'email' ? 'codeAskEmail' : 'codeAskPhone', [['resend', 'codeResend']]);
  }

  /** A refusal of the signing operations, in words: what happened and what to do now. */
  private async refused(code: string): Promise<void> {
    await this.reload();
    switch (code) {
      case 'OTP_CODE_INVALID':
        return this.text('codeInvalid');
      case 'OTP_CODE_EXPIRED':
        this.text('codeExpired');
        await requestOtp(this.ctx, { token: this.token }).catch(() => undefined);
        await this.reload();
        return this.prompt();
      case 'OTP_TOO_SOON':
        this.text('codeTooSoon');
        return this.prompt();
      case 'PARTICIPANT_BLOCKED':
        return this.text(awaitsReview(this.flow.participant.block_reason) ? 'underReview' : 'blocked');
      case 'NOT_YOUR_TURN':
        return this.text('notYourTurn');
      case 'PARTICIPANT_ALREADY_DONE':
        return this.text(this.flow.participant.status === 'FINISH' ? 'alreadySigned' : 'notInSignature');
      case 'DOCUMENT_NOT_IN_SIGNATURE':
      case 'DOCUMENT_EXPIRED':
        return this.text('notInSignature');
      case 'DOCUMENT_NOT_OPENED':
        await this.sendDocuments();
        return this.prompt();
      default:
        this.text('somethingFailed');
    }
  }
}
