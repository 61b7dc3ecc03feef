/** The viewer package's unit tests (the camera's placement; drawing is tested in a real browser, e2e/). */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.ts'],
  },
});
