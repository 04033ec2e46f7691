import type { PageLayout } from './page-layout.js';

/** Turns self-contained HTML into a PDF; the implementation is chosen in src/deps.ts. */
export interface PdfRenderer {
  /**
   * An A4 PDF of `html`, laid out as `layout` says: by default the service's, with room at the
   * bottom of every page for the seal's mark; a template's with its header and footer.
   */
  render(html: string, layout?: PageLayout): Promise<Buffer>;
  /**
   * Renders a tiny PDF and checks its text is there (a Chromium without fonts makes PDFs without
   * text, silently); remembered for describe(). Throws what went wrong.
   */
  selfTest(): Promise<void>;
  /** What /health reports. */
  describe(): RendererStatus;
  close(): Promise<void>;
}

export interface RendererStatus {
  engine: string;
  /** Whether the browser is running now (it starts on the first render). */
  running: boolean;
  selfTest: 'not run' | { passedMs: number } | { failed: string };
}
