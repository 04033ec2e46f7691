import type { AttachmentAsked, SigningRequirements } from '../../contract.js';
import type { PhotoKind } from '../camera.js';
import type { Retake } from './step-context.js';

export type SigningStep = 'otp' | PhotoKind | 'attachments' | 'finish';

/** The files asked of the participant, and whether they said they are done with them (they may come back to replace one). */
export interface AttachmentsState {
  asked: AttachmentAsked[];
  reviewed: boolean;
}

/** The steps the participant's validations ask for, in order: code, photos, the files asked, then signing (when there is a document to sign). */
export function stepsOf(requirements: SigningRequirements, attachments: AttachmentsState, signs: boolean): SigningStep[] {
  const steps: SigningStep[] = [];
  if (requirements.otpCode.required) steps.push('otp');
  if (requirements.camera.required) {
    if (requirements.camera.mode === 'identification') {
      steps.push('documentFront');
      if (requirements.camera.documentBack) steps.push('documentBack');
    }
    steps.push('face');
  }
  if (attachments.asked.length > 0) steps.push('attachments');
  if (signs) steps.push('finish');
  return steps;
}

/** The first step not yet met; a photo to take again comes before any other photo; a required file not given keeps the files' step. */
export function nextStep(requirements: SigningRequirements, retake: Retake | undefined, attachments: AttachmentsState): SigningStep {
  if (requirements.otpCode.required && !requirements.otpCode.verified) return 'otp';
  const camera = requirements.camera;
  if (camera.required && !camera.verified) {
    if (retake) return retake.kind;
    if (camera.mode === 'identification' && !camera.captured.documentFront) return 'documentFront';
    if (camera.documentBack && !camera.captured.documentBack) return 'documentBack';
    return 'face';
  }
  if (attachments.asked.length > 0 && (!attachments.reviewed || attachments.asked.some((file) => !file.optional && !file.given))) return 'attachments';
  return 'finish';
}
