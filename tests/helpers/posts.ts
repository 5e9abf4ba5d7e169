import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { API } from '../../src/shared/api/paths.js';

export interface MultipartFile {
  bytes: Buffer;
  /** Declared content type of the part. */
  type?: string;
  filename?: string;
  /** Form field name; `photo` unless testing a wrong one. */
  field?: string;
}

/** Form fields in order: text fields (strings) or files. */
export type FormEntries = Array<[string, string | MultipartFile]>;

/** Builds a real multipart/form-data body (as a browser would) with the platform's FormData. */
export async function multipart(entries: FormEntries): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of entries) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type ?? 'image/jpeg' }), value.filename ?? 'photo.jpg');
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const contentType = request.headers.get('content-type');
  if (!contentType) throw new Error('FormData gave no content type');
  return { payload: Buffer.from(await request.arrayBuffer()), contentType };
}

export interface NewPostInput {
  description?: string;
  link?: string;
  /** Omit to send no photo at all. */
  bytes?: Buffer;
  type?: string;
  filename?: string;
}

/** POST /api/posts as the browser's upload form sends it. */
export async function createPost(app: FastifyInstance, cookie: string | undefined, input: NewPostInput): Promise<LightMyRequestResponse> {
  const entries: FormEntries = [];
  if (input.bytes) entries.push(['photo', { bytes: input.bytes, type: input.type, filename: input.filename }]);
  if (input.description !== undefined) entries.push(['description', input.description]);
  if (input.link !== undefined) entries.push(['link', input.link]);
  return postForm(app, cookie, entries);
}

/** POST /api/posts with arbitrary form entries. */
export async function postForm(app: FastifyInstance, cookie: string | undefined, entries: FormEntries): Promise<LightMyRequestResponse> {
  const { payload, contentType } = await multipart(entries);
  return app.inject({
    method: 'POST',
    url: API.posts,
    payload,
    headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) },
  });
}
