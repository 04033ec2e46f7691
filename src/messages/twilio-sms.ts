import type { SmsPayload } from '../outbox/types.js';
import { httpRefusal, postToProvider } from './provider-http.js';
import type { SendResult } from './send-result.js';
import type { SmsSender } from './sms.js';

export const TWILIO_API_URL = 'https://api.twilio.com';

export interface TwilioSmsOptions {
  accountSid: string;
  authToken: string;
  /** The sending number in E.164 form (+15005550006) or an alphanumeric sender id. */
  from: string;
  /** Twilio, or any provider that speaks its Messages API; tests point it at a local receiver. */
  baseUrl?: string;
  timeoutMs?: number;
}

/** SMS through Twilio's Messages API (POST …/Accounts/{sid}/Messages.json, form-encoded, basic auth). */
export class TwilioSmsSender implements SmsSender {
  private readonly url: string;
  private readonly authorization: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: TwilioSmsOptions) {
    const baseUrl = (options.baseUrl ?? TWILIO_API_URL).replace(/\/+$/, '');
    this.url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
    this.authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: SmsPayload): Promise<SendResult> {
    const answer = await postToProvider(
      this.url,
      {
        headers: { authorization: this.authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ To: message.to, From: this.options.from, Body: message.text }).toString(),
      },
      this.timeoutMs,
    );
    if (answer.status >= 200 && answer.status < 300) return { id: sidOf(answer.json), statusCode: answer.status };
    // Twilio's error answer: {code, message, more_info, status}.
    throw httpRefusal(answer.status, errorMessageOf(answer.json));
  }
}

/** The SM… id Twilio gives the message, which its status callbacks name. */
function sidOf(json: unknown): string | undefined {
  return typeof json === 'object' && json !== null && 'sid' in json && typeof json.sid === 'string' ? json.sid : undefined;
}

function errorMessageOf(json: unknown): string | undefined {
  return typeof json === 'object' && json !== null && 'message' in json && typeof json.message === 'string' ? json.message : undefined;
}
