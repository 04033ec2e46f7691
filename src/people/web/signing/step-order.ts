import type { SigningRequirements } from '../../contract.js';
import type { PhotoKind } from '../camera.js';
import type { Retake } from './step-context.js';

export type SigningStep = 'otp' | PhotoKind | 'finish';

/** The steps the participant's validations ask for, in order: code, photos, then signing. */
export function stepsOf(requirements: SigningRequirements): SigningStep[] {
  const steps: SigningStep[] = [];
  if (requirements.otpCode.required) steps.push('otp');
  if (requirements.camera.required) {
    if (requirements.camera.mode === 'identification') {
      steps.push('documentFront');
      if (requirements.camera.documentBack) steps.push('documentBack');
    }
    steps.push('face');
  }
  steps.push('finish');
  return steps;
}

/** The first step not yet met; a photo to take again comes before any other photo. */
export function nextStep(requirements: SigningRequirements, retake: Retake | undefined): SigningStep {
  if (requirements.otpCode.required && !requirements.otpCode.verified) return 'otp';
  const camera = requirements.camera;
  if (camera.required && !camera.verified) {
    if (retake) return retake.kind;
    if (camera.mode === 'identification' && !camera.captured.documentFront) return 'documentFront';
    if (camera.documentBack && !camera.captured.documentBack) return 'documentBack';
    return 'face';
  }
  return 'finish';
}
