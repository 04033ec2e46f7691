/**
 * The job that seals a finished process (runSealJob in seal-failure.ts runs it). Its name lives
 * apart from the flows that queue it, so that queueing it (the admin command) does not load the
 * signing flow and the PDF libraries behind it.
 */
export const SEAL_PROCESS_JOB = 'seal-process';
