import { awaitsReview } from '../../identity-attempts/check-identity.js';
import { say, type WordKey } from '../../people/words-chat.js';
import { finishVeriface, openVeriface, submitDocumentPhoto, submitFacePhoto } from '../../veriface/person-flow.js';
import type { ChatContext } from '../chat-context.js';
import type { VerifaceFlow } from './chat-flows.js';
import { buttonId, type ChatInput } from './chat-input.js';
import { findVerifaceRow } from './chat-queries.js';
import type { Outcome } from './chat-replies.js';
import { answeringRefusals, downloadPhoto, photoRefusalAnswer } from './photo-answers.js';

/*
 * A face validation on the WhatsApp platform: the invitation, the document's front and the face,
 * through the validation page's own operations (its link token), then the outcome in words. The
 * similarity is never told: only approved, not approved, or under review.
 */

type VerifacePhoto = 'documentFront' | 'face';
type VerifaceStep = 'invitation' | VerifacePhoto;

function stepOf(flow: VerifaceFlow): VerifaceStep {
  const { chat, veriface } = flow;
  if (chat.step === 'invited') return 'invitation';
  if (veriface.document_front === null) return 'documentFront';
  if (veriface.face === null) return 'face';
  return chat.retake === 'documentFront' ? 'documentFront' : 'face';
}

export class VerifaceConversation {
  private readonly token: string;

  constructor(
    private readonly ctx: ChatContext,
    private readonly flow: VerifaceFlow,
    private readonly outcome: Outcome,
  ) {
    this.token = flow.veriface.link_token;
  }

  private text(key: WordKey): void {
    const { voice, veriface } = this.flow;
    this.outcome.text(this.flow, say(voice.language, key, { name: veriface.name, organization: voice.organization, contact: voice.contact }));
  }

  async handle(input: ChatInput): Promise<void> {
    await answeringRefusals(
      () => this.act(input),
      (code) => this.refused(code),
    );
  }

  private async act(input: ChatInput): Promise<void> {
    const step = stepOf(this.flow);
    if (step === 'invitation') {
      if (input.kind === 'action' && (input.action === 'start' || input.action === 'choose')) {
        await openVeriface(this.ctx, { token: this.token });
        this.outcome.move(this.flow, { step: 'started' });
      }
      return this.prompt();
    }
    if (input.kind !== 'photo') return this.prompt();
    const image = await downloadPhoto(this.ctx, input.mediaId);
    if (!image) {
      this.text('photoDownloadFailed');
      return this.prompt();
    }
    try {
      const view =
        step === 'face'
          ? await submitFacePhoto(this.ctx, { token: this.token, image })
          : await submitDocumentPhoto(this.ctx, { token: this.token, side: 'front', image });
      this.outcome.move(this.flow, { retake: null });
      await this.reload();
      if (view.captured.documentFront && view.captured.face) return this.finish(step);
      return this.prompt();
    } catch (error) {
      const { words, retake } = photoRefusalAnswer(error, step);
      this.text(words);
      if (retake) this.outcome.move(this.flow, { retake });
      await this.reload();
      return this.prompt();
    }
  }

  /** Both photos are there: they are compared, and the person told the outcome (never the similarity). */
  private async finish(sent: VerifacePhoto): Promise<void> {
    try {
      const result = await finishVeriface(this.ctx, { token: this.token });
      await this.reload();
      if (result.status === 'APPROVED') return this.text('verifaceApproved');
      if (result.status === 'BLOCKED') return this.text(awaitsReview(this.flow.veriface.result_reason) ? 'verifaceUnderReview' : 'verifaceNotApproved');
      this.outcome.move(this.flow, { retake: 'face' });
      return this.text('photoFaceAgain');
    } catch (error) {
      const { words, retake } = photoRefusalAnswer(error, sent);
      this.text(words);
      if (retake) this.outcome.move(this.flow, { retake });
      return this.prompt();
    }
  }

  private async reload(): Promise<void> {
    const veriface = await findVerifaceRow(this.ctx.db, this.flow.veriface.id);
    if (veriface) this.flow.veriface = veriface;
  }

  async prompt(): Promise<void> {
    const step = stepOf(this.flow);
    const { voice, veriface } = this.flow;
    if (step === 'invitation') {
      this.outcome.say(this.flow, 'step', {
        kind: 'buttons',
        text: say(voice.language, 'verifaceInvitation', { name: veriface.name, organization: voice.organization }),
        buttons: [{ id: buttonId(this.flow.chat.id, 'start'), title: say(voice.language, 'start') }],
      });
      return;
    }
    return this.text(step === 'documentFront' ? 'photoFront' : 'photoFace');
  }

  private async refused(code: string): Promise<void> {
    await this.reload();
    if (code === 'VERIFACE_CLOSED' || code === 'VERIFACE_EXPIRED' || code === 'VERIFACE_NOT_FOUND') return this.text('verifaceClosed');
    this.text('somethingFailed');
  }
}
