import Joi from 'joi';
import { compileAnswerPattern, MAX_PATTERN_WORK } from '../../templates/answer-pattern.js';
import { isCalendarDate } from '../../templates/answer-text.js';
import { applicability } from '../../templates/question-applicability.js';
import { OPTION_TYPES, type QuestionType, SIGNER_TYPES } from '../../templates/question-types.js';
import { QUESTION_TYPES, type Question, type TemplateBody } from '../../templates/schemas.js';
import { isValidPhone } from '../../veriface/phone.js';
import type { Answer } from '../schemas.js';
import type { AnswerRefusal } from './answer-refusal.js';

export type AnswersResult = { ok: true; answers: Record<string, string> } | { ok: false; message: string };

/** One refused answer: the question (or key) it is about, null for the answers as a whole, and /document/save's message. */
export interface AnswerProblem {
  name: string | null;
  message: string;
  reason: AnswerRefusal;
}

export type AnswersReport = { ok: true; answers: Record<string, string> } | { ok: false; problems: [AnswerProblem, ...AnswerProblem[]] };

/** The longest answer accepted, in characters. */
export const MAX_ANSWER_LENGTH = 10_000;

/** The longest `image` answer accepted, in characters of its data URI: 8 MB of base64. */
export const MAX_IMAGE_LENGTH = 8 * 1024 * 1024;

/** Types whose answer is free text, so `maxlength` and `regex` apply to it: all but choices, checks and what the signer answers. */
const FREE_TEXT_TYPES: ReadonlySet<QuestionType> = new Set(
  QUESTION_TYPES.filter((type) => !OPTION_TYPES.has(type) && !SIGNER_TYPES.has(type) && type !== 'check'),
);

const NUMBER = /^-?\d+(\.\d+)?$/;
const DIGITS = /^\d+$/;
const IDENTIFICATION = /^[A-Z]+ [A-Za-z0-9-]+$/;
const IMAGE_DATA_URI = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]*={0,2})$/i;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

const emailSchema = Joi.string().email({ tlds: { allow: false } });

/** A PNG or JPEG image as a base64 data URI whose bytes start like the type it declares. */
export function isImageDataUri(value: string): boolean {
  const match = IMAGE_DATA_URI.exec(value);
  const payload = match?.[2];
  if (!match || !payload || payload.length % 4 !== 0) return false;
  const head = Buffer.from(payload.slice(0, 12), 'base64');
  const signature = match[1]?.toLowerCase() === 'png' ? PNG_SIGNATURE : JPEG_SIGNATURE;
  return signature.every((byte, i) => head[i] === byte);
}

/** Joi's wording for a value outside a list. */
function mustBeOneOf(label: string, allowed: readonly string[]): string {
  if (allowed.length === 0) return `${label} is not allowed`;
  return `${label} must be ${allowed.length === 1 ? '' : 'one of '}[${allowed.join(', ')}]`;
}

/** A `min`/`max` that is a number, as a number; `"now"` and other words are not numeric limits. */
function numericLimit(limit: number | string | undefined): number | undefined {
  if (typeof limit === 'number') return Number.isFinite(limit) ? limit : undefined;
  if (typeof limit === 'string' && NUMBER.test(limit)) return Number(limit);
  return undefined;
}

type Checked = { ok: true; value: string } | { ok: false; message: string; reason: AnswerRefusal };

const refuse = (reason: AnswerRefusal, message: string): Checked => ({ ok: false, message, reason });

/** The checks of one non-empty answer by the type of its question; answers the value to store. */
function checkAnswer(question: Question, value: string): Checked {
  const label = `"${question.name}"`;
  const type = question.type;

  if (type === 'image') {
    if (value.length > MAX_IMAGE_LENGTH) {
      return refuse('too-long', `${label} length must be less than or equal to ${MAX_IMAGE_LENGTH} characters long`);
    }
    return isImageDataUri(value) ? { ok: true, value } : refuse('image', `${label} must be a PNG or JPEG data URI`);
  }
  if (value.length > MAX_ANSWER_LENGTH) {
    return refuse('too-long', `${label} length must be less than or equal to ${MAX_ANSWER_LENGTH} characters long`);
  }

  if (OPTION_TYPES.has(type)) {
    const allowed = (question.options ?? []).map((option) => option.value);
    return allowed.includes(value) ? { ok: true, value } : refuse('option', mustBeOneOf(label, allowed));
  }

  if (type === 'check') {
    const allowed = question.values ?? [];
    const chosen: string[] = [];
    for (const entry of value.split(',').map((part) => part.trim())) {
      if (!allowed.includes(entry)) return refuse('option', mustBeOneOf(label, allowed));
      if (!chosen.includes(entry)) chosen.push(entry);
    }
    return { ok: true, value: chosen.join(', ') };
  }

  if (!FREE_TEXT_TYPES.has(type)) return { ok: true, value };

  const maxlength = question.maxlength;
  if (typeof maxlength === 'number' && Number.isFinite(maxlength) && value.length > maxlength) {
    return refuse('too-long', `${label} length must be less than or equal to ${maxlength} characters long`);
  }

  let stored = value;
  switch (type) {
    case 'email':
      if (emailSchema.validate(value).error) return refuse('email', `${label} must be a valid email`);
      stored = value.toLowerCase();
      break;
    case 'phone':
      if (!isValidPhone(value)) {
        return refuse('phone', `${label} must be a valid phone number in the format +[country code][number]`);
      }
      break;
    case 'number':
    case 'currency': {
      if (!NUMBER.test(value)) return refuse('number', `${label} must be a number`);
      const amount = Number(value);
      const min = numericLimit(question.min);
      if (min !== undefined && amount < min) return refuse('min', `${label} must be greater than or equal to ${min}`);
      const max = numericLimit(question.max);
      if (max !== undefined && amount > max) return refuse('max', `${label} must be less than or equal to ${max}`);
      break;
    }
    case 'date':
      if (!isCalendarDate(value)) return refuse('date', `${label} must be in YYYY-MM-DD format`);
      break;
    case 'nit':
      if (!DIGITS.test(value)) return refuse('digits', `${label} must only contain digits`);
      break;
    case 'identification':
      if (!IDENTIFICATION.test(value)) {
        return refuse('identification', `${label} must be a document type and a number, e.g. "CC 1084340519"`);
      }
      break;
    default:
      break;
  }

  // The template's regex was checked when it was saved; one refused there (a template stored before
  // a rule existed) is not held against the answer.
  const compiled = typeof question.regex === 'string' ? compileAnswerPattern(question.regex) : undefined;
  if (compiled?.ok && !compiled.pattern.test(value)) {
    return refuse('pattern', `${label} with value "${value}" fails to match the required pattern: ${compiled.pattern.text}`);
  }
  return { ok: true, value: stored };
}

/**
 * Checks the answers against the template and answers every refusal, in the order /document/save
 * meets them: the keys of `data` first (a question of the template, once, not a signature), then
 * each question asked, in the template's order. The values the document is filled with otherwise.
 */
export function checkAnswers(body: TemplateBody, data: readonly Answer[]): AnswersReport {
  const questions = new Map<string, Question>();
  for (const question of body.config) if (!questions.has(question.name)) questions.set(question.name, question);

  const given = new Map<string, string>();
  const keyProblems: AnswerProblem[] = [];
  for (const { key, value } of data) {
    const question = questions.get(key);
    if (!question) keyProblems.push({ name: key, reason: 'unknown', message: `"${key}" is not a question of the template` });
    else if (given.has(key)) keyProblems.push({ name: key, reason: 'duplicate', message: `"data" contains a duplicate answer for "${key}"` });
    else if (question.type === 'signature') keyProblems.push({ name: key, reason: 'signed', message: `"${key}" is signed by the signer, not answered` });
    else given.set(key, value);
  }
  const [firstKeyProblem, ...otherKeyProblems] = keyProblems;
  if (firstKeyProblem) return { ok: false, problems: [firstKeyProblem, ...otherKeyProblems] };

  const preFill = body.preFill ?? [];
  const current = new Map<string, string>();
  for (const entry of preFill) current.set(entry.name, entry.value);
  for (const question of questions.values()) {
    if (OPTION_TYPES.has(question.type) && question.value !== undefined && !given.has(question.name)) {
      current.set(question.name, question.value);
    }
  }
  for (const [key, value] of given) current.set(key, value);

  let work = 0;
  for (const [key, value] of given) {
    const regex = questions.get(key)?.regex;
    const compiled = typeof regex === 'string' ? compileAnswerPattern(regex) : undefined;
    if (compiled?.ok) work += value.length * compiled.pattern.size;
  }
  if (work > MAX_PATTERN_WORK) {
    return {
      ok: false,
      problems: [
        {
          name: null,
          reason: 'too-costly',
          message: `PATTERNS_TOO_COSTLY: the answers are too long for the template's patterns to check (${work} steps, at most ${MAX_PATTERN_WORK})`,
        },
      ],
    };
  }

  const applies = applicability(body.config, current);
  const required = new Set(body.sign);
  const entries: [string, string][] = [];
  const problems: AnswerProblem[] = [];
  for (const entry of preFill) {
    if (!questions.has(entry.name)) entries.push([entry.name, entry.value]);
  }

  for (const question of questions.values()) {
    // Answers to questions that are not asked are dropped, and so are their defaults.
    if (!applies(question)) continue;
    let value = current.get(question.name);
    const answer = given.get(question.name);
    if (answer !== undefined && answer !== '') {
      const checked = checkAnswer(question, answer);
      if (!checked.ok) {
        problems.push({ name: question.name, reason: checked.reason, message: checked.message });
        continue;
      }
      value = checked.value;
    }
    if (required.has(question.name) && !SIGNER_TYPES.has(question.type) && (value === undefined || value === '')) {
      problems.push({ name: question.name, reason: 'required', message: `"${question.name}" is required` });
      continue;
    }
    if (value !== undefined) entries.push([question.name, value]);
  }
  const [firstProblem, ...otherProblems] = problems;
  if (firstProblem) return { ok: false, problems: [firstProblem, ...otherProblems] };

  // fromEntries defines own properties, so no question name can reach the object's prototype.
  return { ok: true, answers: Object.fromEntries(entries) };
}

/** Checks the integrator's answers against the template and answers the values the document is filled with, or the first refusal. */
export function resolveAnswers(body: TemplateBody, data: readonly Answer[]): AnswersResult {
  const report = checkAnswers(body, data);
  if (report.ok) return report;
  return { ok: false, message: report.problems[0].message };
}
