/**
 * admin-ui build: a single-page react-admin console. The server answers `/admin` and
 * `/admin/<path>` (but not `/admin/api/...`) with `static/dist/admin/index.html`.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/static/dist/admin/',
  plugins: [react()],
  build: {
    outDir: '../static/dist/admin',
    emptyOutDir: true,
    manifest: true,
    // A staff-only single-page app: one large chunk is fine.
    chunkSizeWarningLimit: 1500,
  },
  server: {
    // `npm run dev -w admin-ui` against a server on :8000.
    proxy: { '/admin/api': 'http://127.0.0.1:8000' },
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // Longer than Testing Library's 30 s wait (src/test-setup.ts): hosts run up to 4× slower.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
