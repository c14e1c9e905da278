export interface Paper {
  id: string;
  title: string;
  abstract: string;
}

export const papers: Paper[] = [
  { id: 'p1', title: 'Tides and moons', abstract: 'On the tides.' },
  { id: 'p2', title: 'Moons and tides', abstract: 'On the moons.' },
];

export const reading: string[] = [];
