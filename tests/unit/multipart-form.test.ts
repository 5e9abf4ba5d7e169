import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/server/http/app-error.js';
import { readForm, type FormSpec } from '../../src/server/http/multipart-form.js';

/**
 * readForm against a stand-in request, for the cases a real upload through app.inject cannot
 * produce on demand (the posts API test covers the rest end to end).
 */
const spec: FormSpec = { fileField: 'photo', textFields: ['description', 'link'], maxFileBytes: 1000, tooLarge: 'IMAGE_TOO_LARGE' };

type FakePart =
  | { type: 'file'; fieldname: string; mimetype: string; file: { truncated: boolean }; toBuffer(): Promise<Buffer> }
  | { type: 'field'; fieldname: string; value: unknown };

const filePart = (bytes: Buffer, truncated = false): FakePart => ({
  type: 'file',
  fieldname: 'photo',
  mimetype: 'image/jpeg',
  file: { truncated },
  toBuffer: async () => bytes,
});

function request(parts: FakePart[], failWith?: Error): FastifyRequest {
  return {
    isMultipart: () => true,
    parts: () =>
      (async function* () {
        yield* parts;
        if (failWith !== undefined) throw failWith;
      })(),
  } as unknown as FastifyRequest;
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('readForm', () => {
  it('reads the file and the known text fields', async () => {
    const bytes = Buffer.from('abc');
    const form = await readForm(request([filePart(bytes), { type: 'field', fieldname: 'description', value: 'hi' }]), spec);
    expect(form).toEqual({ fields: { description: 'hi' }, file: { bytes, mimetype: 'image/jpeg' } });
  });

  it('a buffer the parser marked truncated is too large, even if it looks short (the @fastify/multipart quirk)', async () => {
    const error = await rejection(readForm(request([filePart(Buffer.alloc(999), true)]), spec));
    expect([error.status, error.code]).toEqual([413, 'IMAGE_TOO_LARGE']);
  });

  it('a buffer over the limit is too large even if not marked truncated', async () => {
    const error = await rejection(readForm(request([filePart(Buffer.alloc(1001))]), spec));
    expect([error.status, error.code]).toEqual([413, 'IMAGE_TOO_LARGE']);
  });

  it("the parser's file-size error is the form's own too-large error", async () => {
    const error = await rejection(
      readForm(request([], Object.assign(new Error('too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413 })), spec),
    );
    expect([error.status, error.code]).toEqual([413, 'IMAGE_TOO_LARGE']);
  });

  it("the parser's other 4xx errors stay 4xx", async () => {
    const error = await rejection(
      readForm(
        request([], Object.assign(new Error('not multipart'), { code: 'FST_INVALID_MULTIPART_CONTENT_TYPE', statusCode: 406 })),
        spec,
      ),
    );
    expect([error.status, error.code]).toEqual([406, 'BAD_REQUEST']);
  });

  it.each(['FST_PARTS_LIMIT', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT'])('too many parts (%s) is a 4xx', async (code) => {
    const error = await rejection(readForm(request([], Object.assign(new Error('limit'), { code, statusCode: 413 })), spec));
    expect([400, 413]).toContain(error.status);
  });

  it('a malformed body (busboy throws a plain Error) is a 400, not a server error', async () => {
    const error = await rejection(readForm(request([], new Error('Unexpected end of multipart data')), spec));
    expect([error.status, error.code]).toEqual([400, 'BAD_REQUEST']);
  });

  it('a request that is not multipart is refused', async () => {
    const error = await rejection(readForm({ isMultipart: () => false } as unknown as FastifyRequest, spec));
    expect(error.status).toBe(415);
  });
});
