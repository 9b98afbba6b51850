// @ts-check
/**
 * The server's module boundaries (issue 12, docs/ARCHITECTURE.md), enforced by lint:
 *
 * - the kernel, the HTTP layer, the database layer and observability (`kernel/`,
 *   `http/`, `db/`, `observability/`, `jobs/catalogue.ts`, `jobs/queue.ts`) import
 *   no feature module;
 * - a module (`modules/<name>/`) reaches another only through its entry,
 *   `modules/<other>/index.ts`, which exports functions and types, never routes,
 *   workers or services;
 * - what only the top of the house mounts (routes, job workers, a service the
 *   seed uses) is in `modules/<m>/plugin.ts`, which only files above the modules
 *   (`app.ts`, `server.ts`, `workers.ts`, `seed/`) import: importing one function
 *   of a module then never loads the routes of the whole server;
 * - no import loop between modules (the whole graph is read once per lint run).
 *
 * Relative imports only: the server reaches its own files by relative paths. Test
 * files may reach any file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '../../apps/server/src');
const BELOW_MODULES = ['kernel', 'http', 'db', 'observability'];
const BELOW_MODULE_FILES = ['jobs/catalogue.ts', 'jobs/queue.ts'];
const IMPORT =
  /(?:import|export)[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** The module a path (relative to src, '/'-separated, no extension) belongs to, or null. */
function moduleOf(rel) {
  const parts = rel.split('/');
  return parts[0] === 'modules' && parts.length > 1 ? parts[1] : null;
}

/** `modules/<m>` or `modules/<m>/index`: the module's entry. */
function isEntry(rel) {
  const parts = rel.split('/');
  return (
    parts[0] === 'modules' && (parts.length === 2 || (parts.length === 3 && parts[2] === 'index'))
  );
}

/** `modules/<m>/plugin`: what the top of the house mounts (routes, workers). */
function isPlugin(rel) {
  const parts = rel.split('/');
  return parts[0] === 'modules' && parts.length === 3 && parts[2] === 'plugin';
}

function relOf(file) {
  return path
    .relative(SRC, file)
    .split(path.sep)
    .join('/')
    .replace(/\.(ts|tsx|js)$/, '');
}

function targetOf(file, spec) {
  return relOf(path.resolve(path.dirname(file), spec));
}

/** Modules in an import loop (strongly connected components of more than one module). */
let loops;
function moduleLoops() {
  if (loops) return loops;
  const edges = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ts$/.test(name) && !/\.test\.ts$/.test(name)) {
        const from = moduleOf(relOf(full));
        if (from === null) continue;
        for (const m of readFileSync(full, 'utf8').matchAll(IMPORT)) {
          const to = moduleOf(targetOf(full, m[1] ?? m[2]));
          if (to !== null && to !== from) {
            if (!edges.has(from)) edges.set(from, new Set());
            edges.get(from).add(to);
          }
        }
      }
    }
  };
  walk(SRC);
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  loops = new Map();
  const connect = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) for (const m of component) loops.set(m, component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) connect(v);
  return loops;
}

/** @type {import('eslint').Rule.RuleModule} */
const moduleImports = {
  meta: {
    type: 'problem',
    docs: { description: "the server's module boundaries (docs/ARCHITECTURE.md)" },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const rel = relOf(file);
    // Tests may reach any file they test.
    if (rel.startsWith('..') || rel.endsWith('.test')) return {};
    const from = moduleOf(rel);
    const below =
      BELOW_MODULES.includes(rel.split('/')[0]) || BELOW_MODULE_FILES.includes(`${rel}.ts`);
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = targetOf(file, spec);
      const to = moduleOf(target);
      if (to === null || to === from) return;
      if (below) {
        context.report({
          node,
          message: `${rel.split('/')[0]}/ sits below the modules: it imports no feature module ('${spec}')`,
        });
      } else if (isPlugin(target)) {
        if (from !== null) {
          context.report({
            node,
            message: `modules/${to}/plugin.ts is for app.ts and workers.ts (routes and workers): import modules/${to}/index.ts`,
          });
        }
      } else if (!isEntry(target)) {
        context.report({
          node,
          message: `import another module only through its entry: '${spec}' reaches into modules/${to}/ (use its index.ts)`,
        });
      } else if (from !== null && moduleOnLoop(from, to)) {
        context.report({
          node,
          message: `import loop between modules: ${moduleLoops().get(from).join(' → ')}`,
        });
      }
    };
    const moduleOnLoop = (a, b) => {
      const loop = moduleLoops().get(a);
      return loop !== undefined && loop.includes(b);
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'module-imports': moduleImports } };
