import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../shared/errors.js';
import { AppError } from './app-error.js';

export interface UploadedFile {
  bytes: Buffer;
  mimetype: string;
}

export interface FormSpec {
  fileField: string;
  textFields: readonly string[];
  maxFileBytes: number;
  /** The error for a file over maxFileBytes. */
  tooLarge: ErrorCode;
}

/** Text fields are short; anything past this is cut by the parser and then fails its length rule. */
const MAX_FIELD_BYTES = 10_000;

/**
 * Reads a multipart form into memory with hard limits: one file of at most maxFileBytes,
 * known text fields only. Anything else is a clear 4xx.
 */
export async function readForm(request: FastifyRequest, spec: FormSpec) {
  if (!request.isMultipart()) throw new AppError(415, 'BAD_REQUEST');
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  try {
    const parts = request.parts({
      limits: {
        fileSize: spec.maxFileBytes,
        files: 1,
        fields: spec.textFields.length,
        fieldSize: MAX_FIELD_BYTES,
        parts: spec.textFields.length + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== spec.fileField || file) throw new AppError(400, 'BAD_REQUEST');
        const bytes = await part.toBuffer();
        // WARNING: @fastify/multipart can hand back a silently truncated buffer just over the limit.
        if (part.file.truncated || bytes.length > spec.maxFileBytes) throw new AppError(413, spec.tooLarge);
        file = { bytes, mimetype: part.mimetype };
      } else {
        if (!spec.textFields.includes(part.fieldname) || part.fieldname in fields || typeof part.value !== 'string') {
          throw new AppError(400, 'BAD_REQUEST');
        }
        // Browsers send a textarea's line breaks as CRLF; one break is one character, as on screen.
        fields[part.fieldname] = part.value.replace(/\r\n?/g, '\n');
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, spec.tooLarge);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new AppError(400, 'BAD_REQUEST');
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) throw new AppError(status, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST');
    throw new AppError(400, 'BAD_REQUEST');
  }
  return { fields, file };
}
