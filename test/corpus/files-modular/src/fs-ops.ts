import { promises as fs } from 'node:fs';

export const journal: string[] = [];

export async function removeFile(path: string): Promise<void> {
  journal.push(`rm ${path}`);
  await fs.rm(path, { force: true });
}

export async function moveFile(from: string, to: string): Promise<void> {
  journal.push(`mv ${from} ${to}`);
  await fs.rename(from, to);
}

export function log(line: string): void {
  journal.push(line);
}
