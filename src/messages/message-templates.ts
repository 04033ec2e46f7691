import type { Language } from '../organizations/languages.js';
import type { EmailPayload } from '../outbox/types.js';
import { MESSAGE_WORDS, type MessageName, type MessageWords } from '../people/words-messages.js';
import { escapeHtml } from '../text/escape-html.js';

/** The variables of each template: a template cannot be rendered with one missing or one unknown. */
export type TemplateVariables = {
  'signing-invitation': { subject: string; signerName: string; processName: string; message: string; link: string };
  'signing-reminder': { signerName: string; processName: string; link: string };
  'process-cancelled': { signerName: string; processName: string; message: string };
  'otp-code': { code: string; minutes: number };
  'veriface-invitation': { personName: string; link: string };
  'process-finished': { processName: string; link: string };
  'attachments-approved': { processName: string; link: string };
  'document-for-printing': { signerName: string; processName: string; message: string };
  'continue-on-phone': { processName: string; link: string };
  'document-copy': { signerName: string; processName: string; link: string };
  'prebuilt-invitation': { processName: string; organization: string; link: string };
  'reader-invitation': { readerName: string; processName: string; message: string; link: string };
  'reader-signed': { readerName: string; processName: string; participantName: string; link: string };
  'reader-approved': { readerName: string; processName: string; participantName: string; link: string };
  'reader-rejected': { readerName: string; processName: string; participantName: string; link: string };
  'reader-cancelled': { readerName: string; processName: string; message: string; link: string };
  'reader-expired': { readerName: string; processName: string; link: string };
  'reader-reactivated': { readerName: string; processName: string; link: string };
  'reader-delegated': { readerName: string; processName: string; participantName: string; delegateName: string; link: string };
  'console-sign-in': { organization: string; link: string; code: string; minutes: number };
};

export type TemplateName = keyof TemplateVariables;

/** A message as sent: `{{name}}` replaced by the variable of that name in each of its parts. */
export type RenderedMessage = MessageWords;

type PlaceholdersOf<S> = S extends `${string}{{${infer Name}}}${infer Rest}` ? Name | PlaceholdersOf<Rest> : never;
type Part = keyof MessageWords;
type PlaceholdersIn<L extends Language, N extends TemplateName, P extends Part> = PlaceholdersOf<(typeof MESSAGE_WORDS)[L][N][P]>;
type PartsOf<L extends Language, N extends TemplateName> = (typeof MESSAGE_WORDS)[L][N][Part];
type VariableOf<N extends TemplateName> = keyof TemplateVariables[N] & string;
// A part typed plain `string` would hide its placeholders from the check, so it counts as a mistake.
type MistakesOf<L extends Language, N extends TemplateName> =
  string extends PartsOf<L, N>
    ? `${L} ${N}: not a literal`
    :
        | `${L} ${N}: unknown {{${Exclude<PlaceholdersOf<PartsOf<L, N>>, VariableOf<N>>}}}`
        | `${L} ${N}: never uses {{${Exclude<VariableOf<N>, PlaceholdersOf<PartsOf<L, N>>>}}}`
        // Each part says what the same part says in Spanish: a code, for one, stays out of every subject.
        | {
            [P in Part]: `${L} ${N} ${P}: {{${Exclude<PlaceholdersIn<L, N, P>, PlaceholdersIn<'es', N, P>> | Exclude<PlaceholdersIn<'es', N, P>, PlaceholdersIn<L, N, P>>}}} unlike es`;
          }[Part];
type TemplateMistakes =
  | { [L in Language]: { [N in TemplateName]: MistakesOf<L, N> }[TemplateName] }[Language]
  | Exclude<TemplateName, MessageName>
  | Exclude<MessageName, TemplateName>;
type MustBeNone<T extends never> = T;
/**
 * Does not compile while a message, in any language, uses a `{{name}}` its variables lack or leaves
 * one of them out, puts one in another part (subject, text, html) than Spanish does, or while the
 * catalogue and the variables name different messages; the error says which.
 */
// biome-ignore lint/correctness/noUnusedVariables: the type exists only to be checked by the compiler
type CheckedTemplates = MustBeNone<TemplateMistakes>;

const PLACEHOLDER = /\{\{([A-Za-z]+)\}\}/g;

function fill(template: string, variables: Readonly<Record<string, string | number>>, format: (value: string) => string): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
    // Unreachable through the types; a message with a visible {{name}} must still never go out.
    if (value === undefined) throw new Error(`Message template variable missing: ${name}`);
    return format(String(value));
  });
}

const oneLine = (value: string) => value.replace(/\s*[\r\n]+\s*/g, ' ');
const asHtml = (value: string) => escapeHtml(value).replace(/\r?\n/g, '<br>\n');

/**
 * The message in `language`, its words from the catalogue (src/people/words-messages.ts). `{{name}}`
 * is replaced by the variable of that name: as it is in the text, HTML-escaped in the html, on one
 * line in the subject (a line break there would start a new mail header).
 */
export function renderMessage<N extends TemplateName>(name: N, variables: TemplateVariables[N], language: Language): RenderedMessage {
  const words: MessageWords = MESSAGE_WORDS[language][name];
  return {
    subject: fill(words.subject, variables, oneLine),
    text: fill(words.text, variables, (value) => value),
    html: `<!doctype html>\n<html lang="${language}"><body>\n${fill(words.html, variables, asHtml)}\n</body></html>\n`,
  };
}

/** An e-mail for the outbox, rendered from a template in `language` and named after it for the operator's listing. */
export function templatedEmail<N extends TemplateName>(to: string, name: N, variables: TemplateVariables[N], language: Language): EmailPayload {
  return { to, template: name, ...renderMessage(name, variables, language) };
}
