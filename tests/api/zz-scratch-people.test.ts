import { it } from 'vitest';
import { signUp } from '../helpers/accounts.js';
import * as fixtures from '../helpers/images.js';
import { patchMe } from '../helpers/people.js';
import { createTestApp } from '../helpers/test-app.js';
it('scratch', async () => {
  const s0 = Date.now();
  const t = await createTestApp();
  console.log('create', Date.now() - s0);
  const a = await signUp(t.app);
  const j = await fixtures.jpeg(50, 50);
  const cases: Array<[string, any]> = [
    ['unknown first', [['website', 'x'], ['bio', 'nope']]],
    ['unknown after', [['bio', 'nope'], ['website', 'x']]],
    ['photo file', [['bio', 'nope'], ['photo', { bytes: j }]]],
    ['photo file only', [['photo', { bytes: j }]]],
    ['two icons', [['icon', { bytes: j }], ['icon', { bytes: j }]]],
    ['two bios', [['bio', 'one'], ['bio', 'two']]],
    ['icon then unknown', [['icon', { bytes: j }], ['website', 'x']]],
    ['icon, bio, unknown', [['icon', { bytes: j }], ['bio', 'x'], ['website', 'x']]],
  ];
  for (const [name, entries] of cases) {
    const r = await patchMe(t.app, a.cookie, entries);
    console.log(name, r.statusCode, r.body);
  }
  await t.close();
});
