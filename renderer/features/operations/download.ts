import type { JournalExport } from '../../../engine/contracts/operations';

/**
 * Saves an export where the user gets it. In the browser (web mode): a download. The desktop shell's save dialog
 * can take over here, in this one function, once it exists.
 */
export function saveExport(file: JournalExport): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
