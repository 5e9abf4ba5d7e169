import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { S3Storage } from '../../src/server/storage/s3-storage.js';

/** The credentials s3rver accepts (it checks signatures). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
export const S3_REGION = 'us-east-1';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** A plain client for looking inside the bucket behind the storage's back. */
  client: S3Client;
  /** Every key in the bucket (whatever the prefix), sorted. */
  keys(): Promise<string[]>;
  /** An S3Storage on this server (path-style, as for MinIO). */
  storage(prefix?: string): S3Storage;
  /** Environment variables that point a server process at this bucket. */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

/** Starts s3rver on a free port of 127.0.0.1 with one empty bucket, its files in a temporary folder. */
export async function startLocalS3(bucket = 'test-bucket'): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const clientConfig = { region: S3_REGION, endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS };
  const client = new S3Client(clientConfig);
  const storages: S3Storage[] = [];
  return {
    endpoint,
    bucket,
    client,
    async keys() {
      const found: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) found.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found.sort();
    },
    storage(prefix) {
      const storage = new S3Storage({ bucket, prefix, client: clientConfig });
      storages.push(storage);
      return storage;
    },
    env(prefix) {
      return {
        S3_BUCKET: bucket,
        S3_ENDPOINT: endpoint,
        S3_REGION,
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: prefix ?? '',
        AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      };
    },
    async stop() {
      for (const storage of storages) storage.close();
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Removes every object in the bucket, so each test starts from an empty one. */
export async function emptyBucket(s3: LocalS3): Promise<void> {
  for (const key of await s3.keys()) await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
}
