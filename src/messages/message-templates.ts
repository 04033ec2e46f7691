import type { EmailPayload } from '../outbox/types.js';
import { escapeHtml } from '../text/escape-html.js';

/** The variables of each template: a template cannot be rendered with one missing or one unknown. */
export type TemplateVariables = {
  'signing-invitation': { subject: string; signerName: string; processName: string; message: string; link: string };
  'signing-reminder': { signerName: string; processName: string; link: string };
  'process-cancelled': { signerName: string; processName: string; message: string };
  'otp-code': { code: string; minutes: number };
  'veriface-invitation': { personName: string; link: string };
  'process-finished': { processName: string; link: string };
  'continue-on-phone': { processName: string; link: string };
  'document-copy': { signerName: string; processName: string; link: string };
};

export type TemplateName = keyof TemplateVariables;

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

/*
 * Wording lives here and only here. `{{name}}` is replaced by the variable of that name: as it is in
 * the text, HTML-escaped in the html, on one line in the subject (a line break there would start a
 * new mail header). The one-time code stays out of the subject, which mail clients show in
 * notifications and on lock screens.
 */
const TEMPLATES = {
  'signing-invitation': {
    subject: '{{subject}}',
    text: `Hello {{signerName}},

You are invited to sign "{{processName}}".

{{message}}

Read and sign it here:
{{link}}`,
    html: `<p>Hello {{signerName}},</p>
<p>You are invited to sign <strong>{{processName}}</strong>.</p>
<p>{{message}}</p>
<p><a href="{{link}}">Read and sign it</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'signing-reminder': {
    subject: 'Reminder: "{{processName}}" is waiting for you',
    text: `Hello {{signerName}},

"{{processName}}" is still waiting for you. Read and sign it here:
{{link}}`,
    html: `<p>Hello {{signerName}},</p>
<p><strong>{{processName}}</strong> is still waiting for you.</p>
<p><a href="{{link}}">Read and sign it</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'process-cancelled': {
    subject: '"{{processName}}" was cancelled',
    text: `Hello {{signerName}},

"{{processName}}" was cancelled and can no longer be signed.

{{message}}`,
    html: `<p>Hello {{signerName}},</p>
<p><strong>{{processName}}</strong> was cancelled and can no longer be signed.</p>
<p>{{message}}</p>`,
  },
  'otp-code': {
    subject: 'Your verification code',
    text: 'Your verification code is {{code}}. It is valid for {{minutes}} minutes. Do not share it with anyone.',
    html: `<p>Your verification code is <strong>{{code}}</strong>.</p>
<p>It is valid for {{minutes}} minutes. Do not share it with anyone.</p>`,
  },
  'veriface-invitation': {
    subject: 'Validate your identity',
    text: `Hello {{personName}},

Please validate your identity with a short face check here:
{{link}}`,
    html: `<p>Hello {{personName}},</p>
<p>Please validate your identity with a short face check.</p>
<p><a href="{{link}}">Validate my identity</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'process-finished': {
    subject: '"{{processName}}" is signed',
    text: `Everyone has signed "{{processName}}".

Download the signed document here:
{{link}}`,
    html: `<p>Everyone has signed <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Download the signed document</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'continue-on-phone': {
    subject: 'Continue "{{processName}}" on your phone',
    text: 'Continue "{{processName}}" on your phone here: {{link}}',
    html: `<p>Continue <strong>{{processName}}</strong> on your phone.</p>
<p><a href="{{link}}">Continue</a></p>
<p>Or open this address: {{link}}</p>`,
  },
  'document-copy': {
    subject: 'Your copy of "{{processName}}"',
    text: `Hello {{signerName}},

You asked for a copy of "{{processName}}". Read or download it at any time here:
{{link}}`,
    html: `<p>Hello {{signerName}},</p>
<p>You asked for a copy of <strong>{{processName}}</strong>.</p>
<p><a href="{{link}}">Read or download it</a> at any time.</p>
<p>Or open this address: {{link}}</p>`,
  },
} as const satisfies Record<TemplateName, RenderedMessage>;

type PlaceholdersOf<S> = S extends `${string}{{${infer Name}}}${infer Rest}` ? Name | PlaceholdersOf<Rest> : never;
type PartsOf<N extends TemplateName> = (typeof TEMPLATES)[N][keyof RenderedMessage];
// A part typed plain `string` would hide its placeholders from the check, so it counts as a mistake.
type TemplateMistakes = {
  [N in TemplateName]: string extends PartsOf<N> ? `${N}: not a literal` : Exclude<PlaceholdersOf<PartsOf<N>>, keyof TemplateVariables[N]>;
}[TemplateName];
type MustBeNone<T extends never> = T;
/** Does not compile while a template above uses a `{{name}}` its variables lack; the error names it. */
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

export function renderMessage<N extends TemplateName>(name: N, variables: TemplateVariables[N]): RenderedMessage {
  const template: RenderedMessage = TEMPLATES[name];
  return {
    subject: fill(template.subject, variables, oneLine),
    text: fill(template.text, variables, (value) => value),
    html: `<!doctype html>\n<html><body>\n${fill(template.html, variables, asHtml)}\n</body></html>\n`,
  };
}

/** An e-mail for the outbox, rendered from a template and named after it for the operator's listing. */
export function templatedEmail<N extends TemplateName>(to: string, name: N, variables: TemplateVariables[N]): EmailPayload {
  return { to, template: name, ...renderMessage(name, variables) };
}
