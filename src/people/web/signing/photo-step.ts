import type { SigningView } from '../../contract.js';
import { capturePhoto, type PhotoKind } from '../camera.js';
import { ApiFailure, base64Of } from '../client.js';
import { t } from '../i18n.js';
import { phoneHandoff } from '../phone-handoff.js';
import { wordsFor, wordsForCameraFailure } from '../refusals.js';
import { ENDS_THE_STEP } from './ends-the-step.js';
import type { StepContext } from './step-context.js';

/** One photo the participant's camera validation asks for: the document's front or back, or the face. */
export function photoStep(container: HTMLElement, step: StepContext, kind: PhotoKind): void {
  const { client, page } = step;
  const camera = page.requirements?.camera;
  // The last check's failure is said on the photo it asks for again: the document's for its number, the face's otherwise.
  const lastFailure = camera?.lastFailure;
  const retakes = lastFailure === 'DOCUMENT_NUMBER_MISMATCH' ? 'documentFront' : 'face';
  const notice = step.retake.next?.notice ?? (lastFailure && kind === retakes ? wordsForCameraFailure(lastFailure) : undefined);
  capturePhoto(container, {
    kind,
    ...(notice ? { notice } : {}),
    extra: phoneHandoff({
      qr: client.signingQr,
      sendLink: (channel) => client.sendSigningLink({ channel }),
      canSend: page.phoneOnRecord,
      finished: async () => {
        const next = await client.signingPage();
        return next.state !== 'act' || next.requirements?.camera.verified === true;
      },
      onFinished: () => void step.reload(),
    }),
    send: async (photo) => {
      let answer: SigningView;
      try {
        answer = await client.signingPhoto({ kind, image: await base64Of(photo) });
      } catch (error) {
        if (error instanceof ApiFailure && error.is(...ENDS_THE_STEP)) {
          await step.reload();
          return;
        }
        // The document held no face, or another number: it is the document's photo that must be taken again.
        if (error instanceof ApiFailure && error.is('DOCUMENT_NO_FACE', 'DOCUMENT_NUMBER_MISMATCH')) {
          step.retake.next = { kind: 'documentFront', notice: wordsFor(error) };
          await step.reload();
          return;
        }
        throw new Error(wordsFor(error));
      }
      step.retake.next = undefined;
      const after = answer.requirements.camera;
      // Compared and not matching: the face is taken again, with the reason shown.
      if (kind === 'face' && !after.verified && after.captured.face && after.failures > (camera?.failures ?? 0)) {
        step.retake.next = { kind: 'face', notice: t('faceMismatch') };
      }
      await step.reload();
    },
  });
}
