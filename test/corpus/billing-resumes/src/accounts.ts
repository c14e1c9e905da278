export interface Invoice {
  id: string;
  customer: string;
  amount: number;
  paid: boolean;
}

export const invoices = new Map<string, Invoice>([
  ['inv-1', { id: 'inv-1', customer: 'ada', amount: 120, paid: false }],
  ['inv-2', { id: 'inv-2', customer: 'grace', amount: 80, paid: true }],
]);

export const ledger: string[] = [];

export function newElicitationId(): string {
  return `el-${ledger.length + 1}-${Math.random().toString(36).slice(2, 8)}`;
}

export function pendingPayment(elicitationId: string): void {
  ledger.push(`pending:${elicitationId}`);
}

/** Whether the payment page reported back for this elicitation (its webhook writes the ledger). */
export function isSettled(elicitationId: string): boolean {
  return ledger.includes(`settled:${elicitationId}`);
}
