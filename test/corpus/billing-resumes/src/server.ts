import {
  createRequestStateCodec,
  inputRequired,
  McpServer,
  UrlElicitationRequiredError,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { invoices, isSettled, ledger, newElicitationId, pendingPayment, type Invoice } from './accounts.js';

// Hand-written state for the refund tool (migrated by hand before the codemod existed).
const refundCodec = createRequestStateCodec<{ invoice: string }>({ key: process.env.REFUND_KEY ?? 'x'.repeat(32) });

export function createServer(): McpServer {
  const server = new McpServer({ name: 'billing', version: '0.2.0' }, { requestState: { verify: refundCodec.verify } });

  // Already migrated by hand: asks with inputRequired and reads the answer on the retry.
  server.registerTool('refund', { description: 'Refund an invoice', inputSchema: z.object({ invoice: z.string() }) }, async ({ invoice }, ctx) => {
    const answer = ctx.mcpReq.inputResponses?.confirm;
    if (!answer) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({ message: `Refund ${invoice}?`, requestedSchema: { type: 'object', properties: {} } }),
        },
        requestState: await refundCodec.mint({ invoice }),
      });
    }
    ledger.push(`refund:${invoice}`);
    return { content: [{ type: 'text', text: 'Refunded.' }] };
  });

  server.registerTool('pay_invoice', { description: 'Pay an invoice in the browser', inputSchema: z.object({ invoice: z.string() }) }, async ({ invoice }): Promise<CallToolResult> => {
    const found = invoices.get(invoice);
    if (!found) return { content: [{ type: 'text', text: 'No such invoice.' }], isError: true };
    if (found.paid) return { content: [{ type: 'text', text: 'Already paid.' }] };
    const elicitationId = newElicitationId();
    pendingPayment(elicitationId);
    if (!isSettled(elicitationId)) {
      // `found` is read by the question only, and narrowed by the checks the retry skips: the
      // question stays with them; the retry reads the answer and goes on with the same id.
      // corpus-site: migrate
      throw new UrlElicitationRequiredError([
        { mode: 'url', message: `Pay ${found.amount} EUR`, url: `https://pay.example.com/${invoice}?e=${elicitationId}`, elicitationId },
      ]);
    }
    const settled = isSettled(elicitationId);
    ledger.push(`paid:${invoice}:${settled}`);
    return { content: [{ type: 'text', text: settled ? `Paid (${elicitationId}).` : 'Payment not received yet.' }] };
  });

  server.registerTool('dispute', { description: 'Dispute an invoice', inputSchema: z.object({ invoice: z.string() }) }, async ({ invoice }, ctx) => {
    const found: Invoice | undefined = invoices.get(invoice);
    if (!found) return { content: [{ type: 'text', text: 'No such invoice.' }], isError: true };
    let reason: string;
    // corpus-site: migrate
    const answer = await ctx.mcpReq.elicitInput({
      message: `Why do you dispute ${found.id} (${found.amount} EUR)?`,
      requestedSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] },
    });
    reason = answer.action === 'accept' ? String(answer.content?.reason) : 'none given';
    ledger.push(`dispute:${found.customer}:${reason}:${String(ctx.mcpReq.id)}`);
    return { content: [{ type: 'text', text: `Disputed ${found.id}: ${reason}` }] };
  });

  server.registerTool('mark_paid', { description: 'Mark an invoice paid', inputSchema: z.object({ invoice: z.string() }) }, async ({ invoice }, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const found = invoices.get(invoice);
    if (!found) return { content: [{ type: 'text', text: 'No such invoice.' }], isError: true };
    // `found` is read again on the retry (a Map read), so `found.paid = true` lands on the stored invoice.
    // corpus-site: migrate
    const answer = await ctx.mcpReq.elicitInput({
      message: `Mark ${found.id} as paid?`,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    if (answer.action === 'accept') found.paid = true;
    return { content: [{ type: 'text', text: found.paid ? 'Paid.' : 'Unpaid.' }] };
  });

  return server;
}
