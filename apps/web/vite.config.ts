// The build configuration runs in Node, not in the browser: Node built-ins are fine here.
// eslint-disable-next-line no-restricted-imports -- build-time only, never bundled
import { existsSync, readFileSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports -- build-time only, never bundled
import { fileURLToPath } from 'node:url';
// eslint-disable-next-line no-restricted-imports -- build-time only, never bundled
import { constants as zlibConstants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/** The repository's changelog, served and emitted as `/changelog.md` (spec section 2, /changelog). */
const CHANGELOG_SOURCE = fileURLToPath(new URL('../../CHANGELOG.md', import.meta.url));
const CHANGELOG_URL = '/changelog.md';
const CHANGELOG_FALLBACK = '# Changelog\n\nNo changes have been recorded yet.\n';

function readChangelog(warn: (message: string) => void): string {
  if (existsSync(CHANGELOG_SOURCE)) return readFileSync(CHANGELOG_SOURCE, 'utf8');
  warn(`${CHANGELOG_SOURCE} not found: emitting a placeholder changelog`);
  return CHANGELOG_FALLBACK;
}

function changelogPlugin(): Plugin {
  return {
    name: 'coldtrace-changelog',
    buildStart() {
      if (existsSync(CHANGELOG_SOURCE)) this.addWatchFile(CHANGELOG_SOURCE);
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: CHANGELOG_URL.slice(1),
        source: readChangelog((message) => this.warn(message)),
      });
    },
    configureServer(server) {
      server.middlewares.use(CHANGELOG_URL, (_req, res) => {
        res.setHeader('Content-Type', 'text/markdown; charset=utf-8');
        res.setHeader('Cache-Control', 'no-cache');
        res.end(readChangelog((message) => server.config.logger.warn(message)));
      });
    },
  };
}

const REACT_MODULES =
  /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/;

/** MUI (not MUI X) with its icons and the libraries it is made of. */
const MUI_MODULES =
  /node_modules[\\/](@mui[\\/](?!x-)|@emotion|@popperjs|react-transition-group|stylis|clsx|react-is|hoist-non-react-statics|@babel[\\/]runtime)/;

/** Vendor chunks: one per library family, so the entry chunk stays small and caches well. */
function vendorChunk(id: string): string | null {
  // Zod's settings (no eval, for the CSP) run inside Zod's chunk, before any chunk builds a schema.
  if (/[\\/]src[\\/]zod-config\.ts$/.test(id)) return 'zod';
  if (!id.includes('node_modules')) return null;
  // The data grid and the date pickers apart: each screen loads only the one it uses.
  if (/node_modules[\\/](@mui[\\/]x-(data-grid|virtualizer)|@base-ui|reselect)[\\/]/.test(id)) {
    return 'mui-x-data-grid';
  }
  if (/node_modules[\\/](@mui[\\/]x-date-pickers|dayjs)[\\/]/.test(id)) return 'mui-x-date-pickers';
  if (/node_modules[\\/]@mui[\\/]x-/.test(id)) return 'mui-x';
  if (REACT_MODULES.test(id)) return 'react';
  if (/node_modules[\\/]@tanstack[\\/]/.test(id)) return 'query';
  // Only the record detail page draws charts and maps: their own chunks, loaded there only.
  if (/node_modules[\\/]uplot[\\/]/.test(id)) return 'uplot';
  if (/node_modules[\\/]leaflet[\\/]/.test(id)) return 'leaflet';
  if (/node_modules[\\/]zod[\\/]/.test(id)) return 'zod';
  return 'vendor';
}

/**
 * A `.br` and a `.gz` next to each text file of the build (not the source maps), at
 * brotli's and gzip's best levels: compressed once here, the server sends them as
 * they are (`preCompressed` in apps/server/src/http/web-app.ts). A file that does
 * not shrink keeps no compressed copy.
 */
function precompress(): Plugin {
  return compression({
    include: /\.(html|css|js|mjs|json|svg|md|txt|webmanifest)$/,
    threshold: 0,
    skipIfLargerOrEqual: true,
    algorithms: [
      defineAlgorithm('brotliCompress', { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
      defineAlgorithm('gzip', { level: 9 }),
    ],
    logLevel: 'silent',
  });
}

/** Chunk names of the `mui-parts` group list every chunk that uses them: keep the prefix only. */
function chunkFileName({ name }: { name: string }): string {
  return `assets/${name.replace(/~.*$/, '')}-[hash].js`;
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), changelogPlugin(), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:8000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:8000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps: they are the whole source (~10 MB), and the server answers 404 for
    // *.map (apps/server/src/http/web-app.ts). To debug a build locally, run
    // `npx vite build --sourcemap` in apps/web.
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // The workspace packages are pure (schemas, constants, functions): a module
      // none of whose exports is used is left out, so the entry chunk does not
      // carry every entity schema of the contract.
      treeshake: {
        moduleSideEffects: [
          { test: /packages[\\/](contract|domain)[\\/]src[\\/]/, sideEffects: false },
        ],
      },
      output: {
        chunkFileNames: chunkFileName,
        codeSplitting: {
          groups: [
            // React first: a library group would otherwise take React in with its own
            // dependencies (react-leaflet did), and every page would load that chunk.
            { name: 'react', test: REACT_MODULES, priority: 3 },
            // MUI in two parts. What the shell (entry chunk) uses, in one chunk; the rest
            // grouped by the set of lazy chunks using it, so a page loads only the components
            // it shows, not every dialog's and grid's (Select, Autocomplete, Tabs, ...).
            // Above the vendor group: the data grid's group would otherwise take the MUI
            // components it uses in with its own dependencies, and the dashboard with it.
            { name: 'mui', test: MUI_MODULES, tags: ['$initial'], priority: 2 },
            {
              name: 'mui-parts',
              test: MUI_MODULES,
              entriesAware: true,
              // Parts under 4 kB join a neighbour: fewer, slightly larger requests.
              entriesAwareMergeThreshold: 4000,
              priority: 1,
            },
            // zod-config.ts joins Zod's chunk (vendorChunk), so it runs before any schema is built.
            {
              name: vendorChunk,
              debugName: 'vendor',
              test: /node_modules|[\\/]src[\\/]zod-config\.ts$/,
            },
          ],
        },
      },
    },
  },
});
