// Prints the corpus measure (sites found, migrated, marked, missed) and each site's outcome:
//   npx tsx test/support/corpus-report.ts [--no-types] [--keep] [project...]
// --keep leaves each migrated copy in place (its folder is printed) for reading.
import { corpusProjects, describeOutcome, measureProject, removeScratch, scratchCopy, tally, type ProjectMeasure } from './corpus.ts';

const args = process.argv.slice(2);
const noTypes = args.includes('--no-types');
const keep = args.includes('--keep');
const only = args.filter((a) => !a.startsWith('--'));
const measures: ProjectMeasure[] = [];
for (const project of corpusProjects().filter((p) => only.length === 0 || only.includes(p))) {
  const dir = scratchCopy(project);
  try {
    const measure = await measureProject(project, dir, noTypes ? false : undefined);
    measures.push(measure);
    for (const o of measure.outcomes) console.log(describeOutcome(project, o));
    for (const s of measure.unexpected)
      console.log(`  ?? ${project}/${s.file}:${s.line}  reported ${s.status}${s.code ? ` ${s.code}` : ''} at no expected site`);
    for (const e of measure.result.errors) console.log(`  EE ${project}/${e.file}: ${e.stage}: ${e.message}`);
  } finally {
    if (keep) console.log(`  (kept: ${dir})`);
    else removeScratch(dir);
  }
}
const t = tally(measures);
console.log(
  `\n${t.sites} sites: ${t.found} found, ${t.migrated} migrated, ${t.marked} marked, ${t.missed} missed; ${t.migratedWithoutRequest} migrated with no request to answer; ${t.wrong} not as expected`,
);
