import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The packages Coldtrace ships, read from node_modules: the production dependencies
 * (with the optional and peer dependencies that are installed) of the apps, followed
 * through the workspace packages they use, each resolved as Node resolves it (the
 * nearest node_modules up the folders). Dev dependencies are never followed.
 */

export type App = 'server' | 'web';

export interface ShippedPackage {
  name: string;
  version: string;
  /** The licence as the package declares it (`license`, or the old `licenses` list). */
  license: string | undefined;
  repository: string | undefined;
  /** Folder in node_modules, relative to the repository (the first copy found). */
  dir: string;
  /** The apps it ships with (web: in the bundle sent to browsers). */
  apps: Set<App>;
}

interface Manifest {
  name?: string;
  version?: string;
  license?: string | { type?: string };
  licenses?: { type?: string }[] | string;
  repository?: string | { url?: string };
  homepage?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;

/** The declared licence as one SPDX-style text; a list of licences means a choice. */
export function declaredLicense(manifest: Manifest): string | undefined {
  const { license, licenses } = manifest;
  if (typeof license === 'string') return license;
  if (license && typeof license.type === 'string') return license.type;
  if (typeof licenses === 'string') return licenses;
  if (Array.isArray(licenses)) {
    const types = licenses.map((l) => l.type).filter((t): t is string => typeof t === 'string');
    if (types.length === 1) return types[0];
    if (types.length > 1) return `(${types.join(' OR ')})`;
  }
  return undefined;
}

function repositoryUrl(manifest: Manifest): string | undefined {
  const raw =
    typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (!raw) return manifest.homepage;
  const github = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(raw);
  if (github) return `https://github.com/${github[1]}`;
  return raw
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^ssh:\/\/git@/, 'https://')
    .replace(/^git@([^:]+):/, 'https://$1/')
    .replace(/\.git$/, '');
}

/** The folder `name` resolves to from `fromDir` (realpath), or undefined when not installed. */
function resolvePackage(fromDir: string, name: string, stopAt: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dir === stopAt || path.dirname(dir) === dir) return undefined;
  }
}

export interface Collected {
  packages: ShippedPackage[];
  /** Required dependencies that are not installed (npm ci was not run?). */
  missing: string[];
}

export function collectShippedPackages(
  root: string,
  apps: Record<App, string> = { server: 'apps/server', web: 'apps/web' },
): Collected {
  const byKey = new Map<string, ShippedPackage>();
  const missing = new Set<string>();
  const isWorkspace = (dir: string) =>
    !path.relative(root, dir).split(path.sep).includes('node_modules');

  for (const [app, appDir] of Object.entries(apps) as [App, string][]) {
    const seen = new Set<string>();
    const visit = (dir: string) => {
      if (seen.has(dir)) return;
      seen.add(dir);
      const manifest = readManifest(dir);
      if (!isWorkspace(dir)) {
        const relative = path.relative(root, dir).split(path.sep).join('/');
        const name = manifest.name ?? relative;
        const version = manifest.version ?? '?';
        // One entry per name and version, however many copies are installed.
        const key = `${name}@${version}`;
        const found = byKey.get(key) ?? {
          name,
          version,
          license: declaredLicense(manifest),
          repository: repositoryUrl(manifest),
          dir: relative,
          apps: new Set<App>(),
        };
        found.apps.add(app);
        byKey.set(key, found);
      }
      const required = Object.keys(manifest.dependencies ?? {});
      // Optional and peer dependencies ship when they are installed (a platform's binary).
      const ifInstalled = [
        ...Object.keys(manifest.optionalDependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ];
      for (const name of new Set([...required, ...ifInstalled])) {
        const target = resolvePackage(dir, name, root);
        if (target) visit(target);
        else if (required.includes(name) && !ifInstalled.includes(name)) {
          missing.add(`${name} (needed by ${manifest.name ?? dir})`);
        }
      }
    };
    visit(path.join(root, appDir));
  }

  const packages = [...byKey.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
  return { packages, missing: [...missing].sort() };
}
