import path from 'node:path';
import type { Config } from '../config.js';
import { DiskStorage } from './disk-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

/** S3-compatible storage when S3_BUCKET is set; otherwise disk under DATA_DIR/media. */
export function createStorage(config: Config): Storage {
  const { s3 } = config;
  if (s3) {
    return new S3Storage({
      bucket: s3.bucket,
      prefix: s3.prefix,
      client: {
        region: s3.region,
        endpoint: s3.endpoint,
        forcePathStyle: s3.forcePathStyle,
      },
    });
  }
  return new DiskStorage(path.join(config.dataDir, 'media'));
}
