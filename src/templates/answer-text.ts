import { spanishDate } from '../text/spanish-dates.js';

/*
 * The text an answer reads as in the document, by the type of its question (docs/real-service.md
 * §2.3). One function for the filled Complete HTML (src/documents/creating/fill-template-html.ts)
 * and the fill page's live preview of the Mask HTML: the preview shows what the document will say.
 * Free of server code.
 */

/** What writing an answer reads of its question. */
export interface AnswerQuestion {
  type: string;
  options?: readonly { value: string; name?: string; label?: string }[] | undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NUMBER = /^(-?)(\d+)(?:\.(\d+))?$/;
const NIT = /^\d{2,}$/;

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** es-CO digits: `.` between thousands and `,` before the decimals (`1234.5` → `1.234,5`). */
function formatNumber(value: string): { negative: boolean; digits: string } | undefined {
  const match = NUMBER.exec(value);
  if (!match) return undefined;
  const integer = (match[2] ?? '').replace(/^0+(?=\d)/, '');
  const groups: string[] = [];
  for (let end = integer.length; end > 0; end -= 3) groups.unshift(integer.slice(Math.max(0, end - 3), end));
  const decimals = match[3];
  return { negative: match[1] === '-', digits: groups.join('.') + (decimals === undefined ? '' : `,${decimals}`) };
}

function formatDate(value: string): string | undefined {
  if (!isCalendarDate(value)) return undefined;
  // A calendar date has its three parts, so the defaults are never used.
  const [year = 0, month = 0, day = 0] = value.split('-').map(Number);
  return spanishDate({ year, month, day });
}

/** The text an answer reads as in the document (not for `image` and `signature`, which are not text). */
export function answerText(question: AnswerQuestion, value: string): string {
  switch (question.type) {
    case 'name':
      return value.toUpperCase();
    case 'select':
    case 'searchlist':
    case 'clausula': {
      const option = (question.options ?? []).find((candidate) => candidate.value === value);
      return option ? (option.label ?? option.name ?? value) : value;
    }
    case 'check':
      return value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '')
        .join(', ');
    case 'number': {
      const number = formatNumber(value);
      return number ? `${number.negative ? '-' : ''}${number.digits}` : value;
    }
    case 'currency': {
      const number = formatNumber(value);
      return number ? `${number.negative ? '-' : ''}$${number.digits}` : value;
    }
    case 'date':
      return formatDate(value) ?? value;
    case 'nit':
      return NIT.test(value) ? `${value.slice(0, -1)}-${value.slice(-1)}` : value;
    default:
      return value;
  }
}
