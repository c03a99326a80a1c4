import { defineConfig } from 'vite';

// The Mini App: built at install time into webapp/dist and served by the service under /app/.
// Preact through esbuild's automatic JSX runtime (no framework plugin needed).
export default defineConfig({
  root: __dirname,
  base: '/app/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020', assetsInlineLimit: 0, reportCompressedSize: false },
  logLevel: 'warn',
});
