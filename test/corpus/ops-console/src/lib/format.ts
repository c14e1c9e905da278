export function formatRows(rows: number): string {
  return rows === 1 ? '1 row' : `${rows} rows`;
}
