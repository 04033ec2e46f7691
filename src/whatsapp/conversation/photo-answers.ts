import { DomainError } from '../../domain-error.js';
import type { WordKey } from '../../people/words-chat.js';
import { IMAGE_MAX_BYTES } from '../../veriface/images.js';
import type { ChatContext } from '../chat-context.js';
import { ChatMediaError } from '../message/chat-message.js';

/** The catalogue code of a refusal (`CODE: detail`), or undefined for anything that is not one. */
function refusalCode(error: unknown): string | undefined {
  if (!(error instanceof DomainError)) return undefined;
  return /^[A-Z][A-Z0-9_]+/.exec(error.message)?.[0];
}

/** Runs a step; a refusal of the catalogue is answered by `refused`, anything else is thrown on (the job retries it). */
export async function answeringRefusals(act: () => Promise<void>, refused: (code: string) => Promise<void>): Promise<void> {
  try {
    await act();
  } catch (error) {
    const code = refusalCode(error);
    if (code === undefined) throw error;
    await refused(code);
  }
}

/** What a person reads when a photo of theirs is refused, by the code the photo checks and the face matcher refuse with. */
const PHOTO_REFUSALS: Readonly<Record<string, WordKey>> = {
  IMAGE_EMPTY: 'photoUnreadable',
  IMAGE_NOT_JPEG_OR_PNG: 'photoUnreadable',
  IMAGE_UNREADABLE: 'photoUnreadable',
  IMAGE_TOO_SMALL: 'photoTooSmall',
  IMAGE_TOO_LARGE: 'photoTooLarge',
  NO_FACE: 'photoNoFace',
  MULTIPLE_FACES: 'photoManyFaces',
  FACE_TOO_SMALL: 'photoFaceSmall',
  FACE_BLURRY: 'photoBlurry',
  DOCUMENT_NO_FACE: 'photoDocumentNoFace',
  PHOTO_ATTEMPTS_EXCEEDED: 'photoTooMany',
  FACE_COMPARISON_UNDER_WAY: 'photoComparisonUnderWay',
  FACE_COMPARISONS_PER_HOUR_EXCEEDED: 'photoComparisonsPerHour',
  FACE_COMPARISONS_EXCEEDED: 'photoComparisonsUsedUp',
  DOCUMENT_NUMBER_MISMATCH: 'photoNumberMismatch',
};

function photoRefusal(code: string): WordKey | undefined {
  return Object.hasOwn(PHOTO_REFUSALS, code) ? PHOTO_REFUSALS[code] : undefined;
}

/**
 * Which photo to ask for again after the matcher could not use one: the document's when it shows
 * no portrait or another number than the declared one, the face's for a face it could not use, the one just sent when unreadable. Refusals
 * before the photo was kept ask for the same photo again, which the step already is.
 */
function retakeAfter<K extends string>(code: string, sent: K): K | 'face' | 'documentFront' | undefined {
  switch (code) {
    case 'DOCUMENT_NO_FACE':
    case 'DOCUMENT_NUMBER_MISMATCH':
      return 'documentFront';
    case 'NO_FACE':
    case 'MULTIPLE_FACES':
    case 'FACE_TOO_SMALL':
    case 'FACE_BLURRY':
      return 'face';
    case 'IMAGE_UNREADABLE':
      return sent;
    default:
      return undefined;
  }
}

/**
 * How the conversation answers a photo's refusal: the words, and the photo to ask for again. Any
 * other failure is thrown on (the job retries it).
 */
export function photoRefusalAnswer<K extends string>(error: unknown, sent: K): { words: WordKey; retake: K | 'face' | 'documentFront' | undefined } {
  const code = refusalCode(error);
  const words = code === undefined ? undefined : photoRefusal(code);
  if (code === undefined || words === undefined) throw error;
  return { words, retake: retakeAfter(code, sent) };
}

/** The bytes of a photo the person sent, or undefined when the provider refused it (too large, gone). */
export async function downloadPhoto(ctx: ChatContext, mediaId: string): Promise<Buffer | undefined> {
  try {
    return (await ctx.chatMedia.download(mediaId, { maxBytes: IMAGE_MAX_BYTES })).bytes;
  } catch (error) {
    if (error instanceof ChatMediaError) return undefined;
    throw error;
  }
}
