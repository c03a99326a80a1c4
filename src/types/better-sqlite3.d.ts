// better-sqlite3's types, installed under another name (package.json: better-sqlite3-types). Under their own
// name, @types/better-sqlite3, npm counts them as a production package (an optional peer of drizzle-orm)
// and `npm prune --omit=dev` keeps them and @types/node. The package itself has no types, so TypeScript
// takes this declaration for it; at run time nothing changes (tsc and tsx never read it).
declare module 'better-sqlite3' {
  import Database = require('better-sqlite3-types');
  export = Database;
}
