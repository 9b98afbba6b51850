// The production build: the server bundled to JavaScript (esbuild) and the web app (Vite).
//
//   node apps/server/scripts/build.mjs             build both (root `npm run build`)
//   node apps/server/scripts/build.mjs server      only the server (or: web)
//   node apps/server/scripts/build.mjs --if-stale  only what is not current
//
// Plain JavaScript on purpose: `start.mjs` imports this file to decide whether the
// build is current, in a production install (`npm ci --omit=dev`) where neither tsx
// nor esbuild nor Vite need be installed. The build tools are imported only when
// something is actually built.
//
// "Current" means: the build's stamp file holds the hash of the contents of the
// files the build reads (and, for the web app, of the VITE_* variables it bakes
// in). Contents, not modification times: a copy of the checkout (cp, git clone,
// a container image layer) keeps its build current.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER = path.join(ROOT, 'apps/server');
const WEB = path.join(ROOT, 'apps/web');

/**
 * The server's entry points, relative to apps/server/src: each becomes
 * apps/server/dist/<name>.js. Adding a command is one line here.
 */
export const SERVER_ENTRY_POINTS = {
  server: 'server.ts',
  'backup-cli': 'ops/backup-cli.ts',
  // Preloaded before server.js when traces are wanted (start.mjs): see its comment.
  'tracing-init': 'observability/tracing-init.ts',
};

/** Where the built server is, and the file `npm start` runs. */
export const SERVER_DIST = path.join(SERVER, 'dist');
export const SERVER_MAIN = path.join(SERVER_DIST, 'server.js');
/** The web app's build (Vite's outDir in apps/web/vite.config.ts). */
export const WEB_DIST = path.join(WEB, 'dist');

/** The stamp sits in the output folder: a build that is removed or replaced takes its stamp along. */
const STAMP = '.build-stamp.json';

/** Folders never read as inputs. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'test', 'coverage']);
/** Test files are not part of either build: changing one rebuilds nothing. */
const isTestFile = (name) => /\.test\.tsx?$/.test(name);

/** Every file under `dir` (recursively), absolute paths. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) out.push(...filesUnder(full));
    } else if (entry.isFile() && !isTestFile(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

/** The workspace packages both builds bundle. */
const WORKSPACE_PACKAGE_INPUTS = [
  'packages/contract/src',
  'packages/contract/package.json',
  'packages/domain/src',
  'packages/domain/package.json',
];

/**
 * The two builds: what each reads (files and folders relative to the
 * repository root, plus environment variables), where it writes, and how.
 */
export const TARGETS = [
  {
    name: 'server',
    inputs: [
      'apps/server/src',
      'apps/server/package.json',
      'apps/server/tsconfig.json',
      'tsconfig.base.json',
      'apps/server/scripts/build.mjs',
      ...WORKSPACE_PACKAGE_INPUTS,
    ],
    env: () => [],
    outDir: SERVER_DIST,
    /** The file that must exist for the build to count at all. */
    main: SERVER_MAIN,
    tool: 'esbuild',
    workspace: SERVER,
    build: buildServer,
  },
  {
    name: 'web',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/package.json',
      'apps/web/tsconfig.json',
      'apps/web/vite.config.ts',
      'tsconfig.base.json',
      // Served as /changelog.md (vite.config.ts).
      'CHANGELOG.md',
      // Vite bundles the npm dependencies: another version is another build.
      'package-lock.json',
      'apps/server/scripts/build.mjs',
      ...WORKSPACE_PACKAGE_INPUTS,
    ],
    // Vite bakes VITE_* variables (the map's tile URL) into the bundle.
    env: () =>
      Object.keys(process.env)
        .filter((k) => k.startsWith('VITE_'))
        .sort()
        .map((k) => `${k}=${process.env[k]}`),
    outDir: WEB_DIST,
    main: path.join(WEB_DIST, 'index.html'),
    tool: 'vite',
    workspace: WEB,
    build: buildWeb,
  },
];

/** The hash of everything `target` reads: relative paths and contents, sorted, then the variables. */
export function inputHash(target) {
  const hash = createHash('sha256');
  const files = target.inputs
    .flatMap((input) => {
      const full = path.join(ROOT, input);
      if (!existsSync(full)) return [];
      return statSync(full).isDirectory() ? filesUnder(full) : [full];
    })
    .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(ROOT, file)));
    hash.update('\0');
  }
  for (const variable of target.env()) hash.update(`env ${variable}\0`);
  return hash.digest('hex');
}

/** Whether `target`'s output exists and was built from the inputs as they are now. */
export function isCurrent(target, hash = inputHash(target)) {
  if (!existsSync(target.main)) return false;
  try {
    const stamp = JSON.parse(readFileSync(path.join(target.outDir, STAMP), 'utf8'));
    return stamp.hash === hash;
  } catch {
    return false;
  }
}

/** Whether the tool `target` is built with is installed (not in `npm ci --omit=dev`). */
export function toolInstalled(target) {
  const require = createRequire(path.join(target.workspace, 'package.json'));
  try {
    // esbuild and Vite both export their package.json: found without loading either.
    require.resolve(`${target.tool}/package.json`);
    return true;
  } catch {
    return false;
  }
}

/** Build `target` and stamp it with the hash its inputs had before the build began. */
export async function buildTarget(target) {
  const hash = inputHash(target);
  const started = Date.now();
  await target.build();
  writeFileSync(
    path.join(target.outDir, STAMP),
    `${JSON.stringify({ hash, builtAt: new Date().toISOString() }, null, 2)}\n`,
  );
  console.log(`built ${target.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The server: every entry point bundled with the workspace packages
 * (@coldtrace/contract, @coldtrace/domain: TypeScript sources, which Node
 * cannot run), every npm dependency left as an import, so `npm ci --omit=dev`
 * provides it as it is (native modules, files packages read next to
 * themselves, dynamic imports). Shared code goes into chunks/.
 *
 * Files the server reads at run time are found from the built file as from
 * the source: the repository root (config.ts) and the migrations folder
 * (db/migrate.ts) by walking up to the nearest package.json; fonts through
 * `require.resolve` (node_modules); the web app from WEB_DIST.
 */
async function buildServer() {
  const esbuild = await import('esbuild');
  rmSync(SERVER_DIST, { recursive: true, force: true });
  const entryPoints = Object.fromEntries(
    Object.entries(SERVER_ENTRY_POINTS).map(([name, file]) => [
      name,
      path.join(SERVER, 'src', file),
    ]),
  );
  const result = await esbuild.build({
    entryPoints,
    outdir: SERVER_DIST,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    // package.json "engines": node >= 20.19.
    target: 'node20.19',
    tsconfig: path.join(SERVER, 'tsconfig.json'),
    sourcemap: true,
    // Class and function names as in the source (error names, logs), not renamed by bundling.
    keepNames: true,
    logLevel: 'warning',
    metafile: true,
    plugins: [externalNpmPackages],
  });
  checkRuntimeDependencies(result.metafile);
}

/**
 * Every npm package the built server imports must be one of apps/server's
 * "dependencies": a devDependency (or a package only hoisted from another
 * workspace) is missing after `npm ci --omit=dev`, and the server would die
 * at its first import. Imports through `createRequire` are not seen here.
 */
export function checkRuntimeDependencies(metafile) {
  const manifest = JSON.parse(readFileSync(path.join(SERVER, 'package.json'), 'utf8'));
  const allowed = new Set(Object.keys(manifest.dependencies ?? {}));
  const builtins = new Set(builtinModules);
  const missing = new Map();
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    for (const { path: specifier, external } of imports) {
      if (!external || specifier.startsWith('node:') || builtins.has(specifier)) continue;
      if (specifier.startsWith('.') || path.isAbsolute(specifier)) continue;
      const parts = specifier.split('/');
      const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (!allowed.has(name)) missing.set(name, path.relative(ROOT, output));
    }
  }
  if (missing.size > 0) {
    throw new Error(
      'The built server imports packages that are not dependencies of apps/server ' +
        '(absent from a production install):\n' +
        [...missing].map(([name, output]) => `  - ${name} (in ${output})`).join('\n'),
    );
  }
}

/** Bare imports stay imports (npm packages, node: built-ins), except the workspace packages. */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (path.isAbsolute(args.path)) return undefined;
      if (args.path.startsWith('@coldtrace/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** The web app: the workspace's own `build` script (vite build into apps/web/dist). */
function buildWeb() {
  return new Promise((resolve, reject) => {
    const npm = process.env.npm_execpath;
    // Under npm, npm_execpath is npm's CLI (a JS file); otherwise `npm` on the PATH.
    const [command, args] =
      npm && npm.endsWith('.js')
        ? [process.execPath, [npm, 'run', 'build', '-w', '@coldtrace/web']]
        : ['npm', ['run', 'build', '-w', '@coldtrace/web']];
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`web build failed (${signal ?? `code ${code}`})`)),
    );
  });
}

/**
 * Build the targets named in `only` (all when empty), with `ifStale` only those
 * not current. Returns the names of the targets built.
 */
export async function build({ only = [], ifStale = false } = {}) {
  const unknown = only.filter((name) => !TARGETS.some((t) => t.name === name));
  if (unknown.length > 0) throw new Error(`unknown build target: ${unknown.join(', ')}`);
  const built = [];
  for (const target of TARGETS) {
    if (only.length > 0 && !only.includes(target.name)) continue;
    if (ifStale && isCurrent(target)) continue;
    await buildTarget(target);
    built.push(target.name);
  }
  return built;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  build({
    only: args.filter((a) => !a.startsWith('--')),
    ifStale: args.includes('--if-stale'),
  }).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
