// The tables the console manages, in memory.
const rows: Record<string, number> = { events: 120, sessions: 8, audit: 3 };

export function countRows(table: string): number {
  return rows[table] ?? 0;
}

export function dropTable(table: string): void {
  delete rows[table];
}
