// The worker thread's entry in plain JavaScript: a worker started by `tsx` or by vitest does not
// always inherit their TypeScript loader, so it registers tsx itself before loading the worker.
import { register } from 'tsx/esm/api';

register();
await import('./barcode-worker.ts');
