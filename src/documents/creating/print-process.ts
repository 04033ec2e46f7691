import { withTransaction } from '../../db/transaction.js';
import { downloadName } from '../../files/download-headers.js';
import { templatedEmail } from '../../messages/message-templates.js';
import { personLanguage } from '../../organizations/languages.js';
import { organizationLanguage } from '../../organizations/settings.js';
import { enqueue } from '../../outbox/enqueue.js';
import type { EmailAttachment } from '../../outbox/types.js';
import { lockProcess } from '../participant/signer-queries.js';
import { type PreviewContext, renderPreview } from '../preview/document-preview.js';
import { recordProcessEvent } from '../process-events.js';
import { findProcessById, listDocuments, listParticipants, listProcessEvents } from '../queries.js';

/** The job that e-mails a `sign: false` process's document to its participants for printing. */
export const PRINT_PROCESS_JOB = 'print-process';

/**
 * `sign: false` (docs/real-service.md §3.1: "the document is emailed for printing"): the filled
 * document is rendered as the PDF the participants would have read (the same renderer and layout),
 * then each participant the service notifies is e-mailed it attached, with the process's message;
 * the PRINT line of the audit trail says to whom. Once per process: a job run again after its
 * PRINT line committed sends nothing. A render that fails throws, and the outbox retries the job.
 */
export async function printProcess(ctx: PreviewContext, options: { processId: string }): Promise<void> {
  const process = await findProcessById(ctx.db, options.processId);
  if (process?.sign !== 0) return;
  if ((await listProcessEvents(ctx.db, process.id)).some((event) => event.action === 'PRINT')) return;
  const documents = await listDocuments(ctx.db, process.id);
  const files: EmailAttachment[] = [];
  for (const document of documents) {
    // Named as the final files are: the process's name, a package document's own.
    const named = documents.length > 1 ? document.name : process.name;
    files.push({ filename: downloadName(named, 'pdf'), key: await renderPreview(ctx, document), contentType: 'application/pdf' as const });
  }
  const language = await organizationLanguage(ctx.db, process.organization_id);
  await withTransaction(ctx, async (trx) => {
    const locked = await lockProcess(trx, ctx.dialect, process.id);
    if (!locked || (await listProcessEvents(trx, process.id)).some((event) => event.action === 'PRINT')) return;
    const recipients = (await listParticipants(trx, process.id)).filter((participant) => participant.notification === 1);
    await enqueue(
      trx,
      ctx.clock,
      recipients.map((participant) => ({
        kind: 'email' as const,
        organizationId: process.organization_id,
        payload: {
          ...templatedEmail(
            participant.email,
            'document-for-printing',
            { signerName: participant.name, processName: process.name, message: process.message },
            personLanguage(participant.language, language),
          ),
          attachments: files,
        },
      })),
    );
    await recordProcessEvent(trx, ctx.clock, {
      process: locked,
      action: 'PRINT',
      platform: 'EMAIL',
      detail: { documents: files.map((file) => file.filename), recipients: recipients.map((participant) => participant.email) },
    });
  });
}
