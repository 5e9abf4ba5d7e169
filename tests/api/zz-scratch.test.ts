import { it } from 'vitest';
import { newAccount } from '../helpers/accounts.js';
import { createTestApp } from '../helpers/test-app.js';
it('scratch', async () => {
  const t = await createTestApp();
  const base = newAccount('twin');
  const rs = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: '/api/auth/register', payload: base })));
  console.log(rs.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
  const b2 = newAccount('x');
  const rs2 = await Promise.all([1, 2].map((i) => t.app.inject({ method: 'POST', url: '/api/auth/register', payload: {...b2, username: b2.username + i} })));
  console.log(rs2.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
  await t.close();
});
