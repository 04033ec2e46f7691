import { DomainError } from '../../src/domain-error.js';
import { errorAnswer } from '../../src/http/errors.js';

/** How the API would answer what a call threw: its status and message, as app.ts maps them. */
export function answerOf(error: unknown): { statusCode: number; message: string } {
  const answer = error instanceof DomainError ? errorAnswer(error) : undefined;
  if (!answer) throw new Error(`expected a refusal, got ${String(error)}`);
  return { statusCode: answer.status, message: answer.message };
}

/** The answer to a call that must be refused. */
export async function refusal(promise: Promise<unknown>): Promise<{ statusCode: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return answerOf(error);
}
