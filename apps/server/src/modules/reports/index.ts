/**
 * The reports module's entry: other modules import it from here only (issue 12).
 */
export { auditDisplayer } from './audit-text';
export { contentDisposition, formatWall, neutralise, wallClock } from './report-model';
export { displaySettingsOf, organizationNameOf } from './service';
export {
  CONTENT_WIDTH,
  INK,
  MARGIN,
  MUTED,
  createDocument,
  finish,
  keyValueGrid,
  printable,
  section,
  table,
} from './pdf-layout';
export { useFont, writeText } from './pdf-fonts';
export { renderRecordPdf } from './record-pdf';
