// Bundles the playground's npm libraries (CodeMirror 6, uPlot) into vendor/ (gitignored):
// vendor/vendor.js (one ES module) and vendor/uPlot.min.css; and vendor/vendor.d.ts, the bundle's
// types for the type check (tsconfig.json): those of src/vendor.js, whose packages have their own.
// Run by scripts/playground.sh.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
mkdirSync(join(here, 'vendor'), { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'vendor.js')],
  outfile: join(here, 'vendor', 'vendor.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2020',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(here, 'node_modules', 'uplot', 'dist', 'uPlot.min.css'), join(here, 'vendor', 'uPlot.min.css'));
writeFileSync(join(here, 'vendor', 'vendor.d.ts'), "export * from '../src/vendor.js';\n");
