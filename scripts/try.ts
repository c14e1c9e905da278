import { readFileSync } from 'node:fs';
import { transformSource } from '../src/transform.ts';
import { TsTypeFactsProvider } from '../src/analyse/ts-type-facts.ts';
const file = process.argv[2]!;
const src = readFileSync(file, 'utf8');
const facts = await new TsTypeFactsProvider().forFile(file, src);
const r = transformSource(src, file, facts);
process.stdout.write(r.output);
console.error(JSON.stringify(r.plan.sites, null, 1));
