export interface Ticket {
  id: number;
  title: string;
  status: 'open' | 'closed';
  labels: string[];
}

export const tickets = new Map<number, Ticket>([
  [1, { id: 1, title: 'Login fails on Safari', status: 'open', labels: [] }],
  [2, { id: 2, title: 'Dark mode colours', status: 'open', labels: ['ui'] }],
]);

export function findTicket(id: number): Ticket | undefined {
  return tickets.get(id);
}

export function closeTicket(id: number): void {
  const ticket = tickets.get(id);
  if (ticket) ticket.status = 'closed';
}
