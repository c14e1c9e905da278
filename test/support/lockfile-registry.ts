// The npm registry as far as this project's lockfile reaches, served on the loopback interface
// from the npm cache that `npm ci` filled: so that a test can run the README's install commands
// (`npx --package=<tarball>`, `npm install --save-dev <tarball>`, an install from git) as a user
// types them, with no network. npm resolves a package by its registry document (every version,
// each with its dependencies and where its tarball is); `npm ci` caches the tarballs only, so the
// documents are made here from the lockfile's entries (name, version, dependencies, bin, engines,
// os and cpu, integrity), and a tarball is read from the cache by its integrity. A name or a
// tarball the lockfile does not hold is answered 404, as a registry would answer an unknown one.
import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

type LockEntry = Record<string, unknown> & { version?: string; integrity?: string; name?: string; link?: boolean };

/** The fields of a lockfile entry a registry document's version carries too. */
const VERSION_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
  'license',
  'deprecated',
  'hasInstallScript',
];

export interface LockfileRegistry {
  /** The registry's address, for npm's `registry` setting. */
  url: string;
  /** The requests answered 404 (a test names them when an install fails). */
  misses: string[];
  close(): Promise<void>;
}

/** Where cacache (npm's cache) keeps the content of an integrity: content-v2/<algorithm>/<hex, split 2/2/rest>. */
function cachedContent(npmCache: string, integrity: string): string | undefined {
  const [algorithm, digest] = integrity.split(' ')[0]!.split('-') as [string, string];
  const hex = Buffer.from(digest, 'base64').toString('hex');
  const file = path.join(npmCache, '_cacache', 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
  return existsSync(file) ? file : undefined;
}

/** The package a lockfile place holds: its own name (an alias's entry names it), else the place's last `node_modules/` part. */
function packageName(place: string, entry: LockEntry): string {
  return entry.name ?? place.slice(place.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

function newer(a: string, b: string): boolean {
  const parts = (v: string) => v.split(/[.+-]/).slice(0, 3).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
}

/** Serves the packages of `lockfilePath` from the npm cache at `npmCache`, until closed. */
export async function serveLockfile(lockfilePath: string, npmCache: string): Promise<LockfileRegistry> {
  const lock = JSON.parse(await readFile(lockfilePath, 'utf8')) as { packages: Record<string, LockEntry> };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const documents = new Map<string, { name: string; 'dist-tags': { latest: string }; versions: Record<string, unknown> }>();
  const tarballs = new Map<string, string>();
  for (const [place, entry] of Object.entries(lock.packages)) {
    if (place === '' || entry.link || !entry.version || !entry.integrity) continue;
    const name = packageName(place, entry);
    // Where the registry keeps it (a lockfile may leave `resolved` out).
    const tarballPath = `/${name}/-/${name.slice(name.indexOf('/') + 1)}-${entry.version}.tgz`;
    tarballs.set(tarballPath, entry.integrity);
    const document = documents.get(name) ?? { name, 'dist-tags': { latest: entry.version }, versions: {} };
    document.versions[entry.version] = {
      name,
      version: entry.version,
      ...Object.fromEntries(VERSION_FIELDS.filter((field) => field in entry).map((field) => [field, entry[field]])),
      dist: { tarball: `${url}${tarballPath}`, integrity: entry.integrity },
    };
    if (newer(entry.version, document['dist-tags'].latest)) document['dist-tags'].latest = entry.version;
    documents.set(name, document);
  }

  const misses: string[] = [];
  server.on('request', (request, response) => {
    const pathname = new URL(request.url ?? '/', url).pathname;
    const integrity = tarballs.get(pathname);
    const file = integrity === undefined ? undefined : cachedContent(npmCache, integrity);
    if (file) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      createReadStream(file).pipe(response);
      return;
    }
    const document = integrity === undefined ? documents.get(decodeURIComponent(pathname.slice(1))) : undefined;
    if (document) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(document));
      return;
    }
    misses.push(`${request.method} ${pathname}`);
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"error":"Not found"}');
  });
  return {
    url,
    misses,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
