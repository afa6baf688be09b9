import { PGlite } from '@electric-sql/pglite';
let t=Date.now();
const pg = await PGlite.create();
console.log('init ms', Date.now()-t);
const r = await pg.exec(`create table t(a int); insert into t values (1),(2),(3); update t set a=a+1 where a>1; select * from t; delete from t; select 1 as x`);
console.log(JSON.stringify(r.map(x=>({c:x.command,a:x.affectedRows,rc:x.rowCount,f:x.fields,n:x.rows.length}))));
try { await pg.exec(`insert into t values (5);\nselect * from nope`);} catch(e){ console.log(e.constructor.name, e.message, e.code, e.position, typeof e.position, Object.keys(e)); }
console.log((await pg.query('select count(*) from t')).rows);
try { await pg.transaction(async tx => tx.exec(`insert into t values (7); select * from nope`)); } catch(e){ console.log('tx', e.message, e.code, e.position) }
console.log((await pg.query('select count(*) from t')).rows);
t=Date.now();
const dump = await pg.dumpDataDir('gzip');
console.log('dump', dump.size, Date.now()-t, dump.constructor.name, dump.name);
const dump2 = await pg.dumpDataDir('none');
console.log('dump none', dump2.size);
t=Date.now();
const pg2 = await PGlite.create({loadDataDir: dump});
console.log('load ms', Date.now()-t, (await pg2.query('select count(*) from t')).rows);
