// The output check of src/engine/verify-output.ts: the generated helper block is parsed apart
// from the rest of a file, so the check must still refuse every text that does not parse.
import { describe, expect, it } from 'vitest';
import { ParseFailure } from '../src/analyse/parse.ts';
import { verifyParses } from '../src/engine/verify-output.ts';
import { helpersBlock } from '../src/rewrite/helpers-block.ts';

const block = helpersBlock({ typed: true, exportCodec: false, eol: '\n' });
const imports = "import { McpServer } from '@modelcontextprotocol/server';\n";

describe('verifyParses', () => {
  it('accepts a migrated file: the block between top-level statements', () => {
    expect(() => verifyParses(`${imports}\n${block}\nexport const x = 1;\n`, 'ts')).not.toThrow();
  });

  it('refuses a file whose code outside the block does not parse', () => {
    expect(() => verifyParses(`${imports}\n${block}\nexport const x = ;\n`, 'ts')).toThrow(ParseFailure);
  });

  it('refuses a broken block', () => {
    const broken = block.replace('function mrtrStateKey()', 'function mrtrStateKey(');
    expect(() => verifyParses(`${imports}\n${broken}\nexport const x = 1;\n`, 'ts')).toThrow(ParseFailure);
  });

  it('refuses a block spliced into the middle of a statement, though each part parses alone', () => {
    // `const x = ` + block + `1;`: the rest reads `const x = 1;`, the block parses alone.
    expect(() => verifyParses(`${imports}const x = ${block}\n1;\n`, 'ts')).toThrow(ParseFailure);
  });

  it('refuses a block spliced into a string', () => {
    expect(() => verifyParses(`${imports}const s = '${block.split('\n')[0]}';\nconst t = '${block}';\n`, 'ts')).toThrow(ParseFailure);
  });
});
