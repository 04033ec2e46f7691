import { checkAnswers } from '../documents/creating/template-answers.js';
import type { Answer } from '../documents/schemas.js';
import { DomainError, fail, invalid } from '../domain-error.js';
import { answerMessage } from '../error-catalogue.js';
import type { TemplateBody } from '../templates/schemas.js';

/**
 * The question whose answer is the e-mail of who completes the form: the last of the template's
 * preBuildData, which must be an e-mail question (that person is the one the form is sent to).
 */
export function completerQuestion(body: TemplateBody): string {
  if (!body.preBuild) throw fail('PREBUILD_NOT_ENABLED', "the template's preBuild is false");
  const last = body.preBuildData?.at(-1);
  const question = last === undefined ? undefined : body.config.find((candidate) => candidate.name === last);
  if (question?.type !== 'email') {
    throw fail('PREBUILD_NOT_ENABLED', "the last question of the template's preBuildData must be the e-mail question of who completes the form");
  }
  return question.name;
}

/**
 * The answers a prebuilt process starts with: only questions of preBuildData, the completer's
 * e-mail question answered with `emailTo`, and each value checked exactly as /document/save checks
 * that question's answer (the questions left for the completer are not asked yet, so their absence
 * is no refusal). Answers them as given, which is what the form shows and locks.
 */
export function prefilledAnswers(body: TemplateBody, options: { preBuild: readonly Answer[]; emailTo: string }): Answer[] {
  const emailQuestion = completerQuestion(body);
  const allowed = body.preBuildData ?? [];
  for (const [i, { key }] of options.preBuild.entries()) {
    if (!allowed.includes(key)) throw invalid(`"preBuild[${i}].key" must be ${allowed.length === 1 ? '' : 'one of '}[${allowed.join(', ')}]`);
  }
  const given = options.preBuild.find((answer) => answer.key === emailQuestion);
  if (given && given.value.toLowerCase() !== options.emailTo.toLowerCase()) {
    throw invalid(`"emailTo" must be the answer to "${emailQuestion}", the last question of the template's preBuildData`);
  }
  const answers = given ? [...options.preBuild] : [...options.preBuild, { key: emailQuestion, value: options.emailTo }];
  const report = checkAnswers(body, answers);
  if (!report.ok) {
    const keys = new Set(answers.map((answer) => answer.key));
    const problem = report.problems.find((candidate) => candidate.name === null || keys.has(candidate.name));
    if (problem) throw new DomainError(answerMessage(problem.message));
  }
  return answers;
}

/**
 * The completer's answers joined to the prefilled ones, which win: an answer to a prefilled
 * question is taken only when it repeats that answer exactly. The page never sends them (it shows
 * them locked); this is what stops a request that does.
 */
export function withPrefilled(prefilled: readonly Answer[], data: readonly Answer[]): Answer[] {
  const locked = new Map(prefilled.map((answer) => [answer.key, answer.value]));
  for (const { key, value } of data) {
    const fixed = locked.get(key);
    if (fixed !== undefined && fixed !== value) throw fail('PREFILLED_ANSWER_LOCKED', `"${key}" was filled in beforehand and cannot be changed`);
  }
  return [...prefilled, ...data.filter((answer) => !locked.has(answer.key))];
}
