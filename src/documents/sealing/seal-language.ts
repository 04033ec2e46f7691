import type { ParticipantRow } from '../../db/schema.js';
import { type Language, personLanguage } from '../../organizations/languages.js';
import { spanishDate } from '../../text/spanish-dates.js';
import { en } from './labels/en.js';
import { es } from './labels/es.js';
import { fr } from './labels/fr.js';
import { pt } from './labels/pt.js';
import type { SealLabels } from './labels/seal-labels.js';

export type { SealLabels } from './labels/seal-labels.js';

/** Each language's texts and the Intl locale its dates are written in. */
const LANGUAGES: Record<Language, { labels: SealLabels; intl: string }> = {
  es: { labels: es, intl: 'es' },
  en: { labels: en, intl: 'en-GB' },
  pt: { labels: pt, intl: 'pt-BR' },
  fr: { labels: fr, intl: 'fr-FR' },
};

/** How the seal writes texts and times for one organization. */
export interface SealLocale {
  language: Language;
  timeZone: string;
  labels: SealLabels;
  /** `5 de marzo de 2025, 09:03:22 GMT-5`, in the organization's time zone. */
  dateTime(iso: string): string;
  /** The readable time, the time zone's name beside it (the offset alone names no zone), then the stored UTC instant. */
  dateTimeWithUtc(iso: string): string;
  /**
   * The `signDate` text, of the day in the time zone: `05 de marzo de 2025` (docs/real-service.md §2.5),
   * `5 March 2025`, `5 de março de 2025`, `5 mars 2025`.
   */
  signDate(iso: string): string;
}

function parseInstant(iso: string): Date | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * Building the formatters takes milliseconds (ICU loads the locale's data) and they never change:
 * one per language and time zone, kept for the life of the process (the time zones are the
 * organizations' settings, a handful).
 */
const locales = new Map<string, SealLocale>();

export function sealLocale(language: Language, timeZone: string): SealLocale {
  const key = `${language} ${timeZone}`;
  const known = locales.get(key);
  if (known) return known;
  const locale = makeSealLocale(language, timeZone);
  locales.set(key, locale);
  return locale;
}

function makeSealLocale(language: Language, timeZone: string): SealLocale {
  const { labels, intl } = LANGUAGES[language];
  const dateTimeFormat = new Intl.DateTimeFormat(intl, {
    timeZone,
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  });
  const dayParts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
  const longDay = new Intl.DateTimeFormat(intl, { timeZone, year: 'numeric', month: 'long', day: 'numeric' });
  const dateTime = (iso: string) => {
    const date = parseInstant(iso);
    return date ? dateTimeFormat.format(date) : iso;
  };
  return {
    language,
    timeZone,
    labels,
    dateTime,
    dateTimeWithUtc: (iso) => `${dateTime(iso)} ${timeZone} (${iso})`,
    signDate(iso) {
      const date = parseInstant(iso);
      if (!date) return iso;
      if (language !== 'es') return longDay.format(date);
      const part = (type: string) => Number(dayParts.formatToParts(date).find((p) => p.type === type)?.value);
      // A formatted month is always one of the twelve, so the fallback is never written.
      return spanishDate({ year: part('year'), month: part('month'), day: part('day') }, { twoDigitDay: true }) ?? iso;
    },
  };
}

/**
 * The language of a process's final files (the sealed PDFs' mark and certificate, the stand-alone
 * certificate): the participants' own when they all read the same one, else the organization's,
 * which is what their organization answers for whatever each person reads (issue 41).
 */
export function finalFilesLanguage(participants: readonly Pick<ParticipantRow, 'language'>[], organization: Language): Language {
  const languages = new Set(participants.map((participant) => personLanguage(participant.language, organization)));
  const [only] = languages;
  return languages.size === 1 && only !== undefined ? only : organization;
}
