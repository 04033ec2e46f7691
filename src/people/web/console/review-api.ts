/* The review queue's and the process page's calls (src/console/review, src/console/process-actions). */
import type { ReviewDecision, ReviewItem, ReviewPhoto } from '../../../console/review/contract.js';
import { call } from './api.js';

export type { ReviewDecision, ReviewItem };

export async function reviewQueue(): Promise<ReviewItem[]> {
  return ((await (await call('/console/api/review')).json()) as { data: ReviewItem[] }).data;
}

/** The photo's address: the page's own origin, so the browser sends the session's cookie and nothing else can. */
export function reviewPhotoPath(item: ReviewItem, photo: ReviewPhoto): string {
  return `/console/api/review/photo?${new URLSearchParams({ kind: item.kind, code: item.code, photo })}`;
}

export async function decide(item: ReviewItem, decision: ReviewDecision, reason: string): Promise<void> {
  await call('/console/api/review/decide', { kind: item.kind, code: item.code, decision, reason });
}

export async function cancelProcess(code: string, reason: string): Promise<void> {
  await call('/console/api/process/cancel', { code, reason });
}

/** `participantCode`: the process code followed by the participant's id. */
export async function remind(participantCode: string): Promise<void> {
  await call('/console/api/process/remind', { code: participantCode });
}

export async function reactivate(code: string): Promise<{ notifications: number }> {
  return (await call('/console/api/process/reactivate', { code })).json();
}
