import { describe, expect, it } from 'vitest';
import { descriptionWithoutTrailingTags } from '../../src/client/features/posts/post-text.js';
import { timeAgo } from '../../src/client/lib/relative-time.js';

describe('descriptionWithoutTrailingTags', () => {
  it('drops the hashtags that end a description (the tag line shows them)', () => {
    expect(descriptionWithoutTrailingTags('Dorm room glow-up #studentliving #DormLife')).toBe('Dorm room glow-up');
    expect(descriptionWithoutTrailingTags('Finals week.\n#library #coffee!  ')).toBe('Finals week.');
  });

  it('keeps tags inside a sentence, and words that only contain a #', () => {
    expect(descriptionWithoutTrailingTags('Loving #dormlife so far')).toBe('Loving #dormlife so far');
    expect(descriptionWithoutTrailingTags('Room C#4')).toBe('Room C#4');
    expect(descriptionWithoutTrailingTags('Price # 5')).toBe('Price # 5');
  });

  it('leaves nothing when the description is only hashtags', () => {
    expect(descriptionWithoutTrailingTags('#a #b')).toBe('');
    expect(descriptionWithoutTrailingTags('')).toBe('');
  });
});

describe('timeAgo', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const ago = (seconds: number) => timeAgo(new Date(now.getTime() - seconds * 1000), now);

  it('says how long ago, in the largest whole unit', () => {
    expect(ago(5)).toBe('now');
    expect(ago(5 * 60)).toBe('5 minutes ago');
    expect(ago(3 * 3600 + 59 * 60)).toBe('3 hours ago');
    expect(ago(26 * 3600)).toBe('yesterday');
    expect(ago(2 * 86400 + 3600)).toBe('2 days ago');
    expect(ago(15 * 86400)).toBe('2 weeks ago');
    expect(ago(400 * 86400)).toBe('last year');
  });

  it('reads a time ahead of the clock (skew) as now', () => {
    expect(ago(-90)).toBe('now');
  });
});
