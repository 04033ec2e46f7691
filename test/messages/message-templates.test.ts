import { describe, expect, it } from 'vitest';
import { renderMessage, type TemplateName, type TemplateVariables, templatedEmail } from '../../src/messages/message-templates.js';
import { escapeHtml } from '../../src/text/escape-html.js';

const invitation: TemplateVariables['signing-invitation'] = {
  subject: 'Purchase agreement: your signature is requested',
  signerName: 'Ana Gómez',
  processName: 'Purchase agreement',
  message: 'Please sign before Friday.',
  link: 'https://firma.test/sign/Xr3kT9',
};

describe('Every {{name}} is replaced by its variable in the subject, the text and the html', () => {
  it('signing-invitation: signer name, process name, the creator’s message, link', () => {
    const message = renderMessage('signing-invitation', invitation, 'en');
    expect(message.subject).toBe('Purchase agreement: your signature is requested');
    expect(message.text).toBe(
      'Hello Ana Gómez,\n\nYou are invited to sign "Purchase agreement".\n\nPlease sign before Friday.\n\nRead and sign it here:\nhttps://firma.test/sign/Xr3kT9',
    );
    expect(message.html).toContain('<p>Hello Ana Gómez,</p>');
    expect(message.html).toContain('<strong>Purchase agreement</strong>');
    expect(message.html).toContain('<p>Please sign before Friday.</p>');
    expect(message.html).toContain('<a href="https://firma.test/sign/Xr3kT9">Read and sign it</a>');
  });

  it('otp-code: the code and the minutes it is valid, and the code never in the subject', () => {
    const message = renderMessage('otp-code', { code: '482913', minutes: 10 }, 'en');
    expect(message.text).toBe('Your verification code is 482913. It is valid for 10 minutes. Do not share it with anyone.');
    expect(message.html).toContain('<strong>482913</strong>');
    expect(message.subject).not.toContain('482913');
  });

  it('veriface-invitation: person name and link', () => {
    const message = renderMessage('veriface-invitation', { personName: 'Luis', link: 'https://firma.test/v/abc' }, 'en');
    expect(message.text).toContain('Hello Luis,');
    expect(message.text).toContain('https://firma.test/v/abc');
    expect(message.html).toContain('<a href="https://firma.test/v/abc">');
  });

  it('process-finished: process name and link', () => {
    const message = renderMessage('process-finished', { processName: 'Lease', link: 'https://firma.test/d/1' }, 'en');
    expect(message.subject).toBe('"Lease" is signed');
    expect(message.text).toContain('https://firma.test/d/1');
  });

  it('signing-reminder: signer name, process name and link', () => {
    const message = renderMessage('signing-reminder', { signerName: 'Ana', processName: 'Lease', link: 'https://firma.test/s/1' }, 'en');
    expect(message.subject).toBe('Reminder: "Lease" is waiting for you');
    expect(message.text).toBe('Hello Ana,\n\n"Lease" is still waiting for you. Read and sign it here:\nhttps://firma.test/s/1');
  });

  it('process-cancelled: signer name, process name and the reason', () => {
    const message = renderMessage('process-cancelled', { signerName: 'Ana', processName: 'Lease', message: 'Wrong price' }, 'en');
    expect(message.subject).toBe('"Lease" was cancelled');
    expect(message.text).toBe('Hello Ana,\n\n"Lease" was cancelled and can no longer be signed.\n\nWrong price');
  });

  it('prebuilt-invitation: who prepared it, the process name and the link of its form', () => {
    const message = renderMessage('prebuilt-invitation', { processName: 'Lease', organization: 'Acme', link: 'https://firma.test/f/1' }, 'en');
    expect(message.subject).toBe('Complete "Lease"');
    expect(message.text).toContain('Acme prepared "Lease"');
    expect(message.html).toContain('<a href="https://firma.test/f/1">');
  });

  it('console-sign-in: the organization, the link and the code, the code never in the subject', () => {
    const message = renderMessage(
      'console-sign-in',
      { organization: 'Acme', link: 'https://firma.test/console#sign-in=abc', code: '482913', minutes: 15 },
      'en',
    );
    expect(message.subject).toBe('Sign in to the Acme console');
    expect(message.subject).not.toContain('482913');
    expect(message.text).toContain('https://firma.test/console#sign-in=abc');
    expect(message.text).toContain('482913');
    expect(message.text).toContain('15 minutes');
    expect(message.html).toContain('<a href="https://firma.test/console#sign-in=abc">');
  });

  it("reader-signed: the reader, who signed, the process name and the reader's link; nothing asks the reader to sign", () => {
    const message = renderMessage(
      'reader-signed',
      { readerName: 'Rosa', processName: 'Lease', participantName: 'Ana', link: 'https://firma.test/read/1' },
      'en',
    );
    expect(message.subject).toBe('Ana signed "Lease"');
    expect(message.text).toBe('Hello Rosa,\n\nAna signed "Lease".\n\nSee it here:\nhttps://firma.test/read/1');
    expect(message.html).toContain('<a href="https://firma.test/read/1">See the document</a>');
  });

  it('no {{ is left in any template', () => {
    const rendered: Record<TemplateName, string> = {
      'signing-invitation': JSON.stringify(renderMessage('signing-invitation', invitation, 'en')),
      'otp-code': JSON.stringify(renderMessage('otp-code', { code: '1', minutes: 1 }, 'en')),
      'veriface-invitation': JSON.stringify(renderMessage('veriface-invitation', { personName: 'A', link: 'L' }, 'en')),
      'process-finished': JSON.stringify(renderMessage('process-finished', { processName: 'P', link: 'L' }, 'en')),
      'attachments-approved': JSON.stringify(renderMessage('attachments-approved', { processName: 'P', link: 'L' }, 'en')),
      'document-for-printing': JSON.stringify(renderMessage('document-for-printing', { signerName: 'A', processName: 'P', message: 'M' }, 'en')),
      'signing-reminder': JSON.stringify(renderMessage('signing-reminder', { signerName: 'A', processName: 'P', link: 'L' }, 'en')),
      'process-cancelled': JSON.stringify(renderMessage('process-cancelled', { signerName: 'A', processName: 'P', message: 'M' }, 'en')),
      'continue-on-phone': JSON.stringify(renderMessage('continue-on-phone', { processName: 'P', link: 'L' }, 'en')),
      'document-copy': JSON.stringify(renderMessage('document-copy', { signerName: 'A', processName: 'P', link: 'L' }, 'en')),
      'prebuilt-invitation': JSON.stringify(renderMessage('prebuilt-invitation', { processName: 'P', organization: 'O', link: 'L' }, 'en')),
      'reader-invitation': JSON.stringify(renderMessage('reader-invitation', { readerName: 'R', processName: 'P', message: 'M', link: 'L' }, 'en')),
      'reader-signed': JSON.stringify(renderMessage('reader-signed', { readerName: 'R', processName: 'P', participantName: 'A', link: 'L' }, 'en')),
      'reader-approved': JSON.stringify(renderMessage('reader-approved', { readerName: 'R', processName: 'P', participantName: 'A', link: 'L' }, 'en')),
      'reader-rejected': JSON.stringify(renderMessage('reader-rejected', { readerName: 'R', processName: 'P', participantName: 'A', link: 'L' }, 'en')),
      'reader-cancelled': JSON.stringify(renderMessage('reader-cancelled', { readerName: 'R', processName: 'P', message: 'M', link: 'L' }, 'en')),
      'reader-expired': JSON.stringify(renderMessage('reader-expired', { readerName: 'R', processName: 'P', link: 'L' }, 'en')),
      'reader-reactivated': JSON.stringify(renderMessage('reader-reactivated', { readerName: 'R', processName: 'P', link: 'L' }, 'en')),
      'reader-delegated': JSON.stringify(
        renderMessage('reader-delegated', { readerName: 'R', processName: 'P', participantName: 'A', delegateName: 'D', link: 'L' }, 'en'),
      ),
      'console-sign-in': JSON.stringify(renderMessage('console-sign-in', { organization: 'O', link: 'L', code: 'C', minutes: 1 }, 'en')),
    };
    for (const text of Object.values(rendered)) expect(text).not.toMatch(/\{\{|\}\}/);
  });

  it('a variable is inserted once, never read as a template itself', () => {
    const message = renderMessage('signing-invitation', { ...invitation, signerName: '{{link}}' }, 'en');
    expect(message.text).toContain('Hello {{link}},');
  });
});

describe('In the html every variable is HTML-escaped; the text keeps it as written', () => {
  it('<script> arrives as text, not as markup', () => {
    const message = renderMessage('signing-invitation', { ...invitation, message: '<script>alert("x")</script>' }, 'en');
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>');
    expect(message.text).toContain('<script>alert("x")</script>');
  });

  it('quotes and ampersands cannot leave an attribute', () => {
    const message = renderMessage('process-finished', { processName: 'Tom & Jerry', link: 'https://x.test/?a=1&b="><img src=x>' }, 'en');
    expect(message.html).toContain('<a href="https://x.test/?a=1&amp;b=&quot;&gt;&lt;img src=x&gt;">');
    expect(message.html).toContain('<strong>Tom &amp; Jerry</strong>');
  });

  it("the creator's line breaks become <br> in the html", () => {
    const message = renderMessage('signing-invitation', { ...invitation, message: 'Line one\nLine two' }, 'en');
    expect(message.html).toContain('<p>Line one<br>\nLine two</p>');
    expect(message.text).toContain('Line one\nLine two');
  });

  it('escapeHtml escapes the five characters that matter', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('The subject stays on one line', () => {
  it('line breaks in a variable become a space, so no header can be injected', () => {
    const message = renderMessage('process-finished', { processName: 'Lease\r\nBcc: victim@example.test', link: 'L' }, 'en');
    expect(message.subject).toBe('"Lease Bcc: victim@example.test" is signed');
  });
});

describe('A missing or unknown variable, or an unknown language, does not compile', () => {
  it('is refused by the types (checked by tsc, never run)', () => {
    const typeChecks = () => {
      // @ts-expect-error minutes is missing
      renderMessage('otp-code', { code: '1' }, 'en');
      // @ts-expect-error signer is not a variable of signing-invitation
      renderMessage('signing-invitation', { ...invitation, signer: 'Ana' }, 'en');
      // @ts-expect-error no such template
      renderMessage('welcome', {}, 'en');
      // @ts-expect-error a variable of another template
      renderMessage('veriface-invitation', { processName: 'P', link: 'L' }, 'en');
      // @ts-expect-error a language the messages are not written in
      renderMessage('otp-code', { code: '1', minutes: 1 }, 'de');
    };
    expect(typeof typeChecks).toBe('function');
  });
});

describe('templatedEmail makes an outbox e-mail named after its template', () => {
  it('to, template, subject, text and html', () => {
    const mail = templatedEmail('ana@example.test', 'otp-code', { code: '482913', minutes: 5 }, 'en');
    expect(mail).toEqual({ to: 'ana@example.test', template: 'otp-code', ...renderMessage('otp-code', { code: '482913', minutes: 5 }, 'en') });
  });
});
