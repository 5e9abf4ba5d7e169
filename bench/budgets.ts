/** The performance budgets of issues 7 and 12, checked by `npm run bench -- --check`. */
export interface BudgetResult {
  name: string;
  limit: string;
  actual: string;
  ok: boolean;
}

export interface BenchNumbers {
  feedP99At16: Record<string, number>;
  feedToCeilingAt16: Record<string, number>;
  searchPostsP95At16: Record<string, number>;
  profileP99At16: Record<string, number>;
  postDetailP99At16: Record<string, number>;
  /** Home feed at 16 connections while 16 clients run different uncached searches (issue 12). */
  feedUnderSearchP99At16: Record<string, number>;
  firstViewBytes?: number;
  imageByteRatio?: number;
  lcpSlow4gMs?: number;
  cls?: number;
  initialJsGzip: number;
  pipeline12mpMs: number;
  /** p99 @16 of a ~20 KB stored image and of the home feed while 4 image-bomb uploads are in flight. */
  underUploadAttackP99: Record<string, { media: number; feed: number }>;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function checkBudgets(n: BenchNumbers): BudgetResult[] {
  const results: BudgetResult[] = [];
  const add = (name: string, limit: string, actual: string, ok: boolean) => results.push({ name, limit, actual, ok });
  for (const [db, value] of Object.entries(n.feedP99At16)) add(`home feed p99 @16 (${db})`, '≤ 25 ms', ms(value), value <= 25);
  if (n.feedToCeilingAt16.postgres !== undefined) {
    const ratio = n.feedToCeilingAt16.postgres;
    add('feed throughput / static ceiling (postgres)', '≥ 25 %', `${(ratio * 100).toFixed(1)} %`, ratio >= 0.25);
  }
  for (const [db, value] of Object.entries(n.searchPostsP95At16)) add(`search posts p95 @16 (${db})`, '≤ 40 ms', ms(value), value <= 40);
  for (const [db, value] of Object.entries(n.profileP99At16)) add(`profile p99 @16 (${db})`, '≤ 25 ms', ms(value), value <= 25);
  for (const [db, value] of Object.entries(n.postDetailP99At16)) add(`post detail p99 @16 (${db})`, '≤ 25 ms', ms(value), value <= 25);
  for (const [db, value] of Object.entries(n.feedUnderSearchP99At16)) {
    add(`home feed p99 @16 beside 16 uncached searches (${db})`, '≤ 100 ms', ms(value), value <= 100);
  }
  if (n.firstViewBytes !== undefined) add('first view of / transferred', '≤ 600 KB', kb(n.firstViewBytes), n.firstViewBytes <= 600 * 1024);
  if (n.imageByteRatio !== undefined)
    add('image bytes vs full-size cards', '≥ 100×', `${n.imageByteRatio.toFixed(0)}×`, n.imageByteRatio >= 100);
  if (n.lcpSlow4gMs !== undefined) add('LCP on Slow 4G', '≤ 1800 ms', `${n.lcpSlow4gMs} ms`, n.lcpSlow4gMs <= 1800);
  if (n.cls !== undefined) add('CLS', '≤ 0.02', n.cls.toFixed(3), n.cls <= 0.02);
  add('initial JS (gzip)', '≤ 110 KB', kb(n.initialJsGzip), n.initialJsGzip <= 110 * 1024);
  add('12-MP JPEG through the server pipeline', '≤ 400 ms', ms(n.pipeline12mpMs), n.pipeline12mpMs <= 400);
  for (const [db, { media, feed }] of Object.entries(n.underUploadAttackP99)) {
    add(`20 KB image p99 @16 under upload attack (${db})`, '≤ 250 ms', ms(media), media <= 250);
    add(`home feed p99 @16 under upload attack (${db})`, '≤ 250 ms', ms(feed), feed <= 250);
  }
  return results;
}
