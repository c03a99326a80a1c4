import type { Conn } from './db.js';
import { auditLog } from './schema.js';

export function audit(conn: Conn, now: number, actor: string, action: string, target: string | null, data?: unknown): void {
  conn.insert(auditLog).values({ actor, action, target, data: data ?? null, createdAt: now }).run();
}
