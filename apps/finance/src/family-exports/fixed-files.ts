/** Sure's export format version (Family::DataExporter::EXPORT_VERSION), written as its version.txt. */
export const EXPORT_VERSION = 2;

export const VERSION_TXT = `export_version: ${EXPORT_VERSION}\n`;

/**
 * Sure's attachments.json (the manifest of receipts and documents, binaries never included):
 * Hearth stores no attachments, so the manifest is empty, written for the same file list as Sure's.
 */
export const ATTACHMENTS_JSON = JSON.stringify({ version: 1, binary_included: false, attachments: [] });
