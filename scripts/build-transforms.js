// The jscodeshift transforms (transforms/*.ts, beside src/ at the top of the project) compiled
// into dist/transforms/, where `jscodeshift -t node_modules/mrtr-codemod/dist/transforms/<name>.js`
// finds them. They import the pipeline from ../src/; in dist/ the pipeline sits one level up
// (src/ compiles to dist/ at the same depth), so each relative specifier `../src/x.ts` becomes
// `../x.js`. Their types are checked with the rest of the project (tsconfig.json, npm test).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** `../src/analyse/x.ts` → `../analyse/x.js`; any other relative `.ts` specifier → `.js`. */
export function distSpecifier(specifier) {
  if (!specifier.startsWith('.')) return specifier;
  const moved = specifier.startsWith('../src/') ? `../${specifier.slice('../src/'.length)}` : specifier;
  return moved.replace(/\.ts$/, '.js');
}

/** Rewrites the specifiers of static imports and exports and of `import('...')` calls. */
function specifiersForDist(context) {
  const { factory } = context;
  const literal = (node) => (distSpecifier(node.text) === node.text ? node : factory.createStringLiteral(distSpecifier(node.text), true));
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
      return factory.updateImportDeclaration(node, node.modifiers, node.importClause, literal(node.moduleSpecifier), node.attributes);
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      return factory.updateExportDeclaration(node, node.modifiers, node.isTypeOnly, node.exportClause, literal(node.moduleSpecifier), node.attributes);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]))
      return factory.updateCallExpression(node, node.expression, node.typeArguments, [literal(node.arguments[0]), ...node.arguments.slice(1)]);
    return ts.visitEachChild(node, visit, context);
  };
  return (sourceFile) => ts.visitNode(sourceFile, visit);
}

/** Writes dist/transforms/<name>.js and .d.ts for each transforms/<name>.ts; returns the names written. */
export function buildTransforms(root) {
  const from = path.join(root, 'transforms');
  const to = path.join(root, 'dist', 'transforms');
  mkdirSync(to, { recursive: true });
  const written = [];
  for (const name of readdirSync(from).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
    const source = readFileSync(path.join(from, name), 'utf8');
    const compilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
    const code = ts.transpileModule(source, { fileName: name, compilerOptions, transformers: { before: [specifiersForDist] } });
    const types = ts.transpileDeclaration(source, { fileName: name, compilerOptions, transformers: { afterDeclarations: [specifiersForDist] } });
    writeFileSync(path.join(to, name.replace(/\.ts$/, '.js')), code.outputText);
    writeFileSync(path.join(to, name.replace(/\.ts$/, '.d.ts')), types.outputText);
    written.push(name);
  }
  return written;
}
