/** Turns self-contained HTML into a PDF; the implementation is chosen in src/deps.ts. */
export interface PdfRenderer {
  /**
   * An A4 PDF of `html`. `footer` is HTML drawn at the bottom of every page (Chromium's footer
   * template: its classes pageNumber and totalPages are filled in).
   */
  render(html: string, options?: { footer?: string }): Promise<Buffer>;
  /** What /health reports. */
  describe(): { engine: string; ready: boolean };
  close(): Promise<void>;
}
