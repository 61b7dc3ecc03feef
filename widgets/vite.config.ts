/**
 * Widgets build: every `src/entries/*.ts` is an entry; output goes to `static/dist/widgets/`
 * with a manifest (`.vite/manifest.json`) that the server reads to emit script tags.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const entries = Object.fromEntries(
  readdirSync(`${root}src/entries`)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => [f.replace(/\.ts$/, ''), `${root}src/entries/${f}`]),
);

export default defineConfig({
  root,
  base: '/static/dist/widgets/',
  plugins: [react()],
  build: {
    outDir: '../static/dist/widgets',
    emptyOutDir: true,
    manifest: true,
    rollupOptions: { input: entries },
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    restoreMocks: true,
    // Longer than Testing Library's 30 s wait (src/test-setup.ts), as in the console: a first
    // render beside the TypeScript lint on two cores ran past vitest's default 5 s (CI, 2026-11-28).
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
