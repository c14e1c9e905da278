export interface Note {
  id: string;
  title: string;
  tags: string[];
}

/** Notes by id; a real deployment would back this with a database. */
export type NoteStore = Map<string, Note>;

export function seedNotes(): NoteStore {
  return new Map([
    ['n1', { id: 'n1', title: 'Groceries', tags: ['home'] }],
    ['n2', { id: 'n2', title: 'Quarterly report', tags: [] }],
  ]);
}
