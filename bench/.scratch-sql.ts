import SQLite from 'better-sqlite3';
import { buildApp } from '../src/server/app';
import { APP_CONFIG, ADMIN } from './bench-database';
const orig = SQLite.prototype.prepare;
let log = false;
(SQLite.prototype as any).prepare = function (sql: string) { if (log) console.log('SQL:', sql); return orig.call(this, sql); };
const app = await buildApp(APP_CONFIG);
const login = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { email: ADMIN.email, password: ADMIN.password } });
const cookie = login.headers['set-cookie']; console.log(login.statusCode, cookie, login.body.slice(0,200));
log = true;
for (const url of ['/api/items', '/api/items?name=Canton%20Chilimansi&is_strict=0', '/api/items/500000', '/api/items?name=Sauce&is_strict=0']) {
  console.log('==', url);
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = await app.inject({ method: 'GET', url, headers: { cookie: String(cookie).split(';')[0], 'business-id': '1' } });
    console.log(r.statusCode, (performance.now() - t).toFixed(2), 'ms', r.body.length, JSON.parse(r.body).meta?.total);
    log = false;
  }
  log = true;
}
await app.close();
