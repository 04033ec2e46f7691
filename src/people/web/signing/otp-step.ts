import { alertLine, h, show, statusLine } from '../dom.js';
import { t } from '../i18n.js';
import type { StepContext } from './step-context.js';

/** Seconds before another code may be asked for, as the service allows (OTP_TOO_SOON otherwise). */
const RESEND_SECONDS = 30;

/** The one-time code: asked for, then typed; a verified code moves the page on. */
export function otpStep(container: HTMLElement, step: StepContext): void {
  const alert = alertLine();
  const status = statusLine();
  const send = h('button', { type: 'button', class: 'primary' }, t('otpSend'));
  const input = h('input', {
    id: 'otp',
    type: 'text',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    pattern: '[0-9]{6}',
    maxlength: 6,
    'aria-describedby': 'otp-help',
  });
  const check = h('button', { type: 'submit', class: 'primary' }, t('otpCheck'));
  const form = h(
    'form',
    { class: 'otp', hidden: true, novalidate: true },
    h('label', { for: 'otp' }, t('otpLabel')),
    input,
    h('p', { id: 'otp-help', class: 'hint' }, t('otpFormat')),
    check,
  );
  const resend = h('button', { type: 'button', class: 'link', hidden: true }, t('otpResend'));
  let timer: number | undefined;
  const countdown = (seconds: number) => {
    resend.disabled = true;
    resend.hidden = false;
    let left = seconds;
    resend.textContent = t('otpResendIn', { seconds: left });
    window.clearInterval(timer);
    timer = window.setInterval(() => {
      left--;
      if (left > 0) {
        resend.textContent = t('otpResendIn', { seconds: left });
        return;
      }
      window.clearInterval(timer);
      resend.disabled = false;
      resend.textContent = t('otpResend');
    }, 1000);
  };
  const request = async () => {
    send.disabled = true;
    resend.disabled = true;
    alert.say('');
    const sent = await step.attempt(() => step.client.requestOtp(), alert);
    send.disabled = false;
    if (sent === undefined) {
      resend.disabled = false;
      return;
    }
    send.hidden = true;
    form.hidden = false;
    status.say(t('otpSent'));
    countdown(RESEND_SECONDS);
    input.focus();
  };
  send.addEventListener('click', request);
  resend.addEventListener('click', request);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const code = input.value.trim();
    if (!/^\d{6}$/.test(code)) {
      alert.say(t('otpFormat'));
      input.focus();
      return;
    }
    check.disabled = true;
    const verified = await step.attempt(() => step.client.checkOtp({ code }), alert);
    check.disabled = false;
    if (verified === undefined) {
      input.select();
      return;
    }
    window.clearInterval(timer);
    await step.reload();
  });
  show(
    container,
    h('h2', {}, t('otpTitle')),
    h('p', {}, t(step.page.requirements?.otpCode.medium === 'email' ? 'otpIntroEmail' : 'otpIntroPhone')),
    alert.element,
    send,
    form,
    resend,
    status.element,
  );
}
