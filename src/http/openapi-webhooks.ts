import { PROCESS_WEBHOOKS } from '../documents/process-events.js';
import { UNUSABLE_PHOTO_REASONS } from '../veriface/face-matcher.js';
import { VERIFACE_STAGES } from '../veriface/stages.js';

/** What each event's `data` holds beyond the resource code, for the spec's `webhooks` section. */
const VERIFACE_DETAILS: Record<(typeof VERIFACE_STAGES)[number], { summary: string; details: Record<string, object> }> = {
  created: { summary: 'A face validation was created', details: {} },
  notified: { summary: 'The invitation was handed to the outbox', details: { channel: { enum: ['whatsapp', 'email'] } } },
  opened: { summary: 'The person opened the link', details: {} },
  document_captured: { summary: 'A document photo was stored', details: { side: { enum: ['front', 'back'] } } },
  face_captured: { summary: 'The face photo was stored', details: {} },
  photo_unusable: {
    summary: 'A photo could not be compared; the person is asked for a retake (no attempt counted)',
    details: { reason: { enum: [...UNUSABLE_PHOTO_REASONS] }, photo: { enum: ['face', 'document'] } },
  },
  comparisons_limited: {
    summary:
      'A comparison was refused: the validation had its comparisons of the hour (until the next hour, retryAfter seconds) or of its whole life (limit flow); sent once an hour at most',
    details: {
      limit: { enum: ['hour', 'flow'] },
      comparisons: { type: 'integer', minimum: 1 },
      retryAfter: { type: 'integer', minimum: 1 },
    },
  },
  approved: { summary: 'The face matches the document', details: { similarity: { type: 'number', minimum: 0, maximum: 100 } } },
  rejected: {
    summary: 'The face does not match the document: a failed attempt, the process stays in progress for a retake',
    details: {
      similarity: { type: 'number', minimum: 0, maximum: 100 },
      reason: { const: 'FACE_MISMATCH' },
      failures: { type: 'integer', minimum: 1, maximum: 3 },
    },
  },
  blocked: {
    summary: 'Manual review: no automatic decision, a matching face whose liveness score is suspect, or the third failed check',
    details: {
      reason: { enum: ['MANUAL_REVIEW_REQUIRED', 'LIVENESS_SUSPECT', 'DOCUMENT_FAKE', 'FACE_MISMATCH', 'DOCUMENT_NUMBER_MISMATCH'] },
      failures: { type: 'integer', minimum: 3 },
      similarity: { type: 'number', minimum: 0, maximum: 100 },
      liveness: { type: 'number', minimum: 0, maximum: 1 },
    },
  },
  validated: {
    summary: 'A person approved the blocked validation (POST /veriface/review)',
    details: { emailValidated: { type: 'string', format: 'email' }, reason: { type: 'string' } },
  },
  invalidated: {
    summary: 'A person rejected the blocked validation (POST /veriface/review)',
    details: { emailValidated: { type: 'string', format: 'email' }, reason: { type: 'string' } },
  },
  expired: { summary: 'The expiry date passed while in progress', details: {} },
  photos_deleted: {
    summary: 'The identity photos were deleted, when their retention ended or on request (DELETE /veriface/photos)',
    details: { deleted: { type: 'integer', minimum: 0 }, reason: { enum: ['retention', 'on request'] } },
  },
};

const signatureHeaders = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
}));

function event(type: string, summary: string, data: object) {
  return {
    post: {
      summary,
      description: 'Signed as Standard Webhooks: verify webhook-signature over "{webhook-id}.{webhook-timestamp}.{body}" with the webhook secret.',
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['type', 'timestamp', 'data'],
              properties: { type: { const: type }, timestamp: { type: 'string', format: 'date-time' }, data },
            },
          },
        },
      },
      responses: { '2XX': { description: 'Received; anything else is retried' } },
    },
  };
}

const integratorFields = {
  custom: { type: 'object', description: 'the custom object of the process, when it had one' },
  tags: { type: 'array', items: { type: 'string' }, description: 'the tags of the process, when it had them' },
};

/** The OpenAPI 3.1 `webhooks` section: every event the service sends, with its payload. */
export function webhookDocs(): Record<string, object> {
  const docs: Record<string, object> = {
    'webhook.test': event('webhook.test', 'Sent on request by POST /webhooks/test', {
      type: 'object',
      properties: { webhook: { type: 'string' } },
    }),
  };
  for (const stage of VERIFACE_STAGES) {
    const { summary, details } = VERIFACE_DETAILS[stage];
    docs[`veriface.${stage}`] = event(`veriface.${stage}`, summary, {
      type: 'object',
      required: ['code', 'type', 'stage', 'status'],
      properties: {
        code: { type: 'string', minLength: 16, maxLength: 16 },
        type: { const: 'veriface' },
        stage: { const: stage },
        status: { enum: ['INPROGRESS', 'APPROVED', 'INVALIDATED', 'BLOCKED', 'EXPIRED'] },
        ...details,
        ...integratorFields,
      },
    });
  }
  const signer = {
    type: 'object',
    description: 'the participant concerned',
    properties: { id: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' }, phone: { type: 'string' } },
  };
  const fileUrl = { type: 'string', format: 'uri', description: 'a download URL signed as each attempt is sent, for 5 minutes' } as const;
  const sealedFiles = (kind: 'document' | 'package') => ({
    ...(kind === 'document' ? { url: { ...fileUrl, description: `${fileUrl.description}: the sealed PDF` } } : {}),
    documents: {
      type: 'array',
      items: { type: 'object', required: ['name', 'signedUrl'], properties: { name: { type: 'string' }, signedUrl: fileUrl } },
    },
    certificateUrl: { ...fileUrl, description: `${fileUrl.description}: the evidence certificate` },
  });
  for (const kind of ['document', 'package'] as const) {
    for (const webhook of Object.values(PROCESS_WEBHOOKS)) {
      // Only POST /document/save takes `sign: false`: a package is never printed.
      if (kind === 'package' && webhook.event === 'printed') continue;
      const type = `${kind}.${webhook.event}`;
      const status = kind === 'package' && webhook.event === 'finished' ? 'SIGNED_PACKAGE' : webhook.status;
      docs[type] = event(type, webhook.summary, {
        type: 'object',
        required: ['code', 'name', 'status'],
        properties: {
          code: { type: 'string', minLength: 10, maxLength: 10 },
          name: { type: 'string' },
          status: { const: status },
          signer,
          message: { type: 'string', description: 'the rejection, cancellation or delegation reason, or the block reason' },
          by: { type: 'string', description: 'the organization user who cancelled, unlocked or reactivated it; the signer who handed their place on' },
          ...(webhook.event === 'signer_delegated' ? { delegate: { ...signer, description: 'the new participant, with a new id and link' } } : {}),
          ...(kind === 'document' && ['created', 'finished', 'expired'].includes(webhook.event)
            ? { url: { ...fileUrl, description: `${fileUrl.description}: the PDF as the participants read it, when it is a PDF already stored` } }
            : {}),
          ...(webhook.event === 'signed_files_ready' ? sealedFiles(kind) : {}),
          ...(webhook.event === 'printed'
            ? {
                documents: { type: 'array', items: { type: 'string' }, description: "the attached PDFs' file names" },
                recipients: { type: 'array', items: { type: 'string', format: 'email' }, description: 'the participants e-mailed' },
              }
            : {}),
          ...integratorFields,
        },
      });
    }
  }
  return docs;
}
