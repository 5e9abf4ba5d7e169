import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { isSafeKey, type Storage, type StoredFile } from './storage.js';

export interface S3Options {
  bucket: string;
  /** Key prefix inside the bucket, e.g. "dormboard/" when the bucket is shared. */
  prefix?: string;
  client: S3ClientConfig;
}

/**
 * S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, ...), for many app processes.
 * Credentials come from the SDK's usual chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, ...).
 */
export class S3Storage implements Storage {
  private readonly s3: S3Client;

  constructor(private readonly options: S3Options) {
    this.s3 = new S3Client(options.client);
  }

  private objectKey(key: string): string {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return `${this.options.prefix ?? ''}${key}`;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.objectKey(key),
        Body: body,
        ContentType: contentType,
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
  }

  async get(key: string): Promise<StoredFile | undefined> {
    if (!isSafeKey(key)) return undefined;
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
      if (!object.Body) return undefined;
      return {
        body: Buffer.from(await object.Body.transformToByteArray()),
        contentType: object.ContentType ?? 'application/octet-stream',
      };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }));
  }

  close() {
    this.s3.destroy();
  }
}
