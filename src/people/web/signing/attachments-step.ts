import type { AttachmentAsked } from '../../contract.js';
import { base64Of } from '../client.js';
import { alertLine, h, show, statusLine } from '../dom.js';
import { type MessageKey, t } from '../i18n.js';
import { collectsFilesOnly } from './page-frame.js';
import type { StepContext } from './step-context.js';

/** What the file chooser offers; the service decides by the bytes, whatever the name or the browser says. */
const ACCEPT = 'application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png';

const TYPE_NAMES: Record<NonNullable<AttachmentAsked['given']>['contentType'], string> = {
  'application/pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
};

function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function stateText(file: AttachmentAsked): string {
  if (file.rejected) return t('attachmentRejected', { reason: file.rejected.reason });
  if (file.given) return t('attachmentGiven', { type: TYPE_NAMES[file.given.contentType], size: sizeText(file.given.size) });
  const key: MessageKey = file.optional ? 'attachmentOptional' : 'attachmentRequired';
  return t(key);
}

/** One file asked: its name and description, what was given, and a native file input (keyboard and screen readers know it). */
function fileItem(file: AttachmentAsked, step: StepContext, say: { alert: (text: string) => void; status: (text: string) => void }): HTMLElement {
  const id = `attachment-${file.position}`;
  const state = h('p', { id: `${id}-state`, class: 'hint' }, stateText(file));
  const described = [`${id}-state`, ...(file.description ? [`${id}-description`] : [])].join(' ');
  const input = h('input', { id, type: 'file', accept: ACCEPT, 'aria-describedby': described });
  input.addEventListener('change', async () => {
    const chosen = input.files?.[0];
    if (!chosen) return;
    input.disabled = true;
    say.alert('');
    say.status(t('attachmentSending', { name: file.name }));
    const given = await step.attempt(async () => step.client.signingAttachment({ attachment: file.position, file: await base64Of(chosen) }), {
      say: say.alert,
    });
    input.disabled = false;
    say.status('');
    input.value = '';
    if (given !== undefined) await step.reload();
  });
  return h(
    'li',
    { class: 'attachment' },
    h('label', { for: id }, t(file.given ? 'attachmentReplace' : 'attachmentChoose', { name: file.name })),
    file.description ? h('p', { id: `${id}-description`, class: 'hint' }, file.description) : '',
    state,
    input,
  );
}

/** The files asked of the participant: each given (or replaced) on its own; the person goes on once every required one is. */
export function attachmentsStep(container: HTMLElement, step: StepContext): void {
  const asked = step.page.attachments ?? [];
  const alert = alertLine();
  const status = statusLine();
  const say = { alert: (text: string) => alert.say(text), status: (text: string) => status.say(text) };
  const go = h('button', { type: 'button', class: 'primary' }, t('attachmentsContinue'));
  go.addEventListener('click', () => {
    const missing = asked.find((file) => !file.optional && !file.given);
    if (missing) {
      alert.say(t('attachmentsMissing', { name: missing.name }));
      document.getElementById(`attachment-${missing.position}`)?.focus();
      return;
    }
    step.attachments.reviewed = true;
    void step.reload();
  });
  show(
    container,
    h('h2', {}, t('attachmentsTitle')),
    h('p', {}, t(collectsFilesOnly(step.page) ? 'attachmentsHelpFiles' : 'attachmentsHelp')),
    h('ul', { class: 'attachments' }, ...asked.map((file) => fileItem(file, step, say))),
    status.element,
    alert.element,
    go,
  );
}

/** Under the last step: back to the files, to replace one before signing. */
export function changeAttachments(step: StepContext): HTMLElement {
  const back = h('button', { type: 'button', class: 'link' }, t('attachmentsChange'));
  back.addEventListener('click', () => {
    step.attachments.reviewed = false;
    void step.reload();
  });
  return back;
}
