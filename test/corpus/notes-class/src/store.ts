export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
  archived: boolean;
}

/** Notes kept in memory; a real deployment would back this with a database. */
export class NoteStore {
  private readonly notes = new Map<string, Note>();
  private roots: string[] = [];

  constructor(seed: Note[] = []) {
    for (const note of seed) this.notes.set(note.id, note);
  }

  get(id: string): Note | undefined {
    return this.notes.get(id);
  }

  delete(id: string): boolean {
    return this.notes.delete(id);
  }

  archive(id: string): void {
    const note = this.notes.get(id);
    if (note) note.archived = true;
  }

  setRoots(roots: string[]): void {
    this.roots = roots;
  }

  workspaceRoots(): readonly string[] {
    return this.roots;
  }
}
