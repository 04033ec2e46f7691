/**
 * Work started before it is needed, so it runs while the seal waits on something else (Chromium,
 * the disk); its failure is handled where it is awaited, later, or not at all when the run stops
 * before needing it. Until then nothing listens to the promise, and Node stops the process on a
 * rejection nothing listens to: a handler that ignores it is attached here, and the same promise,
 * still rejecting for whoever awaits it, is answered.
 */
export function startEarly<T>(work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  return work;
}
