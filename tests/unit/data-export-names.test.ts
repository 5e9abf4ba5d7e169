import { describe, expect, it } from 'vitest';
import { exportFileName, photoName, readmeText } from '../../src/server/accounts/export-archive.js';
import { loadConfig } from '../../src/server/config.js';
import * as COPY from '../../src/shared/copy.js';

/** Download My Data (issue 16): the names inside and of the ZIP, and its settings. */
describe('Download My Data names', () => {
  const now = new Date('2026-11-24T23:59:59.999Z');

  it('the download is "<app>-<username>-<UTC date>.zip", in plain ASCII whatever APP_NAME holds', () => {
    expect(exportFileName('dormboard', 'alice_01', now)).toBe('dormboard-alice_01-2026-11-24.zip');
    expect(exportFileName('Dorm "Board" β', 'bob', now)).toBe('Dorm-Board-bob-2026-11-24.zip');
    expect(exportFileName('ß', 'bob', now)).toBe('data-bob-2026-11-24.zip');
  });

  it('a photo is named by its UTC posting time and post id, without colons', () => {
    expect(photoName({ id: 'Rwxiop_1Ny363RWm', createdAt: new Date('2026-01-02T03:04:05.678Z') })).toBe(
      'photos/2026-01-02_03-04-05-Rwxiop_1Ny363RWm.jpg',
    );
  });

  it('the README lists every file the page lists, and each missing photo', () => {
    const complete = readmeText({ appName: 'dormboard', username: 'alice', now, missing: [] });
    for (const file of COPY.dataExport.files) expect(complete).toContain(`${file.name}`);
    expect(complete).not.toContain(COPY.dataExport.photoMissing);
    const gap = readmeText({ appName: 'dormboard', username: 'alice', now, missing: ['The photo of your post of X (photos/x.jpg)'] });
    expect(gap).toContain(`The photo of your post of X (photos/x.jpg) ${COPY.dataExport.photoMissing}.`);
  });
});

describe('Download My Data settings', () => {
  it('five an hour per account and two at once per process by default; both can be set', () => {
    const defaults = loadConfig({});
    expect(defaults.rateLimits.exportsPerUser).toBe(5);
    expect(defaults.rateLimits.exportWindowMs).toBe(60 * 60 * 1000);
    expect(defaults.exportConcurrency).toBe(2);
    const set = loadConfig({ RATE_LIMIT_EXPORTS_PER_USER: '1', EXPORT_CONCURRENCY: '4' });
    expect(set.rateLimits.exportsPerUser).toBe(1);
    expect(set.exportConcurrency).toBe(4);
    // At least one at a time: 0 would refuse every export.
    expect(loadConfig({ EXPORT_CONCURRENCY: '0' }).exportConcurrency).toBe(1);
    expect(() => loadConfig({ EXPORT_CONCURRENCY: 'two' })).toThrow('EXPORT_CONCURRENCY must be a non-negative integer');
  });
});
